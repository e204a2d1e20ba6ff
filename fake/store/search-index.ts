import { hashUnits, tokenize } from './terms.js';

export { tokenize } from './terms.js';

/**
 * An inverted index with BM25 ranking for search and TF-IDF cosine similarity for related notes,
 * partitioned by owner: every statistic a score uses is read from a CorpusView, the caller's own
 * partition plus the notes shared with them, so one user's writes never move another's scores.
 * Title terms weigh TITLE_WEIGHT times body terms. Documents are the notes' integer handles (seq),
 * so scores accumulate in one scratch array instead of a map per request.
 */
const TITLE_WEIGHT = 3;
/** Related notes gather candidates through the subject's strongest terms only. */
const RELATED_QUERY_TERMS = 32;
const K1 = 1.2;
const B = 0.75;

export interface Hit {
  seq: number;
  score: number;
}

export interface DocumentSource {
  documentText(seq: number): { owner: string; title: string; body: string } | undefined;
}

/**
 * A term's postings: one number a note, seq x TF_SCALE + tf, sorted by seq (new notes have the
 * largest seq, so adds mostly append). Short lists (most terms are rare) are plain arrays; past
 * PACK_AT a list moves off the heap into a Float64Array with room to grow: on the heap, 1,000,000
 * generated notes took 2,018 MiB RSS and the heap guard of --generate let half as many fit.
 */
interface Packed {
  data: Float64Array;
  length: number;
}
type Postings = number[] | Packed;
const PACK_AT = 16;
const dataOf = (list: Postings): ArrayLike<number> => (Array.isArray(list) ? list : list.data);
/** Above any term frequency a 2 MiB note could reach (a 200,000-character one: 300,000 at most). */
const TF_SCALE = 2 ** 22;
const seqOf = (posting: number) => Math.floor(posting / TF_SCALE);
/** Not `%`: a double's remainder is a library call, many times slower than this. */
const tfOf = (posting: number) => posting - seqOf(posting) * TF_SCALE;

/** 1 + ln(tf), the related-notes weight of a term frequency; a table for small tf (Math.log per posting cost most of a pass). */
const LOG_TF = Float64Array.from({ length: 256 }, (_, tf) => 1 + Math.log(tf));
const logTf = (tf: number) => (tf < 256 ? LOG_TF[tf]! : 1 + Math.log(tf));

/**
 * Term frequencies of a document, title terms weighing TITLE_WEIGHT. Recomputed from the text on
 * removal instead of kept per document: per-document term maps were most of the memory at 100,000
 * notes.
 */
export function termFrequencies(title: string, body: string): Map<string, number> {
  const terms = new Map<string, number>();
  for (const t of tokenize(title)) terms.set(t, (terms.get(t) ?? 0) + TITLE_WEIGHT);
  for (const t of tokenize(body)) terms.set(t, (terms.get(t) ?? 0) + 1);
  return terms;
}

/** Index of the posting of `seq` in a list, or where it would go. */
function postingAt(list: Postings, seq: number): number {
  const data = dataOf(list);
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (seqOf(data[mid]!) < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts a posting at `at`; answers the list to keep (the same one, or its packed form). */
function insertPosting(list: Postings, at: number, posting: number): Postings {
  if (Array.isArray(list)) {
    list.splice(at, 0, posting);
    if (list.length <= PACK_AT) return list;
    const data = new Float64Array(list.length * 2);
    data.set(list);
    return { data, length: list.length };
  }
  if (list.length === list.data.length) {
    const data = new Float64Array(Math.ceil(list.length * 1.5));
    data.set(list.data);
    list.data = data;
  }
  list.data.copyWithin(at + 1, at, list.length);
  list.data[at] = posting;
  list.length++;
  return list;
}

/** One list's share of the squared TF-IDF norms. */
function addNorms(data: number[], n: number, idf2: number, norms: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const w = logTf(tfOf(data[i]!));
    norms[seqOf(data[i]!)]! += w * w * idf2;
  }
}

/** addNorms for a packed list: a copy of its own, so each loop reads one kind of array (one loop for both was slower). */
function addPackedNorms(data: Float64Array, n: number, idf2: number, norms: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const w = logTf(tfOf(data[i]!));
    norms[seqOf(data[i]!)]! += w * w * idf2;
  }
}

/** One owner's indexed notes: term -> postings, with the counts the statistics need. */
class Partition {
  readonly postings = new Map<string, Postings>();
  documents = 0;
  totalLength = 0;
  /** Bumped on every change: cached cosine norms belong to one generation. */
  generation = 0;
  normsGeneration = -1;
  constructor(readonly owner: string) {}
}

/**
 * The notes one caller's statistics are computed from (document count, lengths, document
 * frequencies): their own partition and, from other partitions, the notes shared with them.
 */
export class CorpusView {
  readonly documents: number;
  readonly totalLength: number;
  private readonly dfs = new Map<string, number>();

  constructor(
    readonly own: Partition | undefined,
    readonly shared: ReadonlyMap<Partition, ReadonlySet<number>>,
    lengthOf: (seq: number) => number,
  ) {
    let documents = own?.documents ?? 0;
    let totalLength = own?.totalLength ?? 0;
    for (const seqs of shared.values()) {
      documents += seqs.size;
      for (const seq of seqs) totalLength += lengthOf(seq);
    }
    this.documents = documents;
    this.totalLength = totalLength;
  }

  /** Whether only the caller's own partition counts (its cached norms then apply). */
  get ownOnly(): boolean {
    return this.shared.size === 0;
  }

  df(term: string): number {
    let df = this.dfs.get(term);
    if (df === undefined) {
      df = this.own?.postings.get(term)?.length ?? 0;
      this.eachShared(term, () => df!++);
      this.dfs.set(term, df);
    }
    return df;
  }

  idf(term: string): number {
    return this.idfOf(this.df(term));
  }

  idfOf(df: number): number {
    return Math.log(1 + (this.documents - df + 0.5) / (df + 0.5));
  }

  /** The term's postings in the caller's own partition (walked inline by the scorers: the hot loop). */
  ownPostings(term: string): Postings | undefined {
    return this.own?.postings.get(term);
  }

  /** Every (seq, tf) of the term among the notes shared with the caller. */
  eachShared(term: string, visit: (seq: number, tf: number) => void): void {
    for (const [partition, seqs] of this.shared) {
      const list = partition.postings.get(term);
      if (!list) continue;
      const data = dataOf(list);
      if (seqs.size * 8 < list.length) {
        // Few shared notes in a long list: look each up instead of walking it.
        for (const seq of seqs) {
          const at = postingAt(list, seq);
          if (at < list.length && seqOf(data[at]!) === seq) visit(seq, tfOf(data[at]!));
        }
      } else
        for (let i = 0; i < list.length; i++) if (seqs.has(seqOf(data[i]!))) visit(seqOf(data[i]!), tfOf(data[i]!));
    }
  }
}

/** The k best hits (score desc, then tieBreak asc), kept sorted; k is small except for the unranked seam. */
class Best {
  readonly hits: Hit[] = [];
  constructor(
    private readonly k: number,
    private readonly tieBreak: (a: number, b: number) => number,
  ) {}

  private before(seq: number, score: number, hit: Hit): boolean {
    return score > hit.score || (score === hit.score && this.tieBreak(seq, hit.seq) < 0);
  }

  /** Whether (seq, score) would be kept: a cheap test before the caller's filter. */
  admits(seq: number, score: number): boolean {
    return this.hits.length < this.k || this.before(seq, score, this.hits[this.hits.length - 1]!);
  }

  push(seq: number, score: number): void {
    let lo = 0;
    let hi = this.hits.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.before(seq, score, this.hits[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    this.hits.splice(lo, 0, { seq, score });
    if (this.hits.length > this.k) this.hits.pop();
  }
}

/**
 * The BM25 shares of one term's postings into `slots`, which holds each document's score (at 2 x
 * seq) beside its length factor (one cache line for both: documents are read in no order). A
 * document's first share enters it in `touched` and sets its factor. Answers the touched count.
 */
function addBm25(
  list: Postings,
  idf: number,
  avg: number,
  docLength: readonly number[],
  slots: Float64Array,
  touched: Int32Array,
  count: number,
): number {
  const data = dataOf(list);
  for (let i = 0; i < list.length; i++) {
    const seq = seqOf(data[i]!);
    const tf = data[i]! - seq * TF_SCALE;
    const at = seq * 2;
    if (slots[at] === 0) {
      touched[count++] = seq;
      slots[at + 1] = K1 * (1 - B + (B * docLength[seq]!) / avg);
    }
    slots[at]! += idf * ((tf * (K1 + 1)) / (tf + slots[at + 1]!));
  }
  return count;
}

export class SearchIndex {
  private readonly partitions = new Map<string, Partition>();
  /** seq -> the partition it was indexed in (undefined: not indexed). */
  private readonly partitionOf: (Partition | undefined)[] = [];
  /** seq -> document length (sum of term frequencies). */
  private readonly docLength: number[] = [];
  private documents = 0;
  /**
   * How many partitions hold a term of each hash (terms.ts hashUnits): a query's TermTable keeps
   * only the terms some partition may hold, so a 2 MiB query of unknown words makes no strings.
   */
  private readonly held = new Map<number, number>();
  /** Scratch by seq, zero between calls. */
  private scores = new Float64Array(1024);
  /** A search's score and length factor by seq, side by side (addBm25). */
  private bm25 = new Float64Array(2048);
  private touched = new Int32Array(1024);
  private marks = new Uint8Array(1024);
  /** seq -> squared TF-IDF norm in its own partition, valid while the partition's generation holds. */
  private norms = new Float64Array(1024);

  private readonly source: DocumentSource;

  /** `text` answers an indexed document's text as it was added, until it is removed: the index keeps no copy. */
  constructor(text: DocumentSource | DocumentSource['documentText']) {
    this.source = typeof text === 'function' ? { documentText: text } : text;
  }

  get documentCount(): number {
    return this.documents;
  }

  clear(): void {
    this.partitions.clear();
    this.partitionOf.length = 0;
    this.docLength.length = 0;
    this.documents = 0;
    this.held.clear();
  }

  /** Whether some partition may hold a term of this hash (terms.ts hashUnits); false is certain. */
  mightHold(hash: number): boolean {
    return this.held.has(hash);
  }

  /** Indexes the document's current text under its owner (removing it first is the caller's job). */
  add(seq: number): void {
    const text = this.source.documentText(seq);
    if (!text || this.partitionOf[seq] !== undefined) return;
    let partition = this.partitions.get(text.owner);
    if (!partition) {
      partition = new Partition(text.owner);
      this.partitions.set(text.owner, partition);
    }
    let length = 0;
    for (const [term, tf] of termFrequencies(text.title, text.body)) {
      const list = partition.postings.get(term);
      if (!list) {
        // A fresh string: a slice would keep the whole note text alive.
        partition.postings.set(term.length < 13 ? term : ` ${term}`.slice(1), [seq * TF_SCALE + tf]);
        const hash = hashUnits(term);
        this.held.set(hash, (this.held.get(hash) ?? 0) + 1);
      } else {
        const packed = insertPosting(list, postingAt(list, seq), seq * TF_SCALE + tf);
        if (packed !== list) partition.postings.set(term, packed);
      }
      length += tf;
    }
    if (seq >= this.scores.length) this.grow(seq);
    this.partitionOf[seq] = partition;
    this.docLength[seq] = length;
    partition.documents++;
    partition.totalLength += length;
    partition.generation++;
    this.documents++;
  }

  /** Forgets the document; its text must still be what it was indexed with. */
  remove(seq: number): void {
    const partition = this.partitionOf[seq];
    const text = this.source.documentText(seq);
    if (!partition || !text) return;
    for (const term of termFrequencies(text.title, text.body).keys()) {
      const list = partition.postings.get(term);
      if (!list) continue;
      const at = postingAt(list, seq);
      if (at === list.length || seqOf(dataOf(list)[at]!) !== seq) continue;
      if (Array.isArray(list)) list.splice(at, 1);
      else list.data.copyWithin(at, at + 1, list.length--);
      if (list.length === 0) {
        partition.postings.delete(term);
        const hash = hashUnits(term);
        const left = this.held.get(hash)! - 1;
        if (left === 0) this.held.delete(hash);
        else this.held.set(hash, left);
      }
    }
    partition.documents--;
    partition.totalLength -= this.docLength[seq]!;
    partition.generation++;
    if (partition.documents === 0) this.partitions.delete(partition.owner);
    this.partitionOf[seq] = undefined;
    this.documents--;
  }

  /** The statistics of `owner`'s notes plus `shared` (indexed notes of other owners visible to them). */
  view(owner: string, shared: Iterable<number> = []): CorpusView {
    const own = this.partitions.get(owner);
    const byPartition = new Map<Partition, Set<number>>();
    for (const seq of shared) {
      const partition = this.partitionOf[seq];
      if (!partition || partition === own) continue;
      const seqs = byPartition.get(partition) ?? new Set();
      byPartition.set(partition, seqs.add(seq));
    }
    return new CorpusView(own, byPartition, (seq) => this.docLength[seq]!);
  }

  /**
   * BM25: the `k` best documents of the view for the query terms among those `accept` admits,
   * best first; ties broken by `tieBreak` (smaller first).
   */
  search(
    view: CorpusView,
    queryTerms: readonly string[],
    k: number,
    accept: (seq: number) => boolean,
    tieBreak: (a: number, b: number) => number,
  ): Hit[] {
    const unique = [...new Set(queryTerms)].filter((t) => view.df(t) > 0);
    if (unique.length === 0 || k <= 0) return [];
    const avg = view.totalLength / Math.max(1, view.documents);
    const { bm25, docLength, touched } = this;
    let count = 0;
    for (const term of unique) {
      const idf = view.idf(term);
      count = addBm25(view.ownPostings(term) ?? [], idf, avg, docLength, bm25, touched, count);
      const shared: number[] = [];
      view.eachShared(term, (seq, tf) => void shared.push(seq * TF_SCALE + tf));
      count = addBm25(shared, idf, avg, docLength, bm25, touched, count);
    }
    const best = new Best(k, tieBreak);
    for (let t = 0; t < count; t++) {
      const seq = touched[t]!;
      const score = bm25[seq * 2]!;
      bm25[seq * 2] = 0;
      if (best.admits(seq, score) && accept(seq)) best.push(seq, score);
    }
    return best.hits;
  }

  /**
   * Related notes of an indexed document: cosine similarity of TF-IDF vectors ((1 + ln tf) x idf,
   * idf of the view), among the view's documents sharing one of the subject's strongest terms;
   * scores rounded to 6 decimals, only positive ones, the `k` best first, ties by `tieBreak`.
   * Computed from postings and cached norms, never by re-reading the candidates' text.
   */
  related(
    view: CorpusView,
    seq: number,
    k: number,
    accept: (seq: number) => boolean,
    tieBreak: (a: number, b: number) => number,
  ): Hit[] {
    const query = this.vectorIn(view, seq);
    if (query.size === 0 || k <= 0) return [];
    const norms = this.normsOf(view);
    const strongest = [...query.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, RELATED_QUERY_TERMS);
    const { scores, marks, touched } = this;
    const mark = (other: number) => void (marks[other] = 1);
    for (const [term] of strongest) {
      const list = view.ownPostings(term) ?? [];
      const data = dataOf(list);
      for (let i = 0; i < list.length; i++) marks[seqOf(data[i]!)] = 1;
      view.eachShared(term, mark);
    }
    // Every candidate holds a strongest term, so its every share is positive and it is touched.
    let count = 0;
    const add = (other: number, tf: number, w: number) => {
      if (marks[other] === 0) return;
      if (scores[other] === 0) touched[count++] = other;
      scores[other]! += w * logTf(tf);
    };
    for (const [term, weight] of query) {
      // The subject's unit weight (weight x idf) times the candidate's idf; 1 + ln tf is the candidate's.
      const idf = view.idf(term);
      const w = weight * idf * idf;
      const list = view.ownPostings(term) ?? [];
      const data = dataOf(list);
      for (let i = 0; i < list.length; i++) add(seqOf(data[i]!), tfOf(data[i]!), w);
      view.eachShared(term, (other, tf) => add(other, tf, w));
    }
    const best = new Best(k, tieBreak);
    for (let t = 0; t < count; t++) {
      const other = touched[t]!;
      const dot = scores[other]!;
      scores[other] = 0;
      marks[other] = 0;
      if (other === seq) continue;
      const score = Math.round((dot / (Math.sqrt(norms(other)) || 1)) * 1e6) / 1e6;
      if (score > 0 && best.admits(other, score) && accept(other)) best.push(other, score);
    }
    return best.hits;
  }

  /** The document's TF-IDF vector in its owner's own view, unit length (empty when not indexed). */
  vector(seq: number): Map<string, number> {
    const partition = this.partitionOf[seq];
    if (!partition) return new Map();
    const view = this.view(partition.owner);
    const unit = this.vectorIn(view, seq);
    for (const [term, w] of unit) unit.set(term, w * view.idf(term));
    return unit;
  }

  /** term -> (1 + ln tf) / |document vector| in the view: the unit vector without its idf factor. */
  private vectorIn(view: CorpusView, seq: number): Map<string, number> {
    const text = this.partitionOf[seq] === undefined ? undefined : this.source.documentText(seq);
    const out = new Map<string, number>();
    if (!text) return out;
    let norm = 0;
    for (const [term, tf] of termFrequencies(text.title, text.body)) {
      const idf = view.idf(term);
      const w = logTf(tf);
      out.set(term, w);
      norm += w * w * idf * idf;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [term, w] of out) out.set(term, w / norm);
    return out;
  }

  /**
   * Squared TF-IDF norms of the view's documents. The caller's own partition keeps them until it
   * changes (one pass over its postings); a view with shared notes computes its own each time.
   */
  private normsOf(view: CorpusView): (seq: number) => number {
    const own = view.own;
    if (view.ownOnly) {
      if (own && own.normsGeneration !== own.generation) {
        const { norms, partitionOf } = this;
        for (let s = 0; s < partitionOf.length; s++) if (partitionOf[s] === own) norms[s] = 0;
        for (const list of own.postings.values()) {
          // The idf of the view, from the list's own length (its document frequency here).
          const idf = view.idfOf(list.length);
          if (Array.isArray(list)) addNorms(list, list.length, idf * idf, norms);
          else addPackedNorms(list.data, list.length, idf * idf, norms);
        }
        own.normsGeneration = own.generation;
      }
      return (seq) => this.norms[seq]!;
    }
    const local = new Map<number, number>();
    const walk = (partition: Partition, only?: ReadonlySet<number>) => {
      for (const [term, list] of partition.postings) {
        const idf = view.idf(term);
        const data = dataOf(list);
        for (let i = 0; i < list.length; i++) {
          const posting = data[i]!;
          const seq = seqOf(posting);
          if (only && !only.has(seq)) continue;
          const w = logTf(tfOf(posting)) * idf;
          local.set(seq, (local.get(seq) ?? 0) + w * w);
        }
      }
    };
    if (own) walk(own);
    for (const [partition, seqs] of view.shared) walk(partition, seqs);
    return (seq) => local.get(seq) ?? 0;
  }

  private grow(seq: number): void {
    let size = this.scores.length;
    while (size <= seq) size *= 2;
    const grown = <T extends Float64Array | Uint8Array>(old: T, next: T): T => {
      next.set(old);
      return next;
    };
    this.scores = grown(this.scores, new Float64Array(size));
    this.bm25 = grown(this.bm25, new Float64Array(size * 2));
    this.touched = new Int32Array(size);
    this.marks = grown(this.marks, new Uint8Array(size));
    this.norms = grown(this.norms, new Float64Array(size));
  }
}
