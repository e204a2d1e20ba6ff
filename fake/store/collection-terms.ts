import type { CollectionRecord } from './records.js';
import type { TermTable } from './term-table.js';
import { hashUnits, tokenize } from './terms.js';

/** How a term's two counts share one number: title count << 16 | description count (at most 500 and 5,000). */
const TITLE_SHIFT = 16;
const DESCRIPTION_MASK = 0xffff;

/**
 * The distinct terms of one collection's title and description: their text, one after another
 * with a space between, and per term its length, hash (terms.ts hashUnits) and both counts. A
 * string per term held 67 MiB for 1,000 collections of 11,000 characters, this 23 (the packed
 * offsets into the lower-cased texts it replaces: 19).
 */
interface CollectionTerms {
  /** The texts the terms were read from (compared on refresh). */
  readonly title: string;
  readonly description: string | null;
  readonly terms: string;
  readonly lengths: Uint8Array;
  readonly hashes: Int32Array;
  readonly counts: Int32Array;
}

/**
 * The terms of every collection's title and description, read once when the text is written
 * instead of on every search (collection search lower-cased and scanned every visible text for
 * each request: 11 MB with 1,000 collections of 11,000 characters). The store reads a
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

  /**
   * The score of each of `visible` (all refreshed) with a positive one: the sum over each distinct
   * term of its title and description counts, weighted, times its count in the query.
   * With integer weights every sum is exact, so it equals the sum occurrence by occurrence that a
   * scan made.
   */
  score(
    visible: readonly CollectionRecord[],
    query: TermTable,
    titleWeight: number,
    descriptionWeight: number,
  ): Array<{ c: CollectionRecord; score: number }> {
    const out: Array<{ c: CollectionRecord; score: number }> = [];
    for (const c of visible) {
      const { terms, lengths, hashes, counts } = this.byId.get(c.id)!;
      let score = 0;
      for (let i = 0, start = 0; i < lengths.length; start += lengths[i++]! + 1) {
        const n = query.countOfSpan(terms, start, start + lengths[i]!, hashes[i]!);
        if (n === 0) continue;
        score += n * (titleWeight * (counts[i]! >>> TITLE_SHIFT) + descriptionWeight * (counts[i]! & DESCRIPTION_MASK));
      }
      if (score > 0) out.push({ c, score });
    }
    return out;
  }
}

function readTerms(title: string, description: string | null): CollectionTerms {
  const counts = new Map<string, number>();
  for (const term of tokenize(title)) counts.set(term, (counts.get(term) ?? 0) + (1 << TITLE_SHIFT));
  for (const term of tokenize(description ?? '')) counts.set(term, (counts.get(term) ?? 0) + 1);
  const terms = [...counts.keys()];
  return {
    title,
    description,
    terms: terms.join(' '),
    lengths: Uint8Array.from(terms, (t) => t.length),
    // Kept so that a search does not hash every term of every visible collection again.
    hashes: Int32Array.from(terms, (t) => hashUnits(t)),
    counts: Int32Array.from(counts.values()),
  };
}
