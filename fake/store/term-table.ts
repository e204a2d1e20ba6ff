import { forEachFoldedTerm, type TermSink } from './folded-terms.js';
import { hashUnits } from './terms.js';

/** Size of the cache of hashes `worthKeeping` refused (direct-mapped). */
const REFUSED_SLOTS = 1024;

/**
 * The distinct terms of one text (a query) with how often each occurs, found without lowering the
 * text or making a string per occurrence: terms come folded from folded-terms.ts, and each kept
 * term's lower-cased units are copied once into a pool that later occurrences are compared with,
 * in an open-addressing table keyed by their FNV-1a hash. `worthKeeping(hash)` drops terms that
 * cannot matter before they cost a table entry (terms no index holds); its refusals are cached by
 * hash, so a 4 MiB query of one unknown word asked about 2,000,000 times asks once. Strings are
 * made only for the terms asked for.
 */
export class TermTable implements TermSink {
  private pool = new Uint16Array(256);
  private poolUsed = 0;
  private starts = new Int32Array(64);
  private lengths = new Int32Array(64);
  private counts = new Int32Array(64);
  private hashes = new Int32Array(64);
  /** Open addressing: entry index + 1, 0 for an empty slot. */
  private slots = new Int32Array(128);
  private mask = 127;
  private entries = 0;
  private seen = 0;
  private readonly refused = new Int32Array(REFUSED_SLOTS);
  private readonly refusedSet = new Uint8Array(REFUSED_SLOTS);

  constructor(
    text: string,
    private readonly worthKeeping: (hash: number) => boolean = () => true,
  ) {
    forEachFoldedTerm(text, this);
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
    return this.countOfHashed(other, start, end, hashUnits(other, start, end));
  }

  /** countOf when the caller knows the span's hash (terms.ts hashUnits). */
  countOfHashed(other: string, start: number, end: number, hash: number): number {
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const e = this.slots[slot]! - 1;
      if (e === -1) return 0;
      if (this.hashes[e] !== hash || this.lengths[e] !== end - start) continue;
      const s = this.starts[e]!;
      let k = 0;
      while (k < end - start && this.pool[s + k] === other.charCodeAt(start + k)) k++;
      if (k === end - start) return this.counts[e]!;
    }
  }

  /** Calls `visit` with each distinct term kept and its number of occurrences, in first-occurrence order. */
  eachCounted(visit: (term: string, count: number) => void): void {
    for (let e = 0; e < this.entries; e++) visit(this.termAt(e), this.counts[e]!);
  }

  /** The distinct terms whose hash `keep` admits (all by default), as strings, in first-occurrence order. */
  terms(keep: (hash: number) => boolean = () => true): string[] {
    const out: string[] = [];
    for (let e = 0; e < this.entries; e++) {
      if (keep(this.hashes[e]!)) out.push(this.termAt(e));
    }
    return out;
  }

  private termAt(e: number): string {
    const s = this.starts[e]!;
    return String.fromCharCode.apply(null, this.pool.subarray(s, s + this.lengths[e]!) as unknown as number[]);
  }

  /** One term of the text (forEachFoldedTerm calls it). */
  term(units: Uint16Array, length: number, hash: number): void {
    this.seen++;
    const found = this.find(units, length, hash);
    if (found !== -1) {
      this.counts[found]!++;
      return;
    }
    const r = hash & (REFUSED_SLOTS - 1);
    if (this.refusedSet[r] === 1 && this.refused[r] === hash) return;
    if (!this.worthKeeping(hash)) {
      this.refused[r] = hash;
      this.refusedSet[r] = 1;
      return;
    }
    if (this.entries === this.starts.length) this.grow();
    if (this.poolUsed + length > this.pool.length) {
      const pool = new Uint16Array(Math.max(this.pool.length * 2, this.poolUsed + length));
      pool.set(this.pool.subarray(0, this.poolUsed));
      this.pool = pool;
    }
    this.pool.set(units.subarray(0, length), this.poolUsed);
    const e = this.entries++;
    this.starts[e] = this.poolUsed;
    this.lengths[e] = length;
    this.counts[e] = 1;
    this.hashes[e] = hash;
    this.poolUsed += length;
    this.place(e);
  }

  private find(units: Uint16Array, length: number, hash: number): number {
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const e = this.slots[slot]! - 1;
      if (e === -1) return -1;
      if (this.hashes[e] !== hash || this.lengths[e] !== length) continue;
      const s = this.starts[e]!;
      let k = 0;
      while (k < length && this.pool[s + k] === units[k]) k++;
      if (k === length) return e;
    }
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
    this.lengths = copy(this.lengths, new Int32Array(size));
    this.counts = copy(this.counts, new Int32Array(size));
    this.hashes = copy(this.hashes, new Int32Array(size));
    this.slots = new Int32Array(size * 2);
    this.mask = size * 2 - 1;
    for (let e = 0; e < this.entries; e++) this.place(e);
  }
}
