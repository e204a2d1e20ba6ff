import { hashUnits, isWordUnit, MAX_TERM_LENGTH, WORD_CHAR } from './terms.js';

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/**
 * The distinct terms of one text (a query) with how often each occurs, found without making a
 * string per occurrence: terms are spans of the lower-cased text (terms.ts rules) in an
 * open-addressing table keyed by an FNV-1a hash computed during the scan and compared unit by
 * unit. `worthKeeping(hash)` drops terms that cannot matter before they cost a table entry (terms
 * no index holds), so a 4 MiB query of unknown words is one scan; strings are made only for the
 * terms asked for.
 */
export class TermTable {
  private readonly lower: string;
  private starts = new Int32Array(64);
  private ends = new Int32Array(64);
  private counts = new Int32Array(64);
  private hashes = new Int32Array(64);
  /** Open addressing: entry index + 1, 0 for an empty slot. */
  private slots = new Int32Array(128);
  private mask = 127;
  private entries = 0;
  private seen = 0;

  constructor(
    text: string,
    private readonly worthKeeping: (hash: number) => boolean = () => true,
  ) {
    this.lower = text.toLowerCase();
    this.scan();
  }

  /** Distinct terms kept. */
  get size(): number {
    return this.entries;
  }

  /** Term occurrences in the text, kept or not. */
  get occurrences(): number {
    return this.seen;
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
        if (i - start <= MAX_TERM_LENGTH) this.add(start, i, hash);
        start = -1;
      }
      i += width;
    }
    if (start !== -1 && n - start <= MAX_TERM_LENGTH) this.add(start, n, hash);
  }

  private add(start: number, end: number, hash: number): void {
    this.seen++;
    const found = this.find(this.lower, start, end, hash);
    if (found !== -1) {
      this.counts[found]!++;
      return;
    }
    if (!this.worthKeeping(hash)) return;
    if (this.entries === this.starts.length) this.grow();
    const e = this.entries++;
    this.starts[e] = start;
    this.ends[e] = end;
    this.counts[e] = 1;
    this.hashes[e] = hash;
    this.place(e);
  }

  private place(e: number): void {
    let slot = this.hashes[e]! & this.mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = e + 1;
  }

  /** Doubles the entries and the slots (kept at most half full). */
  private grow(): void {
    const size = this.starts.length * 2;
    const copy = (old: Int32Array, next: Int32Array<ArrayBuffer>) => {
      next.set(old);
      return next;
    };
    this.starts = copy(this.starts, new Int32Array(size));
    this.ends = copy(this.ends, new Int32Array(size));
    this.counts = copy(this.counts, new Int32Array(size));
    this.hashes = copy(this.hashes, new Int32Array(size));
    this.slots = new Int32Array(size * 2);
    this.mask = size * 2 - 1;
    for (let e = 0; e < this.entries; e++) this.place(e);
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
