/**
 * An object body's members as JSON.parse orders them (json-scan.ts records where each key of the
 * root object lies, json-root-members.ts): array-index keys first, ascending, then the others as
 * first sent; a repeated key keeps its first place and its last value. Values are built on demand.
 */

import { build } from './json-build.js';
import { ESCAPED, hashOf, type RootMembers } from './json-root-members.js';
import { C, isWs, skipWs } from './json-tokens.js';

/** An object body: its keys as Object.keys would list them, each value built on demand. */
export class ScannedObject {
  constructor(
    private readonly text: string,
    private readonly members: RootMembers,
    /** Per distinct key, in Object.keys order: its first member (where the key is). */
    private readonly order: Int32Array,
    /** Per first member: its key's last member (where the value is). */
    private readonly lastOf: Int32Array,
    /** Keys holding an escape, decoded, by their first member. */
    private readonly decoded: ReadonlyMap<number, string> | undefined,
  ) {}

  get size(): number {
    return this.order.length;
  }

  /** The i-th key in Object.keys order. */
  key(i: number): string {
    const k = this.order[i]!;
    return this.decoded?.get(k) ?? this.text.slice(this.members.keyStarts[k]! + 1, this.members.keyEnds[k]! - 1);
  }

  /** key(i) when it is one of `names`, else undefined; compared in place (no string per key). */
  keyAmong(i: number, names: readonly string[]): string | undefined {
    const k = this.order[i]!;
    const decoded = this.decoded?.get(k);
    if (decoded !== undefined) return names.includes(decoded) ? decoded : undefined;
    const from = this.members.keyStarts[k]! + 1;
    const length = this.members.keyEnds[k]! - 1 - from;
    for (const name of names) if (name.length === length && this.text.startsWith(name, from)) return name;
    return undefined;
  }

  /** Every key in Object.keys order. */
  allKeys(): string[] {
    return Array.from(this.order, (_, i) => this.key(i));
  }

  /** The value of key(i) (the last one sent under that key), built two levels deep. */
  value(i: number): unknown {
    const { text, members } = this;
    const last = this.lastOf[this.order[i]!]!;
    const built = members.strings?.get(last);
    if (built !== undefined) return built;
    // After the key: whitespace, the colon, whitespace.
    const start = skipWs(text, skipWs(text, members.keyEnds[last]!) + 1);
    // Before the next member's key: whitespace, the comma, whitespace; or before the closing brace.
    let end = members.end;
    if (last + 1 < members.count) {
      end = members.keyStarts[last + 1]!;
      while (isWs(text.charCodeAt(end - 1))) end--;
      end--;
    }
    while (isWs(text.charCodeAt(end - 1))) end--;
    // No container inside (a bracket in a string only sends it the long way): JSON.parse builds
    // it, faster than build() for an array of a million strings.
    if (text.charCodeAt(start) !== C.OpenBracket && text.charCodeAt(start) !== C.OpenBrace)
      return JSON.parse(text.slice(start, end));
    const within = (bracket: string) => {
      const at = text.indexOf(bracket, start + 1);
      return at !== -1 && at < end;
    };
    if (!within('[') && !within('{')) return JSON.parse(text.slice(start, end));
    return build(text, start, 1);
  }

  /** The whole body as JSON.parse builds it (for callers that need every field). */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/**
 * The members in JSON.parse's order: array-index keys ascending, then the others as first sent; a
 * repeated key keeps its first place and its last value. De-duplicated in a hash table over the
 * keys' text, without a string per key (a Map of 200,000 key strings cost 40 to 90 ms here).
 */
export function objectOf(text: string, members: RootMembers): ScannedObject {
  // One loop a function: a site first reached after a hot loop is compiled without feedback, and
  // reaching it threw the whole function back to the interpreter (five times on the first body of
  // 200,000 fields, one loop after another).
  const decoded = decodedKeys(text, members);
  const lastOf = new Int32Array(members.count);
  // Array-index keys first, ascending (V8 keeps them as elements), de-duplicated by their index,
  // then the others as first sent, de-duplicated by hash. An array index is one key's only
  // spelling (no leading zero), so equal indexes are equal keys: a body of 390,000 of them
  // ("0", "1", ...) went through the hash table for nothing (about 15 ms).
  const indexed = arrayIndexKeys(text, members, decoded, lastOf);
  const { first, distinct } = repeatedKeys(text, members, decoded, lastOf, indexed.isIndex);
  const order = new Int32Array(indexed.count + distinct);
  order.set(indexed.order);
  inOrder(first, indexed.count, members.count, order);
  return new ScannedObject(text, members, order, lastOf, decoded);
}

/** Keys holding an escape, decoded (and hashed), by their member's place (undefined when none has one). */
function decodedKeys(text: string, members: RootMembers): Map<number, string> | undefined {
  let decoded: Map<number, string> | undefined;
  const { marks, keyStarts, keyEnds, hashes } = members;
  for (let k = 0; k < members.count; k++) {
    if (!(marks[k]! & ESCAPED)) continue;
    const key = JSON.parse(text.slice(keyStarts[k]!, keyEnds[k]!)) as string;
    (decoded ??= new Map()).set(k, key);
    hashes[k] = hashOf(key, 0, key.length);
  }
  return decoded;
}

/**
 * Per member whose key is not an array index (`isIndex` 0): whether it is its key's first
 * (`first`); for a first one, its key's last member goes into `lastOf`.
 */
function repeatedKeys(
  text: string,
  members: RootMembers,
  decoded: Map<number, string> | undefined,
  lastOf: Int32Array,
  isIndex: Uint8Array | undefined,
): { first: Uint8Array; distinct: number } {
  const m = members.count;
  const { keyStarts, keyEnds, hashes } = members;
  const keyText = (k: number) => decoded?.get(k) ?? text.slice(keyStarts[k]! + 1, keyEnds[k]! - 1);
  let size = 16;
  while (size < m * 2) size <<= 1;
  const table = tableOf(size); // slot -> 1 + the first member of its key, 0 when free
  const first = new Uint8Array(m);
  let distinct = 0;
  for (let k = 0; k < m; k++) {
    if (isIndex !== undefined && isIndex[k] === 1) continue;
    let slot = spread(hashes[k]!) & (size - 1);
    for (;;) {
      const at = table[slot]! - 1;
      if (at === -1) {
        table[slot] = k + 1;
        lastOf[k] = k;
        first[k] = 1;
        distinct++;
        break;
      }
      if (
        hashes[at] === hashes[k] &&
        (decoded === undefined
          ? sameText(text, keyStarts[at]! + 1, keyEnds[at]! - 1, keyStarts[k]! + 1, keyEnds[k]! - 1)
          : keyText(at) === keyText(k))
      ) {
        lastOf[at] = k;
        break;
      }
      slot = (slot + 1) & (size - 1);
    }
  }
  if (table.buffer === keptTable.buffer) table.fill(0);
  return { first, distinct };
}

/** FNV-1a's low bits are weak for short keys ("k1a", "k1b", ...): spread before taking a slot. */
function spread(hash: number): number {
  const h = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
  return h ^ (h >>> 16);
}

/**
 * The de-duplication table, zeroed, `size` slots (a power of two): one kept between bodies up to
 * 2^20 slots (4 MB), handed back zeroed; a table of its own for each body of 440,000 fields made
 * 4 MB for the collector each time.
 */
function tableOf(size: number): Int32Array {
  if (size < 1024 || size > KEPT_TABLE) return new Int32Array(size);
  if (keptTable.length < size) keptTable = new Int32Array(Math.max(size, 1024));
  return keptTable.subarray(0, size);
}
const KEPT_TABLE = 1 << 20;
let keptTable = new Int32Array(0);

/**
 * The members whose key is an array index, `order` holding the first member of each distinct one
 * by index (ascending), `lastOf` its last member (where its value is), `isIndex` 1 for each of them
 * (undefined when there is none): how many distinct ones.
 */
function arrayIndexKeys(
  text: string,
  members: RootMembers,
  decoded: Map<number, string> | undefined,
  lastOf: Int32Array,
): { order: Int32Array; count: number; isIndex: Uint8Array | undefined } {
  const { marks, keyStarts, keyEnds } = members;
  let indexes: Uint32Array | undefined;
  let sent: Int32Array | undefined;
  let isIndex: Uint8Array | undefined;
  let count = 0;
  for (let k = 0; k < members.count; k++) {
    if (!marks[k]) continue;
    const own = decoded?.get(k);
    const index = own === undefined ? digitsIndex(text, keyStarts[k]! + 1, keyEnds[k]! - 1) : arrayIndex(own);
    if (index === -1) continue;
    if (indexes === undefined || sent === undefined || isIndex === undefined) {
      indexes = new Uint32Array(members.count - k);
      sent = new Int32Array(members.count - k);
      isIndex = new Uint8Array(members.count);
    }
    indexes[count] = index;
    sent[count++] = k;
    isIndex[k] = 1;
  }
  if (indexes === undefined || sent === undefined) return { order: EMPTY, count: 0, isIndex };
  // Stable: a repeated index's members stay in the order sent, its last one last.
  if (count > 1) sortByIndex(sent.subarray(0, count), indexes.subarray(0, count));
  let distinct = 0;
  for (let i = 0; i < count; i++) {
    if (i > 0 && indexes[i] === indexes[i - 1]) {
      lastOf[sent[distinct - 1]!] = sent[i]!;
      continue;
    }
    lastOf[sent[i]!] = sent[i]!;
    sent[distinct++] = sent[i]!;
  }
  return { order: sent.subarray(0, distinct), count: distinct, isIndex };
}
const EMPTY = new Int32Array(0);

/** Bits of an index sorted per pass: three passes over 32 bits. */
const RADIX_BITS = 11;
const RADIX = 1 << RADIX_BITS;

/**
 * Sorts the members `order` by their keys' `indexes`, and the indexes with them: a stable radix
 * sort, three passes of counting (466,000 numeric keys took about 100 ms as [index, member] pairs sorted by a comparator,
 * and 37 ms as doubles by the typed array's own sort). Keys sent in order need no sort at all.
 */
function sortByIndex(order: Int32Array, indexes: Uint32Array): void {
  let sorted = true;
  for (let i = 1; i < indexes.length && sorted; i++) sorted = indexes[i - 1]! < indexes[i]!;
  if (sorted) return;
  let keys: Uint32Array = indexes;
  let values: Int32Array = order;
  let nextKeys: Uint32Array = new Uint32Array(keys.length);
  let nextValues: Int32Array = new Int32Array(values.length);
  const counts = new Int32Array(RADIX);
  for (let shift = 0; shift < 32; shift += RADIX_BITS) {
    counts.fill(0);
    for (let i = 0; i < keys.length; i++) counts[(keys[i]! >>> shift) & (RADIX - 1)]!++;
    for (let b = 0, at = 0; b < RADIX; b++) {
      const c = counts[b]!;
      counts[b] = at;
      at += c;
    }
    for (let i = 0; i < keys.length; i++) {
      const to = counts[(keys[i]! >>> shift) & (RADIX - 1)]!++;
      nextKeys[to] = keys[i]!;
      nextValues[to] = values[i]!;
    }
    [keys, nextKeys] = [nextKeys, keys];
    [values, nextValues] = [nextValues, values];
  }
  // After an odd number of passes the sorted members and indexes are in the scratch arrays.
  if (values !== order) order.set(values);
  if (keys !== indexes) indexes.set(keys);
}

/** The first members left, in the order sent, into `order` from `from`. */
function inOrder(first: Uint8Array, from: number, count: number, order: Int32Array): void {
  let out = from;
  for (let k = 0; k < count; k++) if (first[k]) order[out++] = k;
}

/** The array index a key names, as V8 orders them (0 to 2^32-2), or -1. */
function arrayIndex(key: string): number {
  if (key.length === 0 || key.length > 10) return -1;
  if (!/^(?:0|[1-9][0-9]*)$/.test(key)) return -1;
  const n = Number(key);
  return n <= 4294967294 ? n : -1;
}

/** arrayIndex of the plain key text[from, to) of 1 to 10 digits, read in place. */
function digitsIndex(text: string, from: number, to: number): number {
  if (to - from > 1 && text.charCodeAt(from) === C.Zero) return -1;
  let n = 0;
  for (let j = from; j < to; j++) n = n * 10 + (text.charCodeAt(j) - C.Zero);
  return n <= 4294967294 ? n : -1;
}

function sameText(text: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  const length = aEnd - a;
  if (length !== bEnd - b) return false;
  for (let k = 0; k < length; k++) if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
  return true;
}
