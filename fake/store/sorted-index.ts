/** How far back an insert looks for its place among equal keys before leaving it to the pending list. */
const TAIL_STEPS = 64;

/**
 * Records (or ids) kept sorted by (key, id) ascending: list pages start at a cursor position with a
 * binary search instead of sorting every note per request. New notes have the latest timestamps, so
 * inserts mostly append. The records themselves are held, not their ids: a list's total visits
 * every note of the caller, and looking each id up in the notes map cost a cache miss or two apiece.
 */
export class SortedIndex<T = string> {
  private keys: number[] = [];
  private items: T[] = [];
  /**
   * Out-of-order inserts wait here until the next read and are then merged in one pass: seeding
   * 100,000 backdated notes inserted each in the middle of the arrays, a quadratic memmove.
   */
  private pendingKeys: number[] = [];
  private pendingItems: T[] = [];

  /** `idOf` names an entry: entries with equal keys are ordered by it, and remove and move find it. */
  constructor(private readonly idOf: (item: T) => string = (item) => item as unknown as string) {}

  get size(): number {
    return this.items.length + this.pendingItems.length;
  }

  clear(): void {
    this.keys = [];
    this.items = [];
    this.pendingKeys = [];
    this.pendingItems = [];
  }

  insert(key: number, item: T): void {
    // Entries may join the sorted arrays while others wait: the merge on the next read is the same.
    const at = this.tailPosition(key, this.idOf(item));
    if (at === this.items.length) {
      this.keys.push(key);
      this.items.push(item);
    } else if (at !== -1) {
      this.keys.splice(at, 0, key);
      this.items.splice(at, 0, item);
    } else {
      this.pendingKeys.push(key);
      this.pendingItems.push(item);
    }
  }

  /**
   * Where (key, id) goes when it sorts among the last TAIL_STEPS entries, else -1. Notes created
   * in the same millisecond share a key and have random ids: they go among the tail of equal keys
   * instead of to the pending list the next read sorts (100,000 creates in a burst, 30 a
   * millisecond, left a 60 ms sort to the first list after them). Older keys and a long run of
   * equal keys (a clock that stands still) are left to the pending list.
   */
  private tailPosition(key: number, id: string): number {
    const { keys, items } = this;
    let at = keys.length;
    if (at > 0 && keys[at - 1]! > key) return -1;
    while (at > 0 && keys[at - 1] === key && this.idOf(items[at - 1]!) > id) {
      if (keys.length - at === TAIL_STEPS) return -1;
      at--;
    }
    return at;
  }

  /** Removes the entry (key, id) and answers it. */
  remove(key: number, id: string): T {
    this.settle();
    const at = this.lowerBound(key, id);
    const item = this.items[at];
    if (item === undefined || this.idOf(item) !== id || this.keys[at] !== key)
      throw new Error(`sorted index out of sync for ${id}`);
    this.keys.splice(at, 1);
    this.items.splice(at, 1);
    return item;
  }

  move(oldKey: number, newKey: number, id: string): void {
    if (oldKey === newKey) return;
    this.insert(newKey, this.remove(oldKey, id));
  }

  /** First position whose (key, id) is >= the given pair. */
  lowerBound(key: number, id: string): number {
    this.settle();
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.keys[mid]!;
      if (k < key || (k === key && this.idOf(this.items[mid]!) < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Visits entries in ascending or descending order, strictly after the (key, id) pair when one is
   * given, until `visit` returns false. A callback rather than a generator: totals scan every entry.
   */
  forEach(
    descending: boolean,
    after: { key: number; id: string } | undefined,
    // biome-ignore lint/suspicious/noConfusingVoidType: a visitor that returns nothing means "go on"
    visit: (item: T) => boolean | void,
  ): void {
    // startOf settles the pending inserts first (a merge replaces the arrays).
    const start = this.startOf(descending, after);
    const items = this.items;
    if (descending) {
      for (let i = start; i >= 0; i--) {
        if (visit(items[i]!) === false) return;
      }
    } else {
      for (let i = start; i < items.length; i++) {
        if (visit(items[i]!) === false) return;
      }
    }
  }

  /**
   * The position a walk starts at: the first entry strictly after the (key, id) pair in the walk's
   * direction (-1 or length when none), or the first or last entry without a pair.
   */
  startOf(descending: boolean, after: { key: number; id: string } | undefined): number {
    this.settle();
    const items = this.items;
    if (descending) return after ? this.lowerBound(after.key, after.id) - 1 : items.length - 1;
    if (!after) return 0;
    const i = this.lowerBound(after.key, after.id);
    return i < items.length && this.idOf(items[i]!) === after.id && this.keys[i] === after.key ? i + 1 : i;
  }

  /** The id of the entry at a position of `settled`. */
  idAt(i: number): string {
    return this.idOf(this.items[i]!);
  }

  /** Entries in order, for a walk from startOf (settled by it). */
  get settled(): { readonly keys: readonly number[]; readonly items: readonly T[] } {
    this.settle();
    return { keys: this.keys, items: this.items };
  }

  /** Merges the pending inserts: one at a time when few, else sorted and merged in one pass. */
  private settle(): void {
    const pendingKeys = this.pendingKeys;
    const pendingItems = this.pendingItems;
    if (pendingItems.length === 0) return;
    this.pendingKeys = [];
    this.pendingItems = [];
    const idOf = this.idOf;
    if (pendingItems.length <= 8) {
      pendingItems.forEach((item, p) => {
        const at = this.lowerBound(pendingKeys[p]!, idOf(item));
        this.keys.splice(at, 0, pendingKeys[p]!);
        this.items.splice(at, 0, item);
      });
      return;
    }
    const pendingIds = pendingItems.map(idOf);
    const order = Array.from(pendingIds.keys()).sort(
      (a, b) =>
        pendingKeys[a]! - pendingKeys[b]! ||
        (pendingIds[a]! < pendingIds[b]! ? -1 : pendingIds[a]! > pendingIds[b]! ? 1 : 0),
    );
    const keys: number[] = [];
    const items: T[] = [];
    let i = 0;
    let j = 0;
    while (i < this.items.length || j < order.length) {
      const p = order[j]!;
      const fromMain =
        j >= order.length ||
        (i < this.items.length &&
          (this.keys[i]! < pendingKeys[p]! ||
            (this.keys[i] === pendingKeys[p]! && idOf(this.items[i]!) < pendingIds[p]!)));
      if (fromMain) {
        keys.push(this.keys[i]!);
        items.push(this.items[i++]!);
      } else {
        keys.push(pendingKeys[p]!);
        items.push(pendingItems[p]!);
        j++;
      }
    }
    this.keys = keys;
    this.items = items;
  }
}

/** What a page walks: a SortedIndex, or one merged with a few more entries (MergedWalk). */
export interface OrderedWalk<T> {
  forEach(
    descending: boolean,
    after: { key: number; id: string } | undefined,
    // biome-ignore lint/suspicious/noConfusingVoidType: a visitor that returns nothing means "go on"
    visit: (item: T) => boolean | void,
  ): void;
}

/**
 * A SortedIndex and a few more entries walked as one index, in the same (key, id) order: a user's
 * own notes and the notes of other owners shared with them. The extra entries must not be in the
 * index; they are sorted once here.
 */
export class MergedWalk<T> implements OrderedWalk<T> {
  private readonly extraKeys: number[];
  private readonly extraIds: string[];
  private readonly extraItems: T[];

  constructor(
    private readonly index: SortedIndex<T>,
    extra: ReadonlyArray<{ key: number; item: T }>,
    idOf: (item: T) => string,
  ) {
    const entries = extra.map(({ key, item }) => ({ key, id: idOf(item), item }));
    entries.sort((a, b) => a.key - b.key || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.extraKeys = entries.map((e) => e.key);
    this.extraIds = entries.map((e) => e.id);
    this.extraItems = entries.map((e) => e.item);
  }

  forEach(
    descending: boolean,
    after: { key: number; id: string } | undefined,
    // biome-ignore lint/suspicious/noConfusingVoidType: a visitor that returns nothing means "go on"
    visit: (item: T) => boolean | void,
  ): void {
    let i = this.index.startOf(descending, after);
    const { keys, items } = this.index.settled;
    const { extraKeys, extraIds, extraItems } = this;
    const n = extraItems.length;
    // (key, id) of main entry i before extra entry j.
    const mainFirst = (i: number, j: number) => before(keys[i]!, this.index.idAt(i), extraKeys[j]!, extraIds[j]!);
    if (descending) {
      let j = n - 1;
      if (after) while (j >= 0 && !before(extraKeys[j]!, extraIds[j]!, after.key, after.id)) j--;
      while (i >= 0 || j >= 0) {
        const fromMain = j < 0 || (i >= 0 && !mainFirst(i, j));
        if (visit(fromMain ? items[i--]! : extraItems[j--]!) === false) return;
      }
    } else {
      let j = 0;
      if (after) while (j < n && !before(after.key, after.id, extraKeys[j]!, extraIds[j]!)) j++;
      while (i < items.length || j < n) {
        const fromMain = j >= n || (i < items.length && mainFirst(i, j));
        if (visit(fromMain ? items[i++]! : extraItems[j++]!) === false) return;
      }
    }
  }
}

/** Whether (key, id) sorts before (otherKey, otherId). */
const before = (key: number, id: string, otherKey: number, otherId: string) =>
  key < otherKey || (key === otherKey && id < otherId);

/** Every record in list order, sorted on the spot: for the seams that check no ownership (faults only). */
export function everyInOrder<T extends { id: string; createdAt: number; updatedAt: number }>(
  records: readonly T[],
  orderBy: 'created_at' | 'updated_at',
): OrderedWalk<T> {
  const extra = records.map((item) => ({ key: orderBy === 'created_at' ? item.createdAt : item.updatedAt, item }));
  return new MergedWalk(new SortedIndex<T>((r) => r.id), extra, (r) => r.id);
}
