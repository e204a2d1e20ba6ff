import { hashUnits } from './terms.js';

/**
 * A counting filter of the terms an index holds, by hash: "no" is certain, "maybe" is checked
 * against the postings. It lets a query's terms be tested for presence without making a string
 * of each (a 4 MiB query of unknown words). Counts saturate (a saturated slot stays "maybe", which
 * is safe); the table grows with the number of terms so "maybe" stays rare.
 */
export class TermFilter {
  private counts = new Uint16Array(1 << 12);
  private terms = 0;

  constructor(private readonly everyTerm: () => Iterable<string>) {}

  mightHold(hash: number): boolean {
    return this.counts[hash & (this.counts.length - 1)] !== 0;
  }

  added(term: string): void {
    this.terms++;
    if (this.terms * 2 > this.counts.length) this.rebuild(this.counts.length * 4);
    else this.bump(hashUnits(term), 1);
  }

  removed(term: string): void {
    this.terms--;
    this.bump(hashUnits(term), -1);
  }

  clear(): void {
    this.counts = new Uint16Array(1 << 12);
    this.terms = 0;
  }

  private bump(hash: number, by: number): void {
    const slot = hash & (this.counts.length - 1);
    const count = this.counts[slot]!;
    if (count !== 0xffff) this.counts[slot] = count + by;
  }

  private rebuild(size: number): void {
    this.counts = new Uint16Array(size);
    for (const term of this.everyTerm()) this.bump(hashUnits(term), 1);
  }
}
