import type { Postings } from './postings.js';

/**
 * The search index's hot loops over a term's postings: pairs (seq, tf) always in an Int32Array,
 * so each loop sees one element type and V8 keeps it monomorphic (a list that was now a plain
 * array and now a typed one made every loop polymorphic: a query of all 5,000 terms of 100,000
 * notes spent 80 ms in them). Short lists, kept as plain arrays to save memory, are copied into a
 * scratch array first. Each score is the same expression, evaluated in the same order, as before.
 */

export const K1 = 1.2;
export const B = 0.75;

/** 1 + ln(tf), the related-notes weight of a term frequency, looked up for small tf. */
const LOG_TF = Float64Array.from({ length: 256 }, (_, tf) => (tf === 0 ? 0 : 1 + Math.log(tf)));
export const logTf = (tf: number) => (tf < 256 ? LOG_TF[tf]! : 1 + Math.log(tf));

/** Views of postings as Int32Array pairs; one scratch array, valid until the next call. */
export class PairsReader {
  private scratch = new Int32Array(64);

  pairs(list: Postings): Int32Array {
    if (!Array.isArray(list)) return list.data;
    if (list.length > this.scratch.length) this.scratch = new Int32Array(list.length * 2);
    const scratch = this.scratch;
    for (let i = 0; i < list.length; i++) scratch[i] = list[i]!;
    return scratch;
  }
}

/**
 * BM25 of one query term into `slots`, which holds per document its score (at 2 x seq) and its
 * length factor, K1 x (1 - B + B x length / avg), side by side: the two are read for every
 * posting and one cache line holds both (documents are read in an order that misses the cache).
 * A document's first score appends it to `touched` and computes the factor, the same double the
 * expression gave inline, for the query's other terms. Answers the new count of touched documents.
 */
export function addBm25(
  pairs: Int32Array,
  length: number,
  idf: number,
  avg: number,
  docLength: Int32Array,
  slots: Float64Array,
  touched: Int32Array,
  count: number,
): number {
  for (let i = 0; i < length; i += 2) {
    const seq = pairs[i]!;
    const tf = pairs[i + 1]!;
    const at = seq * 2;
    if (slots[at] === 0) {
      touched[count++] = seq;
      slots[at + 1] = K1 * (1 - B + (B * docLength[seq]!) / avg);
    }
    slots[at]! += idf * ((tf * (K1 + 1)) / (tf + slots[at + 1]!));
  }
  return count;
}

/**
 * addBm25 when the caller has already set the length factor of every document the postings can
 * hold (a query whose postings cover the caller's own documents about once or more): no first-touch
 * test, and four postings a step, whose independent updates the processor overlaps (a 4 MiB query
 * of every term of 100,000 notes: about 40% less time in the loops). Each share is the same
 * expression, `idf * ((tf * (K1 + 1)) / (tf + factor))`, added in the same order, so each
 * document's score is the same double as addBm25 gives.
 */
export function addBm25Dense(pairs: Int32Array, length: number, idf: number, slots: Float64Array): void {
  const k = K1 + 1;
  let i = 0;
  for (; i + 6 < length; i += 8) {
    const a0 = pairs[i]! * 2;
    const f0 = pairs[i + 1]!;
    const a1 = pairs[i + 2]! * 2;
    const f1 = pairs[i + 3]!;
    const a2 = pairs[i + 4]! * 2;
    const f2 = pairs[i + 5]!;
    const a3 = pairs[i + 6]! * 2;
    const f3 = pairs[i + 7]!;
    slots[a0]! += idf * ((f0 * k) / (f0 + slots[a0 + 1]!));
    slots[a1]! += idf * ((f1 * k) / (f1 + slots[a1 + 1]!));
    slots[a2]! += idf * ((f2 * k) / (f2 + slots[a2 + 1]!));
    slots[a3]! += idf * ((f3 * k) / (f3 + slots[a3 + 1]!));
  }
  for (; i < length; i += 2) {
    const at = pairs[i]! * 2;
    const tf = pairs[i + 1]!;
    slots[at]! += idf * ((tf * k) / (tf + slots[at + 1]!));
  }
}

/** Sets marks[seq] for every document of the postings: answers how many were not set before. */
export function markAll(pairs: Int32Array, length: number, marks: Uint8Array): number {
  let marked = 0;
  for (let i = 0; i < length; i += 2) {
    const seq = pairs[i]!;
    marked += 1 - marks[seq]!;
    marks[seq] = 1;
  }
  return marked;
}

/**
 * One term's share of the related-notes dot products: weight x (1 + ln tf) per candidate (a
 * document `marks` holds); other documents are skipped.
 */
export function addRelated(
  pairs: Int32Array,
  length: number,
  weight: number,
  scores: Float64Array,
  marks: Uint8Array,
  touched: Int32Array,
  count: number,
): number {
  for (let i = 0; i < length; i += 2) {
    const seq = pairs[i]!;
    if (marks[seq] === 0) continue;
    const tf = pairs[i + 1]!;
    if (scores[seq] === 0) touched[count++] = seq;
    scores[seq]! += weight * (tf < 256 ? LOG_TF[tf]! : 1 + Math.log(tf));
  }
  return count;
}

/**
 * addRelated when most documents are candidates: every document of the postings is scored, and
 * the caller drops those that are not candidates when it takes the scores (their test here,
 * unpredictable when a few in ten fail it, cost more than their sums: a subject holding every
 * term, 88% of the documents candidates, 40 against 25 ms). A candidate's score is the same sum.
 */
export function addRelatedAll(
  pairs: Int32Array,
  length: number,
  weight: number,
  scores: Float64Array,
  touched: Int32Array,
  count: number,
): number {
  for (let i = 0; i < length; i += 2) {
    const seq = pairs[i]!;
    const tf = pairs[i + 1]!;
    if (scores[seq] === 0) touched[count++] = seq;
    scores[seq]! += weight * (tf < 256 ? LOG_TF[tf]! : 1 + Math.log(tf));
  }
  return count;
}

/** (1 + ln tf)^2 for small tf: the same double as w * w of LOG_TF. */
const LOG_TF_SQUARED = LOG_TF.map((w) => w * w);

/**
 * addNorms after the caller zeroed the norms of the partition's documents: no stamp to read or
 * write a posting. Each norm is the same sum, in the same order: a first share added to 0 is itself.
 */
export function addNormsZeroed(pairs: Int32Array, length: number, idf2: number, norms: Float64Array): void {
  for (let i = 0; i < length; i += 2) {
    const seq = pairs[i]!;
    const tf = pairs[i + 1]!;
    let w2: number;
    if (tf < 256) w2 = LOG_TF_SQUARED[tf]!;
    else {
      const w = 1 + Math.log(tf);
      w2 = w * w;
    }
    norms[seq]! += w2 * idf2;
  }
}

/** One term's share of the squared norms: a norm stamped by an earlier pass starts again at this term. */
export function addNorms(
  pairs: Int32Array,
  length: number,
  idf2: number,
  norms: Float64Array,
  stamps: Int32Array,
  stamp: number,
): void {
  for (let i = 0; i < length; i += 2) {
    const seq = pairs[i]!;
    const tf = pairs[i + 1]!;
    const w = tf < 256 ? LOG_TF[tf]! : 1 + Math.log(tf);
    if (stamps[seq] === stamp) norms[seq]! += w * w * idf2;
    else {
      stamps[seq] = stamp;
      norms[seq] = w * w * idf2;
    }
  }
}
