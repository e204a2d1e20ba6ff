/**
 * An inverted index with BM25 ranking over notes (title terms weigh TITLE_WEIGHT times body
 * terms), keyed by the notes' dense integer handles so scoring accumulates in a typed array.
 */
const TITLE_WEIGHT = 3;
const K1 = 1.2;
const B = 0.75;
const MAX_TERM_LENGTH = 64;
const TERM = /[\p{L}\p{N}]+/gu;

export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(TERM)) {
    const term = match[0];
    if (term.length <= MAX_TERM_LENGTH) out.push(term);
  }
  return out;
}

export interface Hit {
  seq: number;
  score: number;
}

export class SearchIndex {
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly docTerms = new Map<number, Map<string, number>>();
  private readonly docLength = new Map<number, number>();
  private totalLength = 0;
  private scores = new Float64Array(1024);

  get documentCount(): number {
    return this.docTerms.size;
  }

  clear(): void {
    this.postings.clear();
    this.docTerms.clear();
    this.docLength.clear();
    this.totalLength = 0;
  }

  add(seq: number, title: string, body: string): void {
    this.remove(seq);
    const terms = new Map<string, number>();
    for (const t of tokenize(title)) terms.set(t, (terms.get(t) ?? 0) + TITLE_WEIGHT);
    for (const t of tokenize(body)) terms.set(t, (terms.get(t) ?? 0) + 1);
    let length = 0;
    for (const [term, tf] of terms) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = new Map()));
      list.set(seq, tf);
      length += tf;
    }
    this.docTerms.set(seq, terms);
    this.docLength.set(seq, length);
    this.totalLength += length;
  }

  remove(seq: number): void {
    const terms = this.docTerms.get(seq);
    if (!terms) return;
    for (const term of terms.keys()) {
      const list = this.postings.get(term)!;
      list.delete(seq);
      if (list.size === 0) this.postings.delete(term);
    }
    this.totalLength -= this.docLength.get(seq) ?? 0;
    this.docTerms.delete(seq);
    this.docLength.delete(seq);
  }

  idf(term: string): number {
    const n = this.docTerms.size;
    const df = this.postings.get(term)?.size ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * The `k` best documents for the query terms among those `accept` admits, best first; ties
   * broken by `tieBreak` (smaller first).
   */
  search(queryTerms: readonly string[], k: number, accept: (seq: number) => boolean, tieBreak: (a: number, b: number) => number): Hit[] {
    const unique = [...new Set(queryTerms)].filter((t) => this.postings.has(t));
    if (unique.length === 0 || k <= 0) return [];
    const avg = this.totalLength / Math.max(1, this.docTerms.size);
    const touched: number[] = [];
    for (const term of unique) {
      const idf = this.idf(term);
      for (const [seq, tf] of this.postings.get(term)!) {
        if (seq >= this.scores.length) this.grow(seq);
        if (this.scores[seq] === 0) touched.push(seq);
        const len = this.docLength.get(seq)!;
        this.scores[seq]! += idf * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / avg)));
      }
    }
    const heap = new TopK(k, tieBreak);
    for (const seq of touched) {
      const score = this.scores[seq]!;
      this.scores[seq] = 0;
      if (heap.admits(seq, score) && accept(seq)) heap.push(seq, score);
    }
    return heap.sorted();
  }

  /** The TF-IDF vector of a document (for related notes), unit length. */
  vector(seq: number): Map<string, number> {
    const terms = this.docTerms.get(seq);
    const out = new Map<string, number>();
    if (!terms) return out;
    let norm = 0;
    for (const [term, tf] of terms) {
      const w = (1 + Math.log(tf)) * this.idf(term);
      out.set(term, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [term, w] of out) out.set(term, w / norm);
    return out;
  }

  /** Documents sharing a term with the vector (their handles). */
  neighbours(vector: ReadonlyMap<string, number>, maxTerms: number): Set<number> {
    const strongest = [...vector.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, maxTerms);
    const out = new Set<number>();
    for (const [term] of strongest) for (const seq of this.postings.get(term)?.keys() ?? []) out.add(seq);
    return out;
  }

  private grow(seq: number): void {
    let size = this.scores.length;
    while (size <= seq) size *= 2;
    const next = new Float64Array(size);
    next.set(this.scores);
    this.scores = next;
  }
}

/** A bounded min-heap keeping the k best (score desc, then tieBreak asc). */
class TopK {
  private readonly seqs: number[] = [];
  private readonly scores: number[] = [];
  constructor(private readonly k: number, private readonly tieBreak: (a: number, b: number) => number) {}

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
