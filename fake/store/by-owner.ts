import { SortedIndex } from './sorted-index.js';

/** One owner's records in both list orders. */
export interface OwnerOrders<T> {
  readonly byCreated: SortedIndex<T>;
  readonly byUpdated: SortedIndex<T>;
}

interface Owned {
  readonly id: string;
  readonly ownerId: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

const idOf = (record: { readonly id: string }) => record.id;

/**
 * Records (notes, collections) in list order per owner, beside the store's global orders: a
 * user's list or search walks their own records and the few shared with them, so its cost does
 * not grow with what other users hold. The caller files a record under its current owner and
 * moves it here before changing its timestamps.
 */
export class ByOwner<T extends Owned> {
  private readonly owners = new Map<string, OwnerOrders<T>>();
  /** What an owner without records walks (never written to). */
  private readonly none: OwnerOrders<T> = { byCreated: new SortedIndex<T>(idOf), byUpdated: new SortedIndex<T>(idOf) };

  of(ownerId: string): OwnerOrders<T> {
    return this.owners.get(ownerId) ?? this.none;
  }

  file(record: T): void {
    let own = this.owners.get(record.ownerId);
    if (!own) {
      own = { byCreated: new SortedIndex<T>(idOf), byUpdated: new SortedIndex<T>(idOf) };
      this.owners.set(record.ownerId, own);
    }
    own.byCreated.insert(record.createdAt, record);
    own.byUpdated.insert(record.updatedAt, record);
  }

  unfile(record: T): void {
    const own = this.owners.get(record.ownerId);
    if (!own) return;
    own.byCreated.remove(record.createdAt, record.id);
    own.byUpdated.remove(record.updatedAt, record.id);
    if (own.byCreated.size === 0) this.owners.delete(record.ownerId);
  }

  /** Before the record's createdAt becomes `to`. */
  moveCreated(record: T, to: number): void {
    this.owners.get(record.ownerId)?.byCreated.move(record.createdAt, to, record.id);
  }

  /** Before the record's updatedAt becomes `to`. */
  moveUpdated(record: T, to: number): void {
    this.owners.get(record.ownerId)?.byUpdated.move(record.updatedAt, to, record.id);
  }

  clear(): void {
    this.owners.clear();
  }
}
