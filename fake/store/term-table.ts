import { hashUnits, isWordUnit, MAX_TERM_LENGTH, WORD_CHAR } from './terms.js';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * The distinct terms of one text (a query) with how often each occurs, found without making a
 * string per occurrence: terms are spans of the lower-cased text (terms.ts rules) in an
 * open-addressing table keyed by an FNV-1a hash computed during the scan and compared unit by
 * unit. Sized once from the text's length (a text of n units has at most n/2 + 1 terms), so a
 * 4 MiB query is one scan with no rehashing, and strings are made only for the terms asked for.
 */
export class TermTable {
  private readonly lower: string;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly counts: Int32Array;
  private readonly hashes: Uint32Array;
  /** Open addressing: entry index + 1, 0 for an empty slot. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  private entries = 0;

  constructor(text: string) {
    const lower = text.toLowerCase();
    this.lower = lower;
    const most = (lower.length >> 1) + 1;
    this.starts = new Int32Array(most);
    this.ends = new Int32Array(most);
    this.counts = new Int32Array(most);
    this.hashes = new Uint32Array(most);
    let slots = 4;
    while (slots < most * 2) slots *= 2;
    this.slots = new Int32Array(slots);
    this.mask = slots - 1;
    this.scan();
  }

  /** Distinct terms. */
  get size(): number {
    return this.entries;
  }

  /** How often the term at other[start, end) (lower-cased) occurs in this text. */
  countOf(other: string, start: number, end: number): number {
    const entry = this.find(other, start, end, hashUnits(other, start, end));
    return entry === -1 ? 0 : this.counts[entry]!;
  }

  /** The distinct terms whose hash `keep` admits (all by default), as strings, in first-occurrence order. */
  terms(keep: (hash: number) => boolean = () => true): string[] {
    const out: string[] = [];
    for (let e = 0; e < this.entries; e++)
      if (keep(this.hashes[e]!)) out.push(this.lower.slice(this.starts[e]!, this.ends[e]!));
    return out;
  }

  /** forEachTermSpan with the hash folded in as each unit is read (the hot loop of a big query). */
  private scan(): void {
    const lower = this.lower;
    const n = lower.length;
    let start = -1;
    let hash = FNV_OFFSET;
    let i = 0;
    while (i < n) {
      const c = lower.charCodeAt(i);
      let width = 1;
      let word: boolean;
      if (c < 128) word = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        const low = lower.charCodeAt(i + 1);
        word = low >= 0xdc00 && low <= 0xdfff && WORD_CHAR.test(lower.slice(i, i + 2));
        if (low >= 0xdc00 && low <= 0xdfff) width = 2;
      } else word = isWordUnit(c);
      if (word) {
        if (start === -1) {
          start = i;
          hash = FNV_OFFSET;
        }
        hash = Math.imul(hash ^ c, FNV_PRIME);
        if (width === 2) hash = Math.imul(hash ^ lower.charCodeAt(i + 1), FNV_PRIME);
      } else if (start !== -1) {
        if (i - start <= MAX_TERM_LENGTH) this.add(start, i, hash >>> 0);
        start = -1;
      }
      i += width;
    }
    if (start !== -1 && n - start <= MAX_TERM_LENGTH) this.add(start, n, hash >>> 0);
  }

  private add(start: number, end: number, hash: number): void {
    const found = this.find(this.lower, start, end, hash);
    if (found !== -1) {
      this.counts[found]!++;
      return;
    }
    const e = this.entries++;
    this.starts[e] = start;
    this.ends[e] = end;
    this.counts[e] = 1;
    this.hashes[e] = hash;
    let slot = hash & this.mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = e + 1;
  }

  private find(text: string, start: number, end: number, hash: number): number {
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const e = this.slots[slot]! - 1;
      if (e === -1) return -1;
      if (this.hashes[e] === hash && this.same(e, text, start, end)) return e;
    }
  }

  private same(e: number, text: string, start: number, end: number): boolean {
    const s = this.starts[e]!;
    if (this.ends[e]! - s !== end - start) return false;
    for (let k = 0; k < end - start; k++) if (this.lower.charCodeAt(s + k) !== text.charCodeAt(start + k)) return false;
    return true;
  }
}
