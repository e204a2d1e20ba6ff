/**
 * Ids kept sorted by (key, id) ascending: list pages start at a cursor position with a binary
 * search instead of sorting every note per request. New notes have the latest timestamps, so
 * inserts mostly append.
 */
export class SortedIndex {
  private keys: number[] = [];
  private ids: string[] = [];
  /**
   * Out-of-order inserts wait here until the next read and are then merged in one pass: seeding
   * 100,000 backdated notes inserted each in the middle of the arrays, a quadratic memmove.
   */
  private pendingKeys: number[] = [];
  private pendingIds: string[] = [];

  get size(): number {
    return this.ids.length + this.pendingIds.length;
  }

  clear(): void {
    this.keys = [];
    this.ids = [];
    this.pendingKeys = [];
    this.pendingIds = [];
  }

  insert(key: number, id: string): void {
    const last = this.ids.length - 1;
    if (
      this.pendingIds.length === 0 &&
      (last < 0 || this.keys[last]! < key || (this.keys[last] === key && this.ids[last]! < id))
    ) {
      this.keys.push(key);
      this.ids.push(id);
    } else {
      this.pendingKeys.push(key);
      this.pendingIds.push(id);
    }
  }

  remove(key: number, id: string): void {
    this.settle();
    const at = this.lowerBound(key, id);
    if (this.ids[at] !== id || this.keys[at] !== key) throw new Error(`sorted index out of sync for ${id}`);
    this.keys.splice(at, 1);
    this.ids.splice(at, 1);
  }

  move(oldKey: number, newKey: number, id: string): void {
    if (oldKey === newKey) return;
    this.remove(oldKey, id);
    this.insert(newKey, id);
  }

  /** First position whose (key, id) is >= the given pair. */
  lowerBound(key: number, id: string): number {
    this.settle();
    let lo = 0;
    let hi = this.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.keys[mid]!;
      if (k < key || (k === key && this.ids[mid]! < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Visits ids in ascending or descending order, strictly after the (key, id) pair when one is
   * given, until `visit` returns false. A callback rather than a generator: totals scan every id.
   */
  forEach(
    descending: boolean,
    after: { key: number; id: string } | undefined,
    // biome-ignore lint/suspicious/noConfusingVoidType: a visitor that returns nothing means "go on"
    visit: (id: string) => boolean | void,
  ): void {
    this.settle();
    const ids = this.ids;
    if (descending) {
      for (let i = after ? this.lowerBound(after.key, after.id) - 1 : ids.length - 1; i >= 0; i--) {
        if (visit(ids[i]!) === false) return;
      }
    } else {
      let i = 0;
      if (after) {
        i = this.lowerBound(after.key, after.id);
        if (ids[i] === after.id && this.keys[i] === after.key) i++;
      }
      for (; i < ids.length; i++) {
        if (visit(ids[i]!) === false) return;
      }
    }
  }

  /** Merges the pending inserts: one at a time when few, else sorted and merged in one pass. */
  private settle(): void {
    const pendingKeys = this.pendingKeys;
    const pendingIds = this.pendingIds;
    if (pendingIds.length === 0) return;
    this.pendingKeys = [];
    this.pendingIds = [];
    if (pendingIds.length <= 8) {
      pendingIds.forEach((id, p) => {
        const at = this.lowerBound(pendingKeys[p]!, id);
        this.keys.splice(at, 0, pendingKeys[p]!);
        this.ids.splice(at, 0, id);
      });
      return;
    }
    const order = Array.from(pendingIds.keys()).sort(
      (a, b) =>
        pendingKeys[a]! - pendingKeys[b]! ||
        (pendingIds[a]! < pendingIds[b]! ? -1 : pendingIds[a]! > pendingIds[b]! ? 1 : 0),
    );
    const keys: number[] = [];
    const ids: string[] = [];
    let i = 0;
    let j = 0;
    while (i < this.ids.length || j < order.length) {
      const p = order[j]!;
      const fromMain =
        j >= order.length ||
        (i < this.ids.length &&
          (this.keys[i]! < pendingKeys[p]! || (this.keys[i] === pendingKeys[p]! && this.ids[i]! < pendingIds[p]!)));
      if (fromMain) {
        keys.push(this.keys[i]!);
        ids.push(this.ids[i++]!);
      } else {
        keys.push(pendingKeys[p]!);
        ids.push(pendingIds[p]!);
        j++;
      }
    }
    this.keys = keys;
    this.ids = ids;
  }
}
