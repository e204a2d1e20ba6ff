import type { ServerResponse } from 'node:http';

/** Answers up to this size are handed to node whole; bigger ones are written chunk by chunk. */
const SMALL_ANSWER_BYTES = 64 * 1024;
const CHUNK_CHARS = 64 * 1024;
export interface AnswerLimits {
  /** A blocked answer may be closed to make room for a new one once it has made no progress this long. */
  evictAfterMs: number;
  /** A connection whose answer makes no progress (the client reads nothing) this long is closed. */
  stallMs: number;
  /** The most bytes of big answers held for all clients at once. */
  budgetBytes: number;
}

interface Outgoing {
  res: ServerResponse;
  bytes: number;
  /** When the last write was refused (the socket is full) and no drain came since; undefined while flowing. */
  blockedSince: number | undefined;
  released: boolean;
}

/**
 * Writes answers with backpressure: a big answer goes out a chunk at a time, the next chunk only
 * once the socket drains, so node never buffers more than a chunk ahead of the kernel. A client that
 * stops reading is cut off after `stallMs`; and all big answers together hold at most `budgetBytes`:
 * past it, connections blocked for a second are closed first, and if that is not enough the new
 * answer is refused (503, Retry-After) instead of held. Memory stays bounded whatever clients do.
 */
export class AnswerWriter {
  private held = 0;
  private readonly outgoing = new Set<Outgoing>();

  constructor(private readonly limits: AnswerLimits) {}

  /** Bytes of big answers held right now (for tests and benchmarks). */
  get heldBytes(): number {
    return this.held;
  }

  /** Whether an answer of `bytes` may be written now; false means refuse it as busy. */
  admit(bytes: number): boolean {
    if (bytes <= SMALL_ANSWER_BYTES || this.held + bytes <= this.limits.budgetBytes) return true;
    const now = performance.now();
    const evictable = [...this.outgoing]
      .filter((o) => o.blockedSince !== undefined && now - o.blockedSince >= this.limits.evictAfterMs)
      .sort((a, b) => a.blockedSince! - b.blockedSince!);
    for (const o of evictable) {
      if (this.held + bytes <= this.limits.budgetBytes) break;
      this.cut(o);
    }
    return this.held + bytes <= this.limits.budgetBytes;
  }

  /** Sends `text` (headers already set, Content-Length included). */
  write(res: ServerResponse, text: string, bytes: number): void {
    if (bytes <= SMALL_ANSWER_BYTES) {
      res.end(text);
      return;
    }
    const o: Outgoing = { res, bytes, blockedSince: undefined, released: false };
    this.held += bytes;
    this.outgoing.add(o);
    let stall: NodeJS.Timeout | undefined;
    res.once('close', () => {
      clearTimeout(stall);
      this.release(o);
    });
    let offset = 0;
    const pump = () => {
      clearTimeout(stall);
      o.blockedSince = undefined;
      while (offset < text.length) {
        let end = Math.min(offset + CHUNK_CHARS, text.length);
        // Never split a surrogate pair: each half alone would be written as U+FFFD.
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
        const flowing = res.write(text.slice(offset, end));
        offset = end;
        if (!flowing && offset < text.length) {
          o.blockedSince = performance.now();
          stall = setTimeout(() => this.cut(o), this.limits.stallMs);
          stall.unref();
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    pump();
  }

  /** Closes the connection of a blocked answer and forgets its bytes at once. */
  private cut(o: Outgoing): void {
    this.release(o);
    o.res.destroy();
    o.res.socket?.destroy();
  }

  private release(o: Outgoing): void {
    if (o.released) return;
    o.released = true;
    this.held -= o.bytes;
    this.outgoing.delete(o);
  }
}
