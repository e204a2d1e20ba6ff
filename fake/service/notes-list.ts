import { FEATURE, type NoteRecord, type UserRecord } from '../store/records.js';
import type { ServiceContext } from './context.js';
import type { TimestampField } from './policy.js';
import { canSeeNote, requireCollection } from './permissions.js';
import { decodeCursor, encodeCursor, filtersHash, pageOf } from './paging.js';
import { timestampField } from './time.js';
import { type Input, boolParam, checkUuid, enumParam, intParam } from './validate.js';
import { type View, noteListItem } from './views.js';

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
  const ca = field('created_after'); if (ca !== undefined) bounds.createdAfter = ca;
  const cb = field('created_before'); if (cb !== undefined) bounds.createdBefore = cb;
  const ua = field('updated_after'); if (ua !== undefined) bounds.updatedAfter = ua;
  const ub = field('updated_before'); if (ub !== undefined) bounds.updatedBefore = ub;
  return bounds;
}

export function withinBounds(record: { createdAt: number; updatedAt: number }, b: TimeBounds, exclusive: boolean, updatedUsesCreated = false): boolean {
  const updated = updatedUsesCreated ? record.createdAt : record.updatedAt;
  const after = (v: number, bound: number | undefined) => bound === undefined || (exclusive ? v > bound : v >= bound);
  const before = (v: number, bound: number | undefined) => bound === undefined || (exclusive ? v < bound : v <= bound);
  return after(record.createdAt, b.createdAfter) && before(record.createdAt, b.createdBefore)
    && after(updated, b.updatedAfter) && before(updated, b.updatedBefore);
}

export interface ContainsFilter {
  bits: number;
  /** How many of the four filters are true (several combine with OR). */
  count: number;
}

export function readContains(input: Input, read: (field: string) => boolean): ContainsFilter {
  let bits = 0;
  let count = 0;
  const flags: Array<[string, number]> = [['open_tasks', FEATURE.openTask], ['tasks', FEATURE.task], ['images', FEATURE.image], ['files', FEATURE.file]];
  for (const [field, bit] of flags) {
    if (input[field] !== undefined && read(field)) {
      bits |= bit;
      count++;
    }
  }
  return { bits, count };
}

/** OR across the true filters (AND when the instance is broken that way). */
export function matchesContains(features: number, filter: ContainsFilter, and: boolean, openMeansAny: boolean): boolean {
  if (filter.count === 0) return true;
  let wanted = filter.bits;
  if (openMeansAny && wanted & FEATURE.openTask) wanted = (wanted & ~FEATURE.openTask) | FEATURE.task;
  return and ? (features & wanted) === wanted : (features & wanted) !== 0;
}

/** GET /v2/notes */
export function listNotes(ctx: ServiceContext, user: UserRecord, query: Input): View {
  const limit = intParam(query.limit, 'limit', {
    min: 1,
    max: ctx.broken('notes.list.limit-max-off-by-one') ? 101 : 100,
    fallback: ctx.broken('notes.list.default-limit-20') ? 20 : 50,
    truncateFractions: ctx.broken('limits.fractions-truncated'),
  });
  let orderBy = ctx.broken('notes.list.order-by-unvalidated') && query.order_by !== undefined && query.order_by !== 'created_at'
    ? 'updated_at'
    : enumParam(query.order_by, 'order_by', ['created_at', 'updated_at'] as const, ctx.broken('notes.list.default-order-created-at') ? 'created_at' : 'updated_at');
  if (ctx.broken('notes.list.order-by-ignored')) orderBy = 'updated_at';
  const bounds = readBounds(ctx, query, 'notes.list.bounds');
  const collectionId = query.collection === undefined || ctx.broken('notes.list.collection-filter-ignored')
    ? undefined
    : requireCollection(ctx, user, checkUuid(query.collection, 'collection'), 'access').id;
  const contains = readContains(query, (f) => boolParam(query[f], f));
  const includeContent = ctx.broken('notes.list.content-always') || (boolParam(query.include_content, 'include_content') && !ctx.broken('notes.list.include-content-ignored'));

  const filters = filtersHash({ orderBy, bounds, collectionId, contains: contains.bits });
  const after = query.cursor === undefined ? undefined
    : decodeCursor(String(query.cursor), filters, !ctx.broken('notes.list.cursor-filters-unchecked'));

  const index = orderBy === 'created_at' ? ctx.store.notesByCreated : ctx.store.notesByUpdated;
  const newestFirst = ctx.broken('notes.list.order-reversed') ? !ctx.settings.newestFirst : ctx.settings.newestFirst;
  const allUsers = ctx.broken('auth.scope.list-shows-all-users');
  const exclusive = ctx.broken('notes.list.bounds-exclusive');
  const updatedUsesCreated = ctx.broken('notes.list.updated-bounds-use-created');
  const and = ctx.broken('notes.list.contains-and');
  const openMeansAny = ctx.broken('notes.list.open-tasks-matches-any-task');
  const matches = (id: string): boolean => {
    const note = ctx.store.notes.get(id)!;
    return note.trashedAt === null
      && (allUsers || (ctx.broken('auth.scope.list-hides-shared') ? note.ownerId === user.id : canSeeNote(ctx, user, note)))
      && (collectionId === undefined || note.collectionIds.has(collectionId))
      && withinBounds(note, bounds, exclusive, updatedUsesCreated)
      && matchesContains(note.features, contains, and, openMeansAny);
  };
  const keyOf = (id: string) => {
    const note = ctx.store.notes.get(id)!;
    return orderBy === 'created_at' ? note.createdAt : note.updatedAt;
  };
  const page = pageOf(index, newestFirst, after, limit, matches, keyOf);
  let next = page.next;
  if (next && ctx.broken('notes.list.cursor-skips-one')) {
    // Off by one: the cursor points one past the last item shown.
    const skipped = pageOf(index, newestFirst, next, 1, matches, keyOf).ids[0];
    if (skipped !== undefined) next = { key: keyOf(skipped), id: skipped };
  }
  const view: View = {
    results: page.ids.map((id) => noteListItem(ctx, ctx.store.notes.get(id) as NoteRecord, includeContent)),
    total: ctx.broken('notes.list.total-is-page-size') ? page.ids.length : page.total,
  };
  if (next) view.next_page = encodeCursor({ ...next, filters });
  else if (ctx.broken('notes.list.next-page-null-at-end')) view.next_page = null;
  return view;
}
