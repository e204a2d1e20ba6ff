/**
 * What JSON.parse may skip when a body is handed back to it (json-scan.ts): complete containers and
 * runs of simple array items, logged by the one scan of the body as it passes them, so that a
 * malformed body, or one holding a refused key, needs no second pass over its text (a JS pass over
 * 4 MiB of nested arrays, a character at a time, cost more than JSON.parse's own failure).
 *
 * The scan only appends, in the order the ranges end; the stack of maximal ranges is built from
 * the log when a refusal asks for it (keeping that stack as the scan went cost a valid body of
 * 2,000,000 nested arrays about 40 ms more). A range holding a refused key is logged too, marked:
 * it may stand in before a syntax error (JSON.parse stops at the error first), never for a refused
 * key (JSON.parse must meet that key).
 */
const EMPTY_INT32 = new Int32Array(0);
const EMPTY_UINT8 = new Uint8Array(0);

export class SkippableRanges {
  // Made on the first range: most bodies have none worth logging, and typed arrays of their own
  // for each small body cost more than reading it.
  private starts = EMPTY_INT32;
  private ends = EMPTY_INT32;
  /** 1 where the range holds a refused key. */
  private refused = EMPTY_UINT8;
  /** Ranges offered, logged or (past `limit`) dropped. */
  private size = 0;

  constructor(private readonly limit: number) {}

  /**
   * Whether a range was dropped, the log being at its limit: it is then no use. Counted, not a flag
   * set once, and add() runs no code of its own for a dropped range: V8 takes a field never written
   * again for a constant, and compiles code never run yet into a bail-out; either threw the scan
   * back to the interpreter on the first body to fill the log (its first request cost 104 to 165
   * ms, the next ones 47 to 84).
   */
  get full(): boolean {
    return this.size > this.limit;
  }

  /** [start, end) is complete; ends are logged in increasing order. */
  add(start: number, end: number, holdsRefusedKey: boolean): void {
    const k = this.size++;
    if (k < this.limit) {
      if (k === this.starts.length) this.grow();
      this.starts[k] = start;
      this.ends[k] = end;
      this.refused[k] = holdsRefusedKey ? 1 : 0;
    }
  }

  /**
   * The maximal ranges among those ending by `limit` (and holding no refused key, when
   * `withoutRefusedKeys`), by start: taken in the order they ended, an outer range replaces the
   * inner ranges it holds. Built over the log itself (the stack never outgrows the entries read),
   * so the log is spent.
   */
  maximal(limit: number, withoutRefusedKeys: boolean): { starts: Int32Array; ends: Int32Array } {
    if (this.full) throw new Error('the log is incomplete: scan again with no limit');
    const { starts, ends, refused } = this;
    let top = 0;
    for (let k = 0; k < this.size && ends[k]! <= limit; k++) {
      if (withoutRefusedKeys && refused[k] === 1) continue;
      const start = starts[k]!;
      const end = ends[k]!;
      while (top > 0 && starts[top - 1]! >= start) top--;
      starts[top] = start;
      ends[top++] = end;
    }
    this.size = 0;
    return { starts: starts.subarray(0, top), ends: ends.subarray(0, top) };
  }

  /** Four times larger: doubling up to 1,000,000 ranges cost several ms of copies more. */
  private grow(): void {
    const length = Math.max(16, this.starts.length * 4);
    const starts = new Int32Array(length);
    const ends = new Int32Array(length);
    const refused = new Uint8Array(length);
    starts.set(this.starts);
    ends.set(this.ends);
    refused.set(this.refused);
    this.starts = starts;
    this.ends = ends;
    this.refused = refused;
  }
}
