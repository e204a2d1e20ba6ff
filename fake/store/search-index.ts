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

/** The text a document was indexed with: the index keeps no copy of it. */
export type DocumentText = (seq: number) => { title: string; body: string } | undefined;

/**
 * Term frequencies of a document: title terms weigh TITLE_WEIGHT. Recomputed from the text on
 * removal and for related-note vectors instead of being kept per document: per-document term
 * maps (and their copies of every term string) were most of the fake's memory at 100,000 notes.
 */
function termFrequencies(title: string, body: string): Map<string, number> {
  const terms = new Map<string, number>();
  for (const t of tokenize(title)) terms.set(t, (terms.get(t) ?? 0) + TITLE_WEIGHT);
  for (const t of tokenize(body)) terms.set(t, (terms.get(t) ?? 0) + 1);
  return terms;
}

export class SearchIndex {
  /**
   * term -> postings as flat pairs [seq, tf, seq, tf, ...] sorted by seq (see Postings), where a
   * Map<seq, tf> per term took several times the memory.
   */
  private readonly postings = new Map<string, Postings>();
  /** seq -> document length (sum of term frequencies); undefined for documents not indexed. */
  private readonly docLength: (number | undefined)[] = [];
  private documents = 0;
  private totalLength = 0;
  private scores = new Float64Array(1024);

  /** `textOf` must answer, for an indexed document, the text it was added with, until it is removed. */
  constructor(private readonly textOf: DocumentText) {}

  get documentCount(): number {
    return this.documents;
  }

  clear(): void {
    this.postings.clear();
    this.docLength.length = 0;
    this.documents = 0;
    this.totalLength = 0;
  }

  /** Indexes the document's current text (removing the document first is the caller's job). */
  add(seq: number): void {
    const text = this.textOf(seq);
    if (!text || this.docLength[seq] !== undefined) return;
    let length = 0;
    for (const [term, tf] of termFrequencies(text.title, text.body)) {
      const key = this.postings.has(term) ? term : internalised(term);
      const list = this.postings.get(key);
      const grown = insertPosting(list ?? [], seq, tf);
      if (grown !== list) this.postings.set(key, grown);
      length += tf;
    }
    this.docLength[seq] = length;
    this.documents++;
    this.totalLength += length;
  }

  /** Forgets the document; its text must still be what it was indexed with. */
  remove(seq: number): void {
    const length = this.docLength[seq];
    const text = this.textOf(seq);
    if (length === undefined || !text) return;
    for (const term of termFrequencies(text.title, text.body).keys()) {
      const list = this.postings.get(term);
      if (!list) continue;
      const at = findPosting(list, seq);
      if (at === -1) continue;
      if (removePosting(list, at) === 0) this.postings.delete(term);
    }
    this.totalLength -= length;
    this.docLength[seq] = undefined;
    this.documents--;
  }

  idf(term: string): number {
    const n = this.documents;
    const df = (this.postings.get(term)?.length ?? 0) / 2;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * The `k` best documents for the query terms among those `accept` admits, best first; ties
   * broken by `tieBreak` (smaller first).
   */
  search(
    queryTerms: readonly string[],
    k: number,
    accept: (seq: number) => boolean,
    tieBreak: (a: number, b: number) => number,
  ): Hit[] {
    const unique = [...new Set(queryTerms)].filter((t) => this.postings.has(t));
    if (unique.length === 0 || k <= 0) return [];
    const avg = this.totalLength / Math.max(1, this.documents);
    const touched: number[] = [];
    for (const term of unique) {
      const idf = this.idf(term);
      const list = this.postings.get(term)!;
      const pairs = pairsOf(list);
      for (let i = 0; i < list.length; i += 2) {
        const seq = pairs[i]!;
        const tf = pairs[i + 1]!;
        if (seq >= this.scores.length) this.grow(seq);
        if (this.scores[seq] === 0) touched.push(seq);
        const len = this.docLength[seq]!;
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
    const text = this.docLength[seq] === undefined ? undefined : this.textOf(seq);
    const out = new Map<string, number>();
    if (!text) return out;
    let norm = 0;
    for (const [term, tf] of termFrequencies(text.title, text.body)) {
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
    for (const [term] of strongest) {
      const list = this.postings.get(term) ?? [];
      const pairs = pairsOf(list);
      for (let i = 0; i < list.length; i += 2) out.add(pairs[i]!);
    }
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

/**
 * A term string that holds no reference to the text it was cut from: V8 may keep a long note
 * alive through a short sliced string, and a term outlives the note version it came from.
 */
function internalised(term: string): string {
  return term.length < 13 ? term : ` ${term}`.slice(1);
}

/**
 * A term's postings: flat pairs [seq, tf, ...] sorted by seq, `length` numbers long. Short lists
 * (most terms are rare) are plain arrays, 8 bytes a number plus a small header; a list that grows
 * past PACK_AT numbers moves to an Int32Array (4 bytes a number, off the JS heap) with spare room.
 */
interface PackedPostings {
  data: Int32Array;
  length: number;
}
type Postings = number[] | PackedPostings;
const PACK_AT = 32;

function pairsOf(list: Postings): ArrayLike<number> {
  return Array.isArray(list) ? list : list.data;
}

/** Position (even index) of seq in a postings list, or -1. */
function findPosting(list: Postings, seq: number): number {
  const pairs = pairsOf(list);
  const at = lowerPair(pairs, list.length, seq);
  return at < list.length && pairs[at] === seq ? at : -1;
}

/**
 * Inserts (seq, tf) in seq order and answers the list to keep: the same one, or its packed form.
 * New documents have the largest seq, so this mostly appends.
 */
function insertPosting(list: Postings, seq: number, tf: number): Postings {
  const pairs = pairsOf(list);
  const appending = list.length === 0 || pairs[list.length - 2]! < seq;
  const at = appending ? list.length : lowerPair(pairs, list.length, seq);
  if (Array.isArray(list)) {
    if (appending) list.push(seq, tf);
    else list.splice(at, 0, seq, tf);
    if (list.length <= PACK_AT) return list;
    const data = new Int32Array(list.length * 2);
    data.set(list);
    return { data, length: list.length };
  }
  if (list.length + 2 > list.data.length) {
    const data = new Int32Array(Math.ceil(list.data.length * 1.5) + 2);
    data.set(list.data.subarray(0, list.length));
    list.data = data;
  }
  if (!appending) list.data.copyWithin(at + 2, at, list.length);
  list.data[at] = seq;
  list.data[at + 1] = tf;
  list.length += 2;
  return list;
}

/** Removes the pair at `at`; answers the numbers left. */
function removePosting(list: Postings, at: number): number {
  if (Array.isArray(list)) {
    list.splice(at, 2);
    return list.length;
  }
  list.data.copyWithin(at, at + 2, list.length);
  list.length -= 2;
  return list.length;
}

function lowerPair(pairs: ArrayLike<number>, length: number, seq: number): number {
  let lo = 0;
  let hi = length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pairs[mid * 2]! < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo * 2;
}

/** A bounded min-heap keeping the k best (score desc, then tieBreak asc). */
class TopK {
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
