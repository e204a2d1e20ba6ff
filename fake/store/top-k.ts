export interface Hit {
  seq: number;
  score: number;
}

/**
 * A bounded min-heap keeping the k best (score desc, then tieBreak asc). Entries live in typed
 * arrays and the result is built by draining the heap, with no Array.prototype.map or sort: those
 * made the optimised `related` bail out ("wrong map" at the sort of the hits) on every request,
 * and each request then ran part of its walk in the interpreter and compiled it again.
 */
export class TopK {
  private seqs = new Int32Array(16);
  private scores = new Float64Array(16);
  private size = 0;
  constructor(
    private readonly k: number,
    private readonly tieBreak: (a: number, b: number) => number,
  ) {}

  /** Whether (seq, score) would enter the heap: a cheap test before the caller's filter. */
  admits(seq: number, score: number): boolean {
    return this.size < this.k || this.better(seq, score, 0);
  }

  push(seq: number, score: number): void {
    if (this.size < this.k) {
      if (this.size === this.seqs.length) this.grow();
      this.seqs[this.size] = seq;
      this.scores[this.size] = score;
      this.size++;
      this.up(this.size - 1);
    } else {
      this.seqs[0] = seq;
      this.scores[0] = score;
      this.down(0);
    }
  }

  /** The entries best first; empties the heap (it takes the worst off the top, last place first). */
  sorted(): Hit[] {
    const out: Hit[] = new Array(this.size);
    while (this.size > 0) {
      const last = --this.size;
      out[last] = { seq: this.seqs[0]!, score: this.scores[0]! };
      this.seqs[0] = this.seqs[last]!;
      this.scores[0] = this.scores[last]!;
      this.down(0);
    }
    return out;
  }

  /** Whether (seq, score) ranks better than the heap entry at i. */
  private better(seq: number, score: number, i: number): boolean {
    const s = this.scores[i]!;
    return score > s || (score === s && this.tieBreak(seq, this.seqs[i]!) < 0);
  }

  private worse(i: number, j: number): boolean {
    return this.better(this.seqs[j]!, this.scores[j]!, i);
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(i, p)) return;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.worse(l, m)) m = l;
      if (r < n && this.worse(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(i: number, j: number): void {
    const seq = this.seqs[i]!;
    const score = this.scores[i]!;
    this.seqs[i] = this.seqs[j]!;
    this.scores[i] = this.scores[j]!;
    this.seqs[j] = seq;
    this.scores[j] = score;
  }

  /** Doubles the room (k may be far above the entries ever pushed: the unranked seam asks for all). */
  private grow(): void {
    const seqs = new Int32Array(this.seqs.length * 2);
    seqs.set(this.seqs);
    this.seqs = seqs;
    const scores = new Float64Array(this.scores.length * 2);
    scores.set(this.scores);
    this.scores = scores;
  }
}
