/**
 * Ids kept sorted by (key, id) ascending: list pages start at a cursor position with a binary
 * search instead of sorting every note per request. New notes have the latest timestamps, so
 * inserts mostly append.
 */
export class SortedIndex {
  private keys: number[] = [];
  private ids: string[] = [];

  get size(): number {
    return this.ids.length;
  }

  clear(): void {
    this.keys = [];
    this.ids = [];
  }

  insert(key: number, id: string): void {
    const at = this.lowerBound(key, id);
    if (at === this.ids.length) {
      this.keys.push(key);
      this.ids.push(id);
    } else {
      this.keys.splice(at, 0, key);
      this.ids.splice(at, 0, id);
    }
  }

  remove(key: number, id: string): void {
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
  forEach(descending: boolean, after: { key: number; id: string } | undefined, visit: (id: string) => boolean | void): void {
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
}
