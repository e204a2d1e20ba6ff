import type { ServerResponse } from 'node:http';

/** Answers up to this size are handed to node whole; bigger ones are written chunk by chunk. */
const SMALL_ANSWER_BYTES = 64 * 1024;
const CHUNK_CHARS = 64 * 1024;
/** How often blocked answers are looked at. */
const TICK_MS = 100;
/** Requests remembered with the size of their big answer. */
const REMEMBERED = 256;

export interface AnswerLimits {
  /** A connection whose answer makes no progress (the client reads nothing) this long is closed. */
  stallMs: number;
  /** A blocked answer may be closed to make room for a new one once it has made no progress this long. */
  evictAfterMs: number;
  /** The most bytes of big answers held for all clients at once. */
  budgetBytes: number;
}

interface Outgoing {
  res: ServerResponse;
  bytes: number;
  /**
   * Ticks of the writer's timer seen while the answer was blocked (socket full, no drain since).
   * Counted in timer ticks, not wall time: while the fake is busy serialising other answers no
   * drain can be delivered, and a client that reads must not look stalled for that.
   */
  blockedTicks: number;
  blocked: boolean;
  released: boolean;
}

/**
 * Writes answers with backpressure: a big answer goes out a chunk at a time, the next chunk only
 * once the socket drains, so node never buffers more than a chunk ahead of the kernel. A client that
 * stops reading is cut off after `stallMs`; and all big answers together hold at most `budgetBytes`:
 * past it, answers blocked for `evictAfterMs` are closed first, and if that is not enough the new
 * answer is refused (503, Retry-After) instead of held. Memory stays bounded whatever clients do.
 */
export class AnswerWriter {
  private held = 0;
  private readonly outgoing = new Set<Outgoing>();
  private timer: NodeJS.Timeout | undefined;
  /** Request (method, URL, credentials) -> bytes of its last big answer, oldest first. */
  private readonly sizes = new Map<string, number>();

  constructor(private readonly limits: AnswerLimits) {}

  /** Bytes of big answers held right now (for tests and benchmarks). */
  get heldBytes(): number {
    return this.held;
  }

  /**
   * Whether a request may be served now. A request whose last answer was big is refused before it is
   * served when that answer would not fit: clients that repeat a big request without reading cost
   * no serialising (the garbage of which would grow the heap) once the budget is full.
   */
  mayServe(request: () => string): boolean {
    if (this.sizes.size === 0) return true;
    const expected = this.sizes.get(request());
    return expected === undefined || this.admit(expected);
  }

  /** Whether an answer of `bytes` to `request` may be written now; false means refuse it as busy. */
  admit(bytes: number, request?: () => string): boolean {
    if (request !== undefined && bytes > SMALL_ANSWER_BYTES) {
      const key = request();
      this.sizes.delete(key);
      this.sizes.set(key, bytes);
      if (this.sizes.size > REMEMBERED) this.sizes.delete(this.sizes.keys().next().value!);
    }
    if (bytes <= SMALL_ANSWER_BYTES || this.held + bytes <= this.limits.budgetBytes) return true;
    const ticks = this.limits.evictAfterMs / TICK_MS;
    const evictable = [...this.outgoing]
      .filter((o) => o.blocked && o.blockedTicks >= ticks)
      .sort((a, b) => b.blockedTicks - a.blockedTicks);
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
    const o: Outgoing = { res, bytes, blockedTicks: 0, blocked: false, released: false };
    this.held += bytes;
    this.outgoing.add(o);
    this.timer ??= setInterval(() => this.tick(), TICK_MS).unref();
    res.once('close', () => this.release(o));
    let offset = 0;
    const pump = () => {
      o.blocked = false;
      o.blockedTicks = 0;
      while (offset < text.length) {
        let end = Math.min(offset + CHUNK_CHARS, text.length);
        // Never split a surrogate pair: each half alone would be written as U+FFFD.
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
        const flowing = res.write(text.slice(offset, end));
        offset = end;
        if (!flowing) o.blocked = true;
        if (!flowing && offset < text.length) {
          res.once('drain', pump);
          return;
        }
      }
      // Blocked on its last chunk, the answer stays blocked until it is all sent (res 'close'): a
      // client that never reads it must still be cut off, not hold its socket for ever.
      res.end();
    };
    pump();
  }

  private tick(): void {
    const stallTicks = this.limits.stallMs / TICK_MS;
    for (const o of this.outgoing) {
      if (o.blocked && ++o.blockedTicks >= stallTicks) this.cut(o);
    }
    if (this.outgoing.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
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
