import { C, skipString } from './json-tokens.js';

/** Marks of a member's key: it holds an escape (decoded later), or it is 1 to 10 digits (maybe an array index). */
export const ESCAPED = 1;
export const DIGITS = 2;

/** FNV-1a over UTF-16 units, as RootMembers.readKey hashes a key's raw text. */
export function hashOf(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let k = from; k < to; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return h >>> 0;
}

/**
 * Where each member of a root object lies, recorded by the body scan (json-scan.ts) as it reads
 * them, with what ordering them needs (json-members.ts): the hash of each key, and whether it holds
 * an escape or may be an array index. Read in the same loop that finds the key's end: a body of
 * 466,000 unknown fields (4 MiB) cost 120 to 350 ms when the keys were read again to hash, look for
 * escapes and for digits, and their places kept in JS arrays.
 */
export class RootMembers {
  count = 0;
  /** Where the object's closing brace is (set once the scan is over). */
  end = 0;
  /**
   * Per member, in the order sent: where its key starts and ends (quotes included). Where its value
   * starts and ends follows from them (json-members.ts): only a route's own fields are read. Sized
   * 16 to start: V8 keeps a typed array of up to 64 bytes on its heap, cheap to make; a larger one
   * costs an allocation of its own, more than reading a small body.
   */
  keyStarts = new Int32Array(16);
  keyEnds = new Int32Array(16);
  /** hashOf the key's raw text (0 when ESCAPED: hashed once decoded). */
  hashes = new Int32Array(16);
  marks = new Uint8Array(16);
  /** The length of the text the members are read from (to size the arrays as they grow). */
  textLength = 0;
  /** Long string values the scan built already (json-scan.ts rootString), by member. */
  strings: Map<number, string> | undefined;

  /**
   * Reads the key whose opening quote is at `at` and records it: answers where it ends (after its
   * closing quote), or -1-position of a syntax error.
   */
  readKey(text: string, at: number): number {
    let h = 0x811c9dc5;
    let digits = 0;
    let j = at + 1;
    for (;;) {
      const c = text.charCodeAt(j);
      if (c === C.Quote) break;
      // An escape, a control character or the end of the text: read the whole string the long way.
      if (!(c >= C.Space) || c === C.Backslash) return this.readEscapedKey(text, at);
      h = Math.imul(h ^ c, 0x01000193);
      if (c >= C.Zero && c <= C.Nine) digits++;
      j++;
    }
    const length = j - at - 1;
    this.record(at, j + 1, h, length > 0 && length <= 10 && digits === length ? DIGITS : 0);
    return j + 1;
  }

  /** A key that is not plain text: valid only if it holds an escape (its hash comes from its decoded text). */
  private readEscapedKey(text: string, at: number): number {
    const end = skipString(text, at);
    if (end >= 0) this.record(at, end, 0, ESCAPED);
    return end;
  }

  private record(keyStart: number, keyEnd: number, hash: number, marks: number): void {
    if (this.count === this.keyStarts.length) this.grow(keyStart, this.textLength);
    const k = this.count++;
    this.keyStarts[k] = keyStart;
    this.keyEnds[k] = keyEnd;
    this.hashes[k] = hash;
    this.marks[k] = marks;
  }

  /** The value of the member last read is this string, built. */
  keepString(value: string): void {
    (this.strings ??= new Map()).set(this.count - 1, value);
  }

  /**
   * Room for more members, the key at `at` of a text `n` long being the next: four times as many,
   * and past 4,096 as many as the text holds if the rest is like what was read (and no more than it
   * can hold, a member taking 5 characters at least). Growing fourfold to 440,000 members made 18 MB
   * of arrays, whose collection cost as much as reading the body.
   */
  private grow(at: number, n: number): void {
    const count = this.count;
    let length = count * 4;
    if (count >= 4096) {
      const projected = Math.ceil(((count * n) / Math.max(at, 1)) * 1.05) + 64;
      length = Math.max(count * 2, Math.min(projected, count + Math.ceil((n - at) / 5) + 16));
    }
    const larger = <T extends Int32Array | Uint8Array>(old: T): T => {
      const next = new (old.constructor as new (length: number) => T)(length);
      next.set(old);
      return next;
    };
    this.keyStarts = larger(this.keyStarts);
    this.keyEnds = larger(this.keyEnds);
    this.hashes = larger(this.hashes);
    this.marks = larger(this.marks);
  }
}
