import { findPosting, insertPosting, internalised, type Postings, pairsOf, removePosting } from './postings.js';
import type { CollectionRecord } from './records.js';
import { TermFilter } from './term-filter.js';
import { termCounts } from './terms.js';

/** How a posting holds both counts: title count << 16 | description count (at most 500 and 5,000). */
const TITLE_SHIFT = 16;
const DESCRIPTION_MASK = 0xffff;

interface Indexed {
  readonly handle: number;
  readonly owner: string;
  /** The texts the postings were made from (compared by identity, then by value, on refresh). */
  title: string;
  description: string | null;
}

/**
 * An inverted index of collection titles and descriptions, partitioned by owner: term -> pairs
 * (collection handle, title and description counts). Collection search scored every visible
 * collection by scanning its text against the query (1,000 collections of 11,000 characters: 11
 * MB a request); from the index its cost is the postings of the query's terms. The store indexes
 * a collection when it is created or its title or description is set, and forgets it when it is
 * deleted; `refresh`, which search calls on the visible collections, re-indexes one whose texts are
 * not what they were indexed with (faults set a description on the record directly).
 */
export class CollectionTermIndex {
  private readonly owners = new Map<string, Map<string, Postings>>();
  private readonly indexed = new Map<string, Indexed>();
  /** Handle -> collection, and handles free for reuse. */
  private readonly collections: (CollectionRecord | undefined)[] = [];
  private readonly free: number[] = [];
  private readonly filter = new TermFilter();
  /** Scratch by handle: visible marks and scores, zero between calls. */
  private marks = new Uint8Array(64);
  private scores = new Float64Array(64);

  clear(): void {
    this.owners.clear();
    this.indexed.clear();
    this.collections.length = 0;
    this.free.length = 0;
    this.filter.clear();
  }

  /** Whether some indexed collection may hold a term of this hash (terms.ts hashUnits); false is certain. */
  mightHold(hash: number): boolean {
    return this.filter.mightHold(hash);
  }

  /** Indexes the collections not indexed yet and those whose title or description changed. */
  refresh(collections: Iterable<CollectionRecord>): void {
    for (const c of collections) {
      const entry = this.indexed.get(c.id);
      if (entry && entry.title === c.title && entry.description === c.description) continue;
      if (entry) this.post(entry, -1);
      const fresh: Indexed = entry ?? { handle: this.handleFor(c), owner: c.ownerId, title: '', description: null };
      fresh.title = c.title;
      fresh.description = c.description;
      this.indexed.set(c.id, fresh);
      this.post(fresh, 1);
    }
  }

  forget(collectionId: string): void {
    const entry = this.indexed.get(collectionId);
    if (!entry) return;
    this.post(entry, -1);
    this.indexed.delete(collectionId);
    this.collections[entry.handle] = undefined;
    this.free.push(entry.handle);
  }

  /**
   * The score of each of `visible` (all refreshed) with a positive one: the sum over the query's
   * terms of their count in the query times the weighted counts in the title and description.
   * With integer weights every sum is exact, so it equals a scan of the texts term by term.
   */
  score(
    visible: readonly CollectionRecord[],
    queryTerms: Iterable<readonly [term: string, count: number]>,
    titleWeight: number,
    descriptionWeight: number,
  ): Array<{ c: CollectionRecord; score: number }> {
    const { marks, scores } = this;
    const owners = new Set<string>();
    for (const c of visible) {
      marks[this.indexed.get(c.id)!.handle] = 1;
      owners.add(c.ownerId);
    }
    const partitions = [...owners].flatMap((o) => this.owners.get(o) ?? []);
    for (const [term, count] of queryTerms) {
      for (const postings of partitions) {
        const list = postings.get(term);
        if (!list) continue;
        const pairs = pairsOf(list);
        for (let i = 0; i < list.length; i += 2) {
          const handle = pairs[i]!;
          if (marks[handle] === 0) continue;
          const counts = pairs[i + 1]!;
          scores[handle]! +=
            count * (titleWeight * (counts >>> TITLE_SHIFT) + descriptionWeight * (counts & DESCRIPTION_MASK));
        }
      }
    }
    const out: Array<{ c: CollectionRecord; score: number }> = [];
    for (const c of visible) {
      const handle = this.indexed.get(c.id)!.handle;
      if (scores[handle]! > 0) out.push({ c, score: scores[handle]! });
      marks[handle] = 0;
      scores[handle] = 0;
    }
    return out;
  }

  private handleFor(c: CollectionRecord): number {
    const handle = this.free.pop() ?? this.collections.length;
    this.collections[handle] = c;
    if (handle >= this.marks.length) {
      const size = this.marks.length * 2;
      const marks = new Uint8Array(size);
      marks.set(this.marks);
      this.marks = marks;
      const scores = new Float64Array(size);
      scores.set(this.scores);
      this.scores = scores;
    }
    return handle;
  }

  /** Adds (+1) or removes (-1) the postings of an entry's texts. */
  private post(entry: Indexed, sign: 1 | -1): void {
    const counts = new Map<string, number>();
    for (const [term, n] of termCounts(entry.title)) counts.set(term, n << TITLE_SHIFT);
    if (entry.description !== null)
      for (const [term, n] of termCounts(entry.description)) counts.set(term, (counts.get(term) ?? 0) + n);
    let postings = this.owners.get(entry.owner);
    if (!postings) {
      postings = new Map();
      this.owners.set(entry.owner, postings);
    }
    for (const [term, packed] of counts) {
      const list = postings.get(term);
      if (sign === 1) {
        const grown = insertPosting(list ?? [], entry.handle, packed);
        if (grown !== list) postings.set(list ? term : internalised(term), grown);
        if (!list) this.filter.added(term);
        continue;
      }
      const at = list ? findPosting(list, entry.handle) : -1;
      if (list && at !== -1 && removePosting(list, at) === 0) {
        postings.delete(term);
        this.filter.removed(term);
      }
    }
    if (postings.size === 0) this.owners.delete(entry.owner);
  }
}
