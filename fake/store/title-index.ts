/**
 * Per-user index of active collection titles: user id -> lower-cased title -> collection ids, for
 * the collections the user owns or holds a grant on. Resolving `collection_titles` on note create
 * looks titles up here, so its cost depends on the caller's own collections and the number of
 * titles sent, not on other users' data. The store keeps it in step on every collection write.
 */
export class TitleIndex {
  private readonly byUser = new Map<string, Map<string, Set<string>>>();

  clear(): void {
    this.byUser.clear();
  }

  /** Ids of the collections titled `title` (case-insensitively) that the user can reach; do not modify. */
  lookup(userId: string, title: string): ReadonlySet<string> | undefined {
    return this.byUser.get(userId)?.get(title.toLowerCase());
  }

  add(userId: string, title: string, collectionId: string): void {
    let titles = this.byUser.get(userId);
    if (!titles) {
      titles = new Map();
      this.byUser.set(userId, titles);
    }
    const key = title.toLowerCase();
    let ids = titles.get(key);
    if (!ids) {
      ids = new Set();
      titles.set(key, ids);
    }
    ids.add(collectionId);
  }

  remove(userId: string, title: string, collectionId: string): void {
    const titles = this.byUser.get(userId);
    const key = title.toLowerCase();
    const ids = titles?.get(key);
    if (!titles || !ids) return;
    ids.delete(collectionId);
    if (ids.size === 0) titles.delete(key);
    if (titles.size === 0) this.byUser.delete(userId);
  }

  forgetUser(userId: string): void {
    this.byUser.delete(userId);
  }

  /** Entries over all users (for tests that check the index stays small). */
  get size(): number {
    let n = 0;
    for (const titles of this.byUser.values()) for (const ids of titles.values()) n += ids.size;
    return n;
  }
}
