import type { Exchange } from './exchange.js';

/** What a client keeps for repros: the latest ids made, up to this many, and this many body bytes in all. */
const KEPT_IDS = 2000;
const KEPT_BYTES = 16 * 1024 * 1024;
/** Writes kept per id after its create (updates, moves, a delete). */
const WRITES_PER_ID = 20;

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The writes a client sent that made and changed each id it created (each a recorded exchange,
 * in the order sent): a failure's repro makes again what the failing request names, also what an
 * earlier check made (the run's oracle judges one check's requests on another's notes). Bounded:
 * a create's repro holds its whole body.
 */
export class WriteHistory {
  private readonly byId = new Map<string, { writes: Exchange[]; bytes: number }>();
  private bytes = 0;

  /** An answered request of the client (its body as sent, for the bound). */
  add(x: Exchange, body: string | Uint8Array | undefined): void {
    if (READS.has(x.method) || !(accepted(x.status) || refused(x.status)) || /\/search(\?|$)/.test(x.path)) return;
    const size = body?.length ?? 0;
    if (x.createdId !== undefined) {
      this.drop(x.createdId);
      this.byId.set(x.createdId, { writes: [x], bytes: size });
      this.bytes += size;
    } else {
      // A refusal is kept too: one that changed what it should not have is what a repro must send
      // again (a 409 create that overwrote the existing one names it in its body).
      const path = x.path.split('?')[0]!;
      const bodyId = refused(x.status) ? /"id"\s*:\s*"([^"]+)"/.exec(x.requestBody ?? '')?.[1] : undefined;
      for (const segment of [...path.split('/').map(decodeSegment), ...(bodyId ? [bodyId] : [])]) {
        const kept = this.byId.get(segment);
        if (!kept || kept.writes.length >= WRITES_PER_ID) continue;
        kept.writes.push(x);
        kept.bytes += size;
        this.bytes += size;
      }
    }
    for (const [oldest] of this.byId) {
      if (this.byId.size <= KEPT_IDS && this.bytes <= KEPT_BYTES) break;
      this.drop(oldest);
    }
  }

  /** The writes that made and changed `id`, in the order sent (none if it is not kept). */
  of(id: string): readonly Exchange[] {
    return this.byId.get(id)?.writes ?? [];
  }

  private drop(id: string): void {
    const kept = this.byId.get(id);
    if (!kept) return;
    this.bytes -= kept.bytes;
    this.byId.delete(id);
  }
}

const accepted = (status: number) => status >= 200 && status < 300;
/** A refusal of the request itself: not a rate limit (429), which says nothing of the request. */
const refused = (status: number) => status >= 400 && status < 500 && status !== 429;

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
