import { findPosting, type Postings, pairsOf } from './postings.js';

/**
 * One owner's indexed notes: term -> postings, with the counts relevance statistics need. Each
 * user's statistics come from their own partition plus the notes shared with them, so what one
 * user writes never moves another user's scores (nor the cost of their searches).
 */
export class Partition {
  readonly postings = new Map<string, Postings>();
  documents = 0;
  totalLength = 0;
  /** Bumped on every change: cached cosine norms belong to one generation. */
  generation = 0;
  normsGeneration = -1;
  constructor(readonly owner: string) {}

  df(term: string): number {
    return (this.postings.get(term)?.length ?? 0) / 2;
  }
}

/**
 * The notes one caller's ranking statistics are computed from (document count, lengths, document
 * frequencies): their own partition and, from other partitions, the notes shared with them.
 */
export class CorpusView {
  readonly documents: number;
  readonly totalLength: number;
  private readonly dfs = new Map<string, number>();

  constructor(
    readonly own: Partition | undefined,
    /** Notes of other owners visible to the caller, by partition. */
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
    if (this.ownOnly) return this.own?.df(term) ?? 0;
    let df = this.dfs.get(term);
    if (df === undefined) {
      df = this.own?.df(term) ?? 0;
      this.eachSharedPosting(term, () => df!++);
      this.dfs.set(term, df);
    }
    return df;
  }

  idf(term: string): number {
    return this.idfOf(this.df(term));
  }

  /** The idf of a term held by `df` of the view's documents. */
  idfOf(df: number): number {
    return Math.log(1 + (this.documents - df + 0.5) / (df + 0.5));
  }

  /** The term's postings in the caller's own partition (walked inline by the scorers: the hot loop). */
  ownPostings(term: string): Postings | undefined {
    return this.own?.postings.get(term);
  }

  /** Every (seq, tf) of the term among the notes shared with the caller. */
  eachSharedPosting(term: string, visit: (seq: number, tf: number) => void): void {
    for (const [partition, seqs] of this.shared) {
      const list = partition.postings.get(term);
      if (!list) continue;
      const pairs = pairsOf(list);
      if (seqs.size * 16 < list.length) {
        // Few shared notes in a long list: look each up (binary search) instead of walking it.
        for (const seq of seqs) {
          const at = findPosting(list, seq);
          if (at !== -1) visit(seq, pairs[at + 1]!);
        }
      } else {
        for (let i = 0; i < list.length; i += 2) if (seqs.has(pairs[i]!)) visit(pairs[i]!, pairs[i + 1]!);
      }
    }
  }
}
