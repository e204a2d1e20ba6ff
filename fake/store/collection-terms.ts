import type { CollectionRecord } from './records.js';
import type { TermTable } from './term-table.js';
import { forEachTermSpan, hashUnits } from './terms.js';

/** How a term's two counts share one number: title count << 16 | description count (at most 500 and 5,000). */
const TITLE_SHIFT = 16;
const DESCRIPTION_MASK = 0xffff;

/**
 * The distinct terms of one collection's title and description: their hashes, both counts, and
 * where each first occurs in the lower-cased texts (to tell a term from another of the same hash).
 */
interface CollectionTerms {
  /** The texts the terms were read from (compared on refresh). */
  readonly title: string;
  readonly description: string | null;
  readonly lowerTitle: string;
  readonly lowerDescription: string;
  readonly hashes: Int32Array;
  readonly counts: Int32Array;
  /** First occurrence: start x 2 + 1 when in the description, and the length in units. */
  readonly places: Int32Array;
  readonly lengths: Uint8Array;
}

/**
 * The terms of every collection's title and description, read once when the text is written
 * instead of on every search: collection search lower-cased and scanned every visible text for
 * each request (11 MB with 1,000 collections of 11,000 characters). A search now looks each
 * visible collection's distinct terms up in the query's table. An inverted index by term string
 * was tried and dropped: it held 360 MiB for those 1,000 collections (2,000,000 distinct words)
 * and took 8 ms a create; these arrays take about 16 bytes a distinct term. The store reads a
 * collection's terms when it is created or its title or description is set, and forgets them when
 * it is deleted; `refresh`, which search calls on the visible collections, reads again those whose
 * texts changed otherwise (faults set a description on the record directly).
 */
export class CollectionTermIndex {
  private readonly byId = new Map<string, CollectionTerms>();

  clear(): void {
    this.byId.clear();
  }

  /** Reads the terms of the collections not read yet and of those whose title or description changed. */
  refresh(collections: Iterable<CollectionRecord>): void {
    for (const c of collections) {
      const known = this.byId.get(c.id);
      if (known && known.title === c.title && known.description === c.description) continue;
      this.byId.set(c.id, readTerms(c.title, c.description));
    }
  }

  forget(collectionId: string): void {
    this.byId.delete(collectionId);
  }

  /** How many distinct terms the collections hold together (all refreshed). */
  distinctTerms(collections: readonly CollectionRecord[]): number {
    let n = 0;
    for (const c of collections) n += this.byId.get(c.id)!.hashes.length;
    return n;
  }

  /** Membership test of the collections' term hashes (false is certain), for a query longer than their texts. */
  hashFilter(collections: readonly CollectionRecord[]): (hash: number) => boolean {
    let bits = 1 << 10;
    const terms = this.distinctTerms(collections);
    while (bits < terms * 8 && bits < 1 << 27) bits *= 2;
    const words = new Uint32Array(bits >>> 5);
    const mask = bits - 1;
    for (const c of collections)
      for (const hash of this.byId.get(c.id)!.hashes) words[(hash & mask) >>> 5]! |= 1 << (hash & 31);
    return (hash) => (words[(hash & mask) >>> 5]! & (1 << (hash & 31))) !== 0;
  }

  /**
   * The score of each of `visible` (all refreshed) with a positive one: the sum over each distinct
   * term of its title and description counts, weighted, times its count in the query. With integer
   * weights every sum is exact, so it equals the sum occurrence by occurrence that a scan made.
   */
  score(
    visible: readonly CollectionRecord[],
    query: TermTable,
    titleWeight: number,
    descriptionWeight: number,
  ): Array<{ c: CollectionRecord; score: number }> {
    const out: Array<{ c: CollectionRecord; score: number }> = [];
    for (const c of visible) {
      const t = this.byId.get(c.id)!;
      let score = 0;
      for (let i = 0; i < t.hashes.length; i++) {
        const place = t.places[i]!;
        const text = (place & 1) === 1 ? t.lowerDescription : t.lowerTitle;
        const start = place >>> 1;
        const n = query.countOfHashed(text, start, start + t.lengths[i]!, t.hashes[i]!);
        if (n === 0) continue;
        const counts = t.counts[i]!;
        score += n * (titleWeight * (counts >>> TITLE_SHIFT) + descriptionWeight * (counts & DESCRIPTION_MASK));
      }
      if (score > 0) out.push({ c, score });
    }
    return out;
  }
}

function readTerms(title: string, description: string | null): CollectionTerms {
  const lowerTitle = title.toLowerCase();
  const lowerDescription = (description ?? '').toLowerCase();
  const found = new Map<string, number>();
  const hashes: number[] = [];
  const counts: number[] = [];
  const places: number[] = [];
  const lengths: number[] = [];
  const read = (lower: string, field: 0 | 1, weight: number) =>
    forEachTermSpan(lower, (start, end) => {
      const term = lower.slice(start, end);
      const at = found.get(term);
      if (at !== undefined) {
        counts[at]! += weight;
        return;
      }
      found.set(term, hashes.length);
      hashes.push(hashUnits(lower, start, end));
      counts.push(weight);
      places.push(start * 2 + field);
      lengths.push(end - start);
    });
  read(lowerTitle, 0, 1 << TITLE_SHIFT);
  read(lowerDescription, 1, 1);
  return {
    title,
    description,
    lowerTitle,
    lowerDescription,
    hashes: Int32Array.from(hashes),
    counts: Int32Array.from(counts),
    places: Int32Array.from(places),
    lengths: Uint8Array.from(lengths),
  };
}
