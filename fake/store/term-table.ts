import { forEachTermSpan, hashUnits } from './terms.js';

/**
 * The distinct terms of one text (a query) with how often each occurs, found without making a
 * string per occurrence: terms are spans of the lower-cased text in an open-addressing table keyed
 * by hash and compared unit by unit. A 4 MiB query of a few words repeated costs one scan; a
 * 4 MiB query of distinct words makes strings only for the terms a caller asks for.
 */
export class TermTable {
  private readonly lower: string;
  private starts = new Int32Array(64);
  private ends = new Int32Array(64);
  private counts = new Int32Array(64);
  private hashes = new Uint32Array(64);
  /** Open addressing: entry index + 1, 0 for an empty slot. */
  private slots = new Int32Array(128);
  private entries = 0;

  constructor(text: string) {
    this.lower = text.toLowerCase();
    forEachTermSpan(this.lower, (start, end) => this.add(start, end));
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

  private add(start: number, end: number): void {
    const hash = hashUnits(this.lower, start, end);
    const found = this.find(this.lower, start, end, hash);
    if (found !== -1) {
      this.counts[found]!++;
      return;
    }
    if (this.entries === this.starts.length) this.growEntries();
    const e = this.entries++;
    this.starts[e] = start;
    this.ends[e] = end;
    this.counts[e] = 1;
    this.hashes[e] = hash;
    this.place(e);
    if (this.entries * 2 > this.slots.length) this.rehash();
  }

  private find(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
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

  private place(e: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hashes[e]! & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = e + 1;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let e = 0; e < this.entries; e++) this.place(e);
  }

  private growEntries(): void {
    const size = this.starts.length * 2;
    const grow = <T extends Int32Array | Uint32Array>(old: T, next: T): T => {
      next.set(old);
      return next;
    };
    this.starts = grow(this.starts, new Int32Array(size));
    this.ends = grow(this.ends, new Int32Array(size));
    this.counts = grow(this.counts, new Int32Array(size));
    this.hashes = grow(this.hashes, new Uint32Array(size));
  }
}
