/** Postings lists of the search index: flat (seq, tf) pairs sorted by seq, packed when long. */

/**
 * A term string that holds no reference to the text it was cut from: V8 may keep a long note
 * alive through a short sliced string, and a term outlives the note version it came from.
 */
export function internalised(term: string): string {
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
export type Postings = number[] | PackedPostings;
const PACK_AT = 32;

export function pairsOf(list: Postings): ArrayLike<number> {
  return Array.isArray(list) ? list : list.data;
}

/** Position (even index) of seq in a postings list, or -1. */
export function findPosting(list: Postings, seq: number): number {
  const pairs = pairsOf(list);
  const at = lowerPair(pairs, list.length, seq);
  return at < list.length && pairs[at] === seq ? at : -1;
}

/**
 * Inserts (seq, tf) in seq order and answers the list to keep: the same one, or its packed form.
 * New documents have the largest seq, so this mostly appends.
 */
export function insertPosting(list: Postings, seq: number, tf: number): Postings {
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
export function removePosting(list: Postings, at: number): number {
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
