import { FEATURE, type NoteRecord, type UserRecord } from '../store/records.js';
import { everyInOrder, MergedWalk, type OrderedWalk } from '../store/sorted-index.js';
import type { ServiceContext } from './context.js';
import { decodeCursor, encodeCursor, filtersHash, pageOf } from './paging.js';
import { canSeeNote, notesSharedWith, requireCollection } from './permissions.js';
import type { OrderField, TimestampField } from './policy.js';
import { timestampField } from './time.js';
import { boolParam, checkUuid, enumParam, type Input, intParam } from './validate.js';
import { noteListItem, type View } from './views.js';

export interface TimeBounds {
  createdAfter?: number;
  createdBefore?: number;
  updatedAfter?: number;
  updatedBefore?: number;
}

/** Inclusive time bounds from created_after, created_before, updated_after, updated_before (offset required). */
export function readBounds(ctx: ServiceContext, input: Input, rule: TimestampField): TimeBounds {
  const field = (name: string) => timestampField(ctx, input, name, rule);
  const bounds: TimeBounds = {};
  const ca = field('created_after');
  if (ca !== undefined) bounds.createdAfter = ca;
  const cb = field('created_before');
  if (cb !== undefined) bounds.createdBefore = cb;
  const ua = field('updated_after');
  if (ua !== undefined) bounds.updatedAfter = ua;
  const ub = field('updated_before');
  if (ub !== undefined) bounds.updatedBefore = ub;
  return bounds;
}

/**
 * Whether a record lies within the inclusive bounds. The two flags serve the collection faults that
 * still ask for them (collections-query.ts); the notes list and search never pass them.
 */
export function withinBounds(
  record: { createdAt: number; updatedAt: number },
  b: TimeBounds,
  exclusive = false,
  updatedUsesCreated = false,
): boolean {
  const updated = updatedUsesCreated ? record.createdAt : record.updatedAt;
  return (
    isAfter(record.createdAt, b.createdAfter, exclusive) &&
    isBefore(record.createdAt, b.createdBefore, exclusive) &&
    isAfter(updated, b.updatedAfter, exclusive) &&
    isBefore(updated, b.updatedBefore, exclusive)
  );
}

// Module functions, not closures made per call: a list's total tests every note of the caller.
const isAfter = (v: number, bound: number | undefined, exclusive: boolean) =>
  bound === undefined || (exclusive ? v > bound : v >= bound);
const isBefore = (v: number, bound: number | undefined, exclusive: boolean) =>
  bound === undefined || (exclusive ? v < bound : v <= bound);

export interface ContainsFilter {
  bits: number;
  /** How many of the four filters are true (several combine with OR). */
  count: number;
}

export function readContains(input: Input, read: (field: string) => boolean): ContainsFilter {
  let bits = 0;
  let count = 0;
  const flags: Array<[string, number]> = [
    ['open_tasks', FEATURE.openTask],
    ['tasks', FEATURE.task],
    ['images', FEATURE.image],
    ['files', FEATURE.file],
  ];
  for (const [field, bit] of flags) {
    if (input[field] !== undefined && read(field)) {
      bits |= bit;
      count++;
    }
  }
  return { bits, count };
}

/** OR across the true filters: a note matches when it has any of the wanted features. */
export function matchesContains(features: number, filter: ContainsFilter): boolean {
  return filter.count === 0 || (features & filter.bits) !== 0;
}

/** What a page of GET /v2/notes is filtered and ordered by; a cursor is tied to it (see listFiltersKey). */
export interface ListFilters {
  orderBy: OrderField;
  bounds: TimeBounds;
  collectionId: string | undefined;
  contains: ContainsFilter;
}

/** order_by, the time bounds, the collection (access needed) and the contains filters, validated in that order. */
export function readListFilters(ctx: ServiceContext, user: UserRecord, query: Input): ListFilters {
  const orders = ['created_at', 'updated_at'] as const;
  const orderBy = enumParam(query.order_by, 'order_by', orders, ctx.policy.notesList.defaultOrder);
  const bounds = readBounds(ctx, query, 'notes.list.bounds');
  const collectionId =
    query.collection === undefined
      ? undefined
      : requireCollection(ctx, user, checkUuid(query.collection, 'collection'), 'access').id;
  const contains = readContains(query, (f) => boolParam(query[f], f));
  return { orderBy, bounds, collectionId, contains };
}

/** The hash a cursor carries: reused with other filters or another order_by it is refused. */
export function listFiltersKey(filters: ListFilters): string {
  return filtersHash({ ...filters, contains: filters.contains.bits });
}

/** The sort key of a note in the given order (what a cursor position holds). */
export function listKey(note: NoteRecord, orderBy: OrderField): number {
  return orderBy === 'created_at' ? note.createdAt : note.updatedAt;
}

/**
 * The notes a user's list walks, in list order: their own notes and the notes shared with them,
 * never every user's (a user with 10 notes paid for another's 100,000 for the list's total).
 */
function visibleInOrder(ctx: ServiceContext, user: UserRecord, orderBy: OrderField): OrderedWalk<NoteRecord> {
  const { store } = ctx;
  // Seam: a server that checks no ownership shows every user's notes: its list walks them all.
  if (ctx.broken('auth.scope.notes-unchecked')) return everyInOrder([...store.notes.values()], orderBy);
  const own = store.notesOf(user.id);
  const ownInOrder = orderBy === 'created_at' ? own.byCreated : own.byUpdated;
  const shared = notesSharedWith(ctx, user);
  if (shared.length === 0) return ownInOrder;
  const extra = shared.map((note) => ({ key: listKey(note, orderBy), item: note }));
  return new MergedWalk(ownInOrder, extra, (note) => note.id);
}

/** GET /v2/notes: the visible active notes matching the filters, a cursor page at a time; total counts them all. */
export function listNotes(ctx: ServiceContext, user: UserRecord, query: Input): View {
  const { max, fallback } = ctx.policy.notesList;
  const truncateFractions = !ctx.policy.refuseFractions;
  const limit = intParam(query.limit, 'limit', { min: 1, max, fallback, truncateFractions });
  const filters = readListFilters(ctx, user, query);
  const includeContent = boolParam(query.include_content, 'include_content');
  const key = listFiltersKey(filters);
  const after = query.cursor === undefined ? undefined : decodeCursor(String(query.cursor), key, true);

  const { orderBy, bounds, collectionId, contains } = filters;
  const index = visibleInOrder(ctx, user, orderBy);
  const matches = (note: NoteRecord): boolean => {
    return (
      note.trashedAt === null &&
      canSeeNote(ctx, user, note) &&
      (collectionId === undefined || note.collectionIds.has(collectionId)) &&
      withinBounds(note, bounds) &&
      matchesContains(note.features, contains)
    );
  };
  const keyOf = (note: NoteRecord) => listKey(note, orderBy);
  const page = pageOf(index, ctx.settings.newestFirst, after, limit, matches, keyOf);
  const view: View = {
    results: page.items.map((note) => noteListItem(ctx, note, includeContent)),
    total: page.total,
  };
  if (page.next) view.next_page = encodeCursor({ ...page.next, filters: key });
  return view;
}
