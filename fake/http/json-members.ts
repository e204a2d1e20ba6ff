/**
 * An object body's members as JSON.parse orders them (json-scan.ts records where each key and
 * value of the root object lies): array-index keys first, ascending, then the others as first
 * sent; a repeated key keeps its first place and its last value. Values are built on demand.
 */

import { build } from './json-build.js';
import { C, hasEscape, isDigit } from './json-tokens.js';

/** An object body: its keys as Object.keys would list them, each value built on demand. */
export class ScannedObject {
  constructor(
    private readonly text: string,
    /** Per distinct key, in Object.keys order: where its (first) key starts and ends (quotes included). */
    private readonly keyStarts: Int32Array,
    private readonly keyEnds: Int32Array,
    /** Where its (last) value starts and ends. */
    private readonly valueStarts: Int32Array,
    private readonly valueEnds: Int32Array,
    /** Keys holding an escape, decoded, by their place in the order. */
    private readonly decoded: ReadonlyMap<number, string> | undefined,
  ) {}

  get size(): number {
    return this.keyStarts.length;
  }

  /** The i-th key in Object.keys order. */
  key(i: number): string {
    return this.decoded?.get(i) ?? this.text.slice(this.keyStarts[i]! + 1, this.keyEnds[i]! - 1);
  }

  /** key(i) when it is one of `names`, else undefined; compared in place (no string per key). */
  keyAmong(i: number, names: readonly string[]): string | undefined {
    const decoded = this.decoded?.get(i);
    if (decoded !== undefined) return names.includes(decoded) ? decoded : undefined;
    const from = this.keyStarts[i]! + 1;
    const length = this.keyEnds[i]! - 1 - from;
    for (const name of names) if (name.length === length && this.text.startsWith(name, from)) return name;
    return undefined;
  }

  /** Every key in Object.keys order. */
  allKeys(): string[] {
    return Array.from(this.keyStarts, (_, i) => this.key(i));
  }

  /** The value of key(i) (the last one sent under that key), built two levels deep. */
  value(i: number): unknown {
    const start = this.valueStarts[i]!;
    const end = this.valueEnds[i]!;
    // No container inside (a bracket in a string only sends it the long way): JSON.parse builds
    // it, faster than build() for an array of a million strings.
    const text = this.text;
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

/** The array index a key names, as V8 orders them (0 to 2^32-2), or -1. */
function arrayIndex(key: string): number {
  if (key.length === 0 || key.length > 10) return -1;
  if (!/^(?:0|[1-9][0-9]*)$/.test(key)) return -1;
  const n = Number(key);
  return n <= 4294967294 ? n : -1;
}

/** FNV-1a over UTF-16 units: of a key's raw text (no escape), or of a decoded key. */
function hashOf(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let k = from; k < to; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return h >>> 0;
}

/**
 * The members in JSON.parse's order: array-index keys ascending, then the others as first sent; a
 * repeated key keeps its first place and its last value. De-duplicated in a hash table over the
 * keys' text, without a string per key (a Map of 200,000 key strings cost 40 to 90 ms here).
 */
export function objectOf(
  text: string,
  keyStarts: number[],
  keyEnds: number[],
  valueStarts: number[],
  valueEnds: number[],
): ScannedObject {
  // One loop a function: a site first reached after a hot loop is compiled without feedback, and
  // reaching it threw the whole function back to the interpreter (five times on the first body of
  // 200,000 fields, one loop after another).
  const decoded = decodedKeys(text, keyStarts, keyEnds);
  const { lastOf, first, distinct } = repeatedKeys(text, keyStarts, keyEnds, decoded);
  const indexed = arrayIndexKeys(text, keyStarts, keyEnds, decoded, first);
  const keysAt = new Int32Array(distinct);
  const keysEnd = new Int32Array(distinct);
  const valuesAt = new Int32Array(distinct);
  const valuesEnd = new Int32Array(distinct);
  let placedDecoded: Map<number, string> | undefined;
  let out = 0;
  const place = (k: number) => {
    const own = decoded?.get(k);
    if (own !== undefined) (placedDecoded ??= new Map()).set(out, own);
    keysAt[out] = keyStarts[k]!;
    keysEnd[out] = keyEnds[k]!;
    valuesAt[out] = valueStarts[lastOf[k]!]!;
    valuesEnd[out++] = valueEnds[lastOf[k]!]!;
  };
  // Array-index keys come first, ascending (V8 keeps them as elements), then the others in order.
  if (indexed.length > 0) {
    indexed.sort((a, b) => a[0] - b[0]);
    for (const [, k] of indexed) {
      place(k);
      first[k] = 0;
    }
  }
  if (decoded === undefined && indexed.length === 0) {
    out = placeInOrder(first, keyStarts, keyEnds, valueStarts, valueEnds, lastOf, keysAt, keysEnd, valuesAt, valuesEnd);
  } else {
    for (let k = 0; k < keyStarts.length; k++) if (first[k]) place(k);
  }
  return new ScannedObject(text, keysAt, keysEnd, valuesAt, valuesEnd, placedDecoded);
}

/** Keys holding an escape, decoded, by their member's place (undefined when none has one). */
function decodedKeys(text: string, keyStarts: number[], keyEnds: number[]): Map<number, string> | undefined {
  let decoded: Map<number, string> | undefined;
  for (let k = 0; k < keyStarts.length; k++) {
    if (hasEscape(text, keyStarts[k]! + 1, keyEnds[k]! - 1)) {
      decoded ??= new Map();
      decoded.set(k, JSON.parse(text.slice(keyStarts[k]!, keyEnds[k]!)) as string);
    }
  }
  return decoded;
}

/** Per member: whether it is its key's first (`first`), and for a first one its key's last member. */
function repeatedKeys(
  text: string,
  keyStarts: number[],
  keyEnds: number[],
  decoded: Map<number, string> | undefined,
): { lastOf: Int32Array; first: Uint8Array; distinct: number } {
  const m = keyStarts.length;
  const keyText = (k: number) => decoded?.get(k) ?? text.slice(keyStarts[k]! + 1, keyEnds[k]! - 1);
  let size = 16;
  while (size < m * 2) size <<= 1;
  const table = new Int32Array(size).fill(-1); // slot -> the first member of its key
  const lastOf = new Int32Array(m);
  const first = new Uint8Array(m);
  let distinct = 0;
  for (let k = 0; k < m; k++) {
    const from = keyStarts[k]! + 1;
    const to = keyEnds[k]! - 1;
    const own = decoded?.get(k);
    let slot = (own === undefined ? hashOf(text, from, to) : hashOf(own, 0, own.length)) & (size - 1);
    for (;;) {
      const at = table[slot]!;
      if (at === -1) {
        table[slot] = k;
        lastOf[k] = k;
        first[k] = 1;
        distinct++;
        break;
      }
      if (
        decoded === undefined
          ? sameText(text, keyStarts[at]! + 1, keyEnds[at]! - 1, from, to)
          : keyText(at) === keyText(k)
      ) {
        lastOf[at] = k;
        break;
      }
      slot = (slot + 1) & (size - 1);
    }
  }
  return { lastOf, first, distinct };
}

/** The first members whose key is an array index, as [index, member]. */
function arrayIndexKeys(
  text: string,
  keyStarts: number[],
  keyEnds: number[],
  decoded: Map<number, string> | undefined,
  first: Uint8Array,
): Array<[number, number]> {
  const indexed: Array<[number, number]> = [];
  for (let k = 0; k < keyStarts.length; k++) {
    if (!first[k]) continue;
    const from = keyStarts[k]! + 1;
    const maybe = decoded?.has(k) || (keyEnds[k]! - 1 - from <= 10 && isDigit(text.charCodeAt(from)));
    if (!maybe) continue;
    const index = arrayIndex(decoded?.get(k) ?? text.slice(from, keyEnds[k]! - 1));
    if (index !== -1) indexed.push([index, k]);
  }
  return indexed;
}

/** The first members in order into the output arrays (no escaped key, no array index): how many. */
function placeInOrder(
  first: Uint8Array,
  keyStarts: number[],
  keyEnds: number[],
  valueStarts: number[],
  valueEnds: number[],
  lastOf: Int32Array,
  keysAt: Int32Array,
  keysEnd: Int32Array,
  valuesAt: Int32Array,
  valuesEnd: Int32Array,
): number {
  let out = 0;
  for (let k = 0; k < keyStarts.length; k++) {
    if (!first[k]) continue;
    keysAt[out] = keyStarts[k]!;
    keysEnd[out] = keyEnds[k]!;
    valuesAt[out] = valueStarts[lastOf[k]!]!;
    valuesEnd[out++] = valueEnds[lastOf[k]!]!;
  }
  return out;
}

function sameText(text: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  const length = aEnd - a;
  if (length !== bEnd - b) return false;
  for (let k = 0; k < length; k++) if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
  return true;
}
