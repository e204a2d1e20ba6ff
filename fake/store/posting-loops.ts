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

/** Sets marks[seq] for every document of the postings. */
export function markAll(pairs: Int32Array, length: number, marks: Uint8Array): void {
  for (let i = 0; i < length; i += 2) marks[pairs[i]!] = 1;
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
