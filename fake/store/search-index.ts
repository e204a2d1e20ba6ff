import { CorpusView, Partition } from './corpus-view.js';
import {
  addBm25,
  addBm25Dense,
  addNorms,
  addNormsZeroed,
  addRelated,
  addRelatedAll,
  B,
  K1,
  logTf,
  markAll,
  PairsReader,
} from './posting-loops.js';
import { findPosting, insertPosting, internalised, pairsOf, removePosting } from './postings.js';
import { TermFilter } from './term-filter.js';
import { TermTable } from './term-table.js';
import { forEachTerm } from './terms.js';
import { type Hit, TopK } from './top-k.js';

export { CorpusView } from './corpus-view.js';
export { tokenize } from './terms.js';
export type { Hit } from './top-k.js';

/**
 * An inverted index with BM25 ranking for search and TF-IDF cosine similarity for related notes,
 * partitioned by owner: every statistic a score uses is read from a CorpusView, the caller's own
 * partition plus the notes shared with them. Title terms weigh TITLE_WEIGHT times body terms.
 * Documents are the notes' dense integer handles, so scores accumulate in typed arrays.
 */
const TITLE_WEIGHT = 3;
/** Related notes gather candidates through the subject's strongest terms only. */
const RELATED_QUERY_TERMS = 32;

/** The text and owner a document was indexed with: the index keeps no copy of the text. */
export type DocumentText = (seq: number) => { owner: string; title: string; body: string } | undefined;
export interface DocumentSource {
  documentText(seq: number): { owner: string; title: string; body: string } | undefined;
}

/**
 * Term frequencies of a document: title terms weigh TITLE_WEIGHT. Recomputed from the text on
 * removal instead of being kept per document: per-document term maps (and their copies of every
 * term string) were most of the fake's memory at 100,000 notes.
 */
export function termFrequencies(title: string, body: string): Map<string, number> {
  const terms = new Map<string, number>();
  if (title.length + body.length > LONG_TEXT) {
    // A string per distinct term, not per occurrence (200,000 characters: 40,000 occurrences).
    new TermTable(title).eachCounted((t, n) => terms.set(t, n * TITLE_WEIGHT));
    new TermTable(body).eachCounted((t, n) => terms.set(t, (terms.get(t) ?? 0) + n));
    return terms;
  }
  forEachTerm(title, (t) => terms.set(t, (terms.get(t) ?? 0) + TITLE_WEIGHT));
  forEachTerm(body, (t) => terms.set(t, (terms.get(t) ?? 0) + 1));
  return terms;
}

/** Texts longer than this are counted by a TermTable; shorter ones do not repay its arrays. */
const LONG_TEXT = 4_096;

export class SearchIndex {
  private readonly partitions = new Map<string, Partition>();
  /** seq -> the partition it was indexed in (undefined: not indexed). */
  private readonly partitionOf: (Partition | undefined)[] = [];
  /** seq -> document length (sum of term frequencies). */
  private docLength = new Int32Array(1024);
  private documents = 0;
  /** Which terms any partition holds, by hash (see TermFilter). */
  private readonly filter = new TermFilter();
  /** Scratch accumulators by seq, zero between calls, and the seqs a call scored. */
  private scores = new Float64Array(1024);
  private touched = new Int32Array(1024);
  /** A search's BM25 score and length factor per document, side by side (posting-loops.ts addBm25). */
  private bm25 = new Float64Array(2048);
  private readonly reader = new PairsReader();
  private marks = new Uint8Array(1024);
  /** seq -> squared TF-IDF norm in its own partition, valid while the partition's generation holds. */
  private norms = new Float64Array(1024);
  /** seq -> the norm pass that last wrote norms[seq] (a pass stamps instead of zeroing first). */
  private stamps = new Int32Array(1024);
  private stamp = 0;

  /** Where the index reads a document's text (see the constructor). */
  private readonly source: DocumentSource;

  /**
   * `text` must answer, for an indexed document, the text it was added with, until it is removed.
   * The store passes itself (a method of one class): a closure per store was inlined by the
   * warm-up's compiled code, which was thrown away when the warm-up's store was collected ("weak
   * objects") and compiled again by the first related request (about 85 ms of compiler time).
   */
  constructor(text: DocumentText | DocumentSource) {
    this.source = typeof text === 'function' ? { documentText: text } : text;
    // The scratch arrays are stored twice from the start: V8 takes a field stored only once for a
    // constant and compiles it into the code that reads it, and the first growth (the 1,024th note)
    // then threw related, its norms pass and takeRelated, compiled by the warm-up, back to the
    // interpreter, to be compiled again by the first large request.
    this.ensureCapacity(this.scores.length);
  }

  get documentCount(): number {
    return this.documents;
  }

  clear(): void {
    this.partitions.clear();
    this.partitionOf.length = 0;
    this.docLength.fill(0);
    this.documents = 0;
    this.filter.clear();
  }

  /** Whether some partition may hold a term of this hash (terms.ts hashUnits); false is certain. */
  mightHold(hash: number): boolean {
    return this.filter.mightHold(hash);
  }

  /** Indexes the document's current text under its owner (removing the document first is the caller's job). */
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
      const grown = insertPosting(list ?? [], seq, tf);
      if (grown !== list) partition.postings.set(list ? term : internalised(term), grown);
      if (!list) this.filter.added(term);
      length += tf;
    }
    this.ensureCapacity(seq);
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
      const at = findPosting(list, seq);
      if (at !== -1 && removePosting(list, at) === 0) {
        partition.postings.delete(term);
        this.filter.removed(term);
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
      let seqs = byPartition.get(partition);
      if (!seqs) {
        seqs = new Set();
        byPartition.set(partition, seqs);
      }
      seqs.add(seq);
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
    // Made before the loops: a site first reached after a hot loop is compiled without feedback,
    // and reaching it would throw the whole call back to the interpreter (as did the walk below
    // when it was inline: 100,000 documents, 2.5x slower on a cold first request).
    const heap = new TopK(k, tieBreak);
    const prefilled = this.denseStart(view, unique, avg);
    const count = scoreBm25(view, unique, this.reader, avg, docLength, bm25, touched, prefilled);
    takeBm25(heap, touched, count, bm25, accept);
    return heap.sorted();
  }

  /**
   * When the query's postings in the caller's own partition cover its documents about once or
   * more (a query of most of its vocabulary), every own document is entered in `touched` with its
   * length factor before scoring, so the loops need no first-touch test (posting-loops.ts
   * addBm25Dense); answers how many were entered, 0 for the ordinary walk. Only where the own
   * partition holds an eighth of the documents or more: the entry walks every document's partition.
   */
  private denseStart(view: CorpusView, unique: readonly string[], avg: number): number {
    const own = view.own;
    const range = this.partitionOf.length;
    if (!own || own.documents * 8 < range) return 0;
    let postings = 0;
    for (const term of unique) postings += (view.ownPostings(term)?.length ?? 0) / 2;
    if (postings < own.documents) return 0;
    const { bm25, docLength, touched, partitionOf } = this;
    let count = 0;
    for (let seq = 0; seq < range; seq++) {
      if (partitionOf[seq] !== own) continue;
      touched[count++] = seq;
      bm25[seq * 2 + 1] = K1 * (1 - B + (B * docLength[seq]!) / avg);
    }
    return count;
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
    const heap = new TopK(k, tieBreak);
    // Candidates first: only they are scored (a subject holding every term touched every document
    // for a dot product most of them then dropped). Each candidate sums the same terms in the same
    // order as before, so its score is the same double.
    let candidates = 0;
    for (const [term] of strongest) {
      const list = view.ownPostings(term);
      if (list) candidates += markAll(this.reader.pairs(list), list.length, marks);
      if (!view.ownOnly) view.eachSharedPosting(term, (other) => void (marks[other] = 1));
    }
    // Most documents candidates: every posting is summed, the others dropped by takeRelated.
    const all = view.ownOnly && candidates * 2 >= view.documents;
    let count = 0;
    for (const [term, weight] of query) {
      // The subject's unit weight (weight x idf) times the candidate's idf: the candidate's own
      // factor, 1 + ln tf, comes from the posting.
      const idf = view.idf(term);
      const w = weight * idf * idf;
      const list = view.ownPostings(term);
      if (list)
        count = all
          ? addRelatedAll(this.reader.pairs(list), list.length, w, scores, touched, count)
          : addRelated(this.reader.pairs(list), list.length, w, scores, marks, touched, count);
      if (!view.ownOnly)
        view.eachSharedPosting(term, (other, tf) => {
          if (marks[other] === 0) return;
          if (scores[other] === 0) touched[count++] = other;
          scores[other]! += w * logTf(tf);
        });
    }
    takeRelated(heap, touched, count, scores, marks, seq, norms, accept);
    return heap.sorted();
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

  /**
   * term -> (1 + ln tf) / |document vector| in the view: the unit vector without its idf factor,
   * which the caller multiplies in per term.
   */
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
        const { norms, stamps, partitionOf } = this;
        // A partition holding an eighth of the documents or more has its norms zeroed first (a
        // look at each document's partition), and its postings add with no stamp to check; a
        // smaller one stamps (the look would cost more than its postings).
        const range = partitionOf.length;
        const zeroed = own.documents * 8 >= range;
        if (zeroed) for (let seq = 0; seq < range; seq++) if (partitionOf[seq] === own) norms[seq] = 0;
        const stamp = ++this.stamp;
        for (const list of own.postings.values()) {
          // The idf of the view, from the list's own length (its document frequency in this view).
          const idf = view.idfOf(list.length / 2);
          if (zeroed) addNormsZeroed(this.reader.pairs(list), list.length, idf * idf, norms);
          else addNorms(this.reader.pairs(list), list.length, idf * idf, norms, stamps, stamp);
        }
        own.normsGeneration = own.generation;
      }
      return (seq) => this.norms[seq]!;
    }
    // Each document sits in one partition: walk the own partition whole and the shared ones
    // filtered to the shared documents, each term's idf taken once.
    const local = new Map<number, number>();
    const walk = (partition: Partition, only?: ReadonlySet<number>) => {
      for (const [term, list] of partition.postings) {
        const idf = view.idf(term);
        const pairs = pairsOf(list);
        for (let i = 0; i < list.length; i += 2) {
          const seq = pairs[i]!;
          if (only && !only.has(seq)) continue;
          const w = logTf(pairs[i + 1]!) * idf;
          local.set(seq, (local.get(seq) ?? 0) + w * w);
        }
      }
    };
    if (own) walk(own);
    for (const [partition, seqs] of view.shared) walk(partition, seqs);
    return (seq) => local.get(seq) ?? 0;
  }

  private ensureCapacity(seq: number): void {
    if (seq < this.scores.length) return;
    let size = this.scores.length;
    while (size <= seq) size *= 2;
    const grow = <T extends Float64Array | Uint8Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.scores = grow(this.scores, (n) => new Float64Array(n));
    this.touched = grow(this.touched, (n) => new Int32Array(n));
    const bm25 = new Float64Array(size * 2);
    bm25.set(this.bm25);
    this.bm25 = bm25;
    this.docLength = grow(this.docLength, (n) => new Int32Array(n));
    this.norms = grow(this.norms, (n) => new Float64Array(n));
    this.marks = grow(this.marks, (n) => new Uint8Array(n));
    this.stamps = grow(this.stamps, (n) => new Int32Array(n));
  }
}

/**
 * Each query term's BM25 share into `bm25` (posting-loops.ts addBm25), in query order: answers how
 * many documents were touched. A function of its own, small enough for the warm-up's searches to
 * have it compiled: inline in search, the first 4 MiB query of every corpus term compiled the
 * whole of search on the spot (12 ms OSR, then 32 ms more, counted as that request's CPU time).
 */
function scoreBm25(
  view: CorpusView,
  unique: readonly string[],
  reader: PairsReader,
  avg: number,
  docLength: Int32Array,
  bm25: Float64Array,
  touched: Int32Array,
  prefilled: number,
): number {
  let count = prefilled;
  for (const term of unique) {
    const idf = view.idf(term);
    const list = view.ownPostings(term);
    if (list && prefilled > 0) addBm25Dense(reader.pairs(list), list.length, idf, bm25);
    else if (list) count = addBm25(reader.pairs(list), list.length, idf, avg, docLength, bm25, touched, count);
    if (!view.ownOnly)
      view.eachSharedPosting(term, (seq, tf) => {
        if (bm25[seq * 2] === 0) {
          touched[count++] = seq;
          bm25[seq * 2 + 1] = K1 * (1 - B + (B * docLength[seq]!) / avg);
        }
        bm25[seq * 2]! += idf * ((tf * (K1 + 1)) / (tf + bm25[seq * 2 + 1]!));
      });
  }
  return count;
}

/**
 * The touched documents' BM25 scores into the heap (where `accept` admits them), each score zeroed
 * for the next call. A function of its own, like the loops of posting-loops.ts, so that it is
 * compiled for itself and not left to the interpreter with a caller that was deoptimized.
 */
function takeBm25(
  heap: TopK,
  touched: Int32Array,
  count: number,
  bm25: Float64Array,
  accept: (seq: number) => boolean,
): void {
  for (let t = 0; t < count; t++) {
    const seq = touched[t]!;
    const score = bm25[seq * 2]!;
    bm25[seq * 2] = 0;
    // 0: an own document no query term touched (entered by denseStart); every share is positive.
    if (score > 0 && heap.admits(seq, score) && accept(seq)) heap.push(seq, score);
  }
}

/** The related-notes candidates among the touched documents into the heap (as takeBm25), scratch zeroed. */
function takeRelated(
  heap: TopK,
  touched: Int32Array,
  count: number,
  scores: Float64Array,
  marks: Uint8Array,
  subject: number,
  norms: (seq: number) => number,
  accept: (seq: number) => boolean,
): void {
  for (let t = 0; t < count; t++) {
    const other = touched[t]!;
    const dot = scores[other]!;
    const candidate = marks[other] === 1;
    scores[other] = 0;
    marks[other] = 0;
    if (!candidate || other === subject) continue;
    const score = Math.round((dot / (Math.sqrt(norms(other)) || 1)) * 1e6) / 1e6;
    if (score > 0 && heap.admits(other, score) && accept(other)) heap.push(other, score);
  }
}
