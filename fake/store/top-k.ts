export interface Hit {
  seq: number;
  score: number;
}

/** A bounded min-heap keeping the k best (score desc, then tieBreak asc). */
export class TopK {
  private readonly seqs: number[] = [];
  private readonly scores: number[] = [];
  constructor(
    private readonly k: number,
    private readonly tieBreak: (a: number, b: number) => number,
  ) {}

  /** Whether (seq, score) would enter the heap: a cheap test before the caller's filter. */
  admits(seq: number, score: number): boolean {
    return this.seqs.length < this.k || this.better(seq, score, 0);
  }

  push(seq: number, score: number): void {
    if (this.seqs.length < this.k) {
      this.seqs.push(seq);
      this.scores.push(score);
      this.up(this.seqs.length - 1);
    } else {
      this.seqs[0] = seq;
      this.scores[0] = score;
      this.down(0);
    }
  }

  sorted(): Hit[] {
    const hits = this.seqs.map((seq, i) => ({ seq, score: this.scores[i]! }));
    return hits.sort((a, b) => b.score - a.score || this.tieBreak(a.seq, b.seq));
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
    const n = this.seqs.length;
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
    [this.seqs[i], this.seqs[j]] = [this.seqs[j]!, this.seqs[i]!];
    [this.scores[i], this.scores[j]] = [this.scores[j]!, this.scores[i]!];
  }
}
