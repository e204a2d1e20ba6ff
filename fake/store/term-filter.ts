import { hashUnits } from './terms.js';

/**
 * The 32-bit hashes (terms.ts hashUnits) of the terms an index holds, each with how many held
 * terms have it: "no" is certain, "maybe" is wrong only when an unknown term's hash equals a held
 * one's (about one in 2^32 per held term), and is checked against the postings anyway. It lets a
 * query's terms be tested for presence without making a string of each. A counting filter of
 * 16-bit slots by the hash's low bits answered "maybe" for a third of unknown words at 5,000
 * held terms, so a 4 MiB query of 600,000 unknown words still made 200,000 strings.
 */
export class TermFilter {
  /** Open addressing with linear probing: hashes, and their counts (0: empty slot). */
  private keys = new Int32Array(1 << 12);
  private counts = new Int32Array(1 << 12);
  private mask = (1 << 12) - 1;
  private used = 0;

  mightHold(hash: number): boolean {
    return this.counts[this.slotOf(hash)] !== 0;
  }

  added(term: string): void {
    const hash = hashUnits(term);
    const slot = this.slotOf(hash);
    if (this.counts[slot] !== 0) {
      this.counts[slot]!++;
      return;
    }
    this.keys[slot] = hash;
    this.counts[slot] = 1;
    if (++this.used * 2 > this.keys.length) this.resize(this.keys.length * 2);
  }

  removed(term: string): void {
    const slot = this.slotOf(hashUnits(term));
    if (this.counts[slot] === 0) return;
    if (--this.counts[slot]! === 0) this.vacate(slot);
  }

  clear(): void {
    this.keys = new Int32Array(1 << 12);
    this.counts = new Int32Array(1 << 12);
    this.mask = (1 << 12) - 1;
    this.used = 0;
  }

  /** Distinct hashes held (for tests). */
  get size(): number {
    return this.used;
  }

  /** The slot holding `hash`, or the empty slot where it would go. */
  private slotOf(hash: number): number {
    let slot = mix(hash) & this.mask;
    while (this.counts[slot] !== 0 && this.keys[slot] !== hash) slot = (slot + 1) & this.mask;
    return slot;
  }

  /** Empties a slot and moves later entries of its probe run back, so every lookup still finds them. */
  private vacate(slot: number): void {
    this.used--;
    let hole = slot;
    for (let next = (hole + 1) & this.mask; this.counts[next] !== 0; next = (next + 1) & this.mask) {
      const home = mix(this.keys[next]!) & this.mask;
      // It may move into the hole only if the hole lies on its probe path, from its home to it.
      if (((hole - home) & this.mask) > ((next - home) & this.mask)) continue;
      this.keys[hole] = this.keys[next]!;
      this.counts[hole] = this.counts[next]!;
      this.counts[next] = 0;
      hole = next;
    }
    this.counts[hole] = 0;
  }

  private resize(size: number): void {
    const { keys, counts } = this;
    this.keys = new Int32Array(size);
    this.counts = new Int32Array(size);
    this.mask = size - 1;
    for (let i = 0; i < keys.length; i++) {
      if (counts[i] === 0) continue;
      let slot = mix(keys[i]!) & this.mask;
      while (this.counts[slot] !== 0) slot = (slot + 1) & this.mask;
      this.keys[slot] = keys[i]!;
      this.counts[slot] = counts[i]!;
    }
  }
}

/** FNV-1a's low bits are weak for short terms: spread the hash before taking a slot. */
function mix(hash: number): number {
  const h = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
  return h ^ (h >>> 16);
}
