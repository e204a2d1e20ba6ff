import { invalid } from '../service/errors.js';
import { readBounds, withinBounds } from '../service/notes-list.js';
import { canSeeCollection } from '../service/permissions.js';
import { type Input, parseTimestamp } from '../service/validate.js';
import type { View } from '../service/views.js';
import type { FaultName } from './catalogue.js';
import type { FaultFactory } from './hooks.js';
import { after, around, before, fields, pretending, withFields, withQuery } from './support.js';

type Bound = 'created_after' | 'created_before' | 'updated_after' | 'updated_before';
type Instants = Partial<Record<Bound, number>>;
const BOUNDS: readonly Bound[] = ['created_after', 'created_before', 'updated_after', 'updated_before'];

/**
 * The time bounds of a request moved instant by instant (a broken server's reading of them). When a
 * bound is one the reference refuses, nothing moves: the reference refuses the request as it is.
 */
function movedBounds(input: Input, move: (bounds: Instants) => Instants): Record<Bound, string | undefined> | undefined {
  const bounds: Instants = {};
  for (const name of BOUNDS) {
    if (input[name] === undefined) continue;
    try {
      bounds[name] = parseTimestamp(input[name], name);
    } catch {
      return undefined;
    }
  }
  const moved = move(bounds);
  return Object.fromEntries(BOUNDS.map((name) => {
    const ms = moved[name];
    return [name, ms === undefined ? undefined : new Date(ms).toISOString()];
  })) as Record<Bound, string | undefined>;
}
/** Exclusive bounds: an instant exactly on a bound no longer matches (instants are whole milliseconds). */
const exclusive = (b: Instants): Instants =>
  Object.fromEntries(Object.entries(b).map(([name, ms]) => [name, name.endsWith('_after') ? ms + 1 : ms - 1]));
/** Update-time bounds compared with created_at: they join the creation-time bounds (the narrower one wins). */
const updatedAsCreated = (b: Instants): Instants => {
  const pick = (f: (...n: number[]) => number, x: number | undefined, y: number | undefined) =>
    (x === undefined ? y : y === undefined ? x : f(x, y));
  return {
    created_after: pick(Math.max, b.created_after, b.updated_after),
    created_before: pick(Math.min, b.created_before, b.updated_before),
  };
};
const listBounds = (move: (b: Instants) => Instants): FaultFactory => before('listCollections', (_ctx, call) => {
  const patch = movedBounds(call.query, move);
  return patch ? withQuery(call, patch) : call;
});
const isObject = (body: unknown) => body !== null && typeof body === 'object' && !Array.isArray(body);

export const COLLECTIONS_QUERY_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  // ---- list ----
  'collections.list.limit-max-off-by-one': () => ({ policy: { collectionsList: { max: 101 } } }),
  'collections.list.default-limit-20': () => ({ policy: { collectionsList: { fallback: 20 } } }),
  // Every operation that reads limit or offset takes the policy's answer (both lists, search, related notes).
  'collections.list.order-by-unvalidated': before('listCollections', (_ctx, call) => {
    const order = call.query.order_by;
    return order !== undefined && order !== 'created_at' ? withQuery(call, { order_by: 'updated_at' }) : call;
  }),
  'collections.list.order-by-ignored': before('listCollections', (_ctx, call) =>
    (call.query.order_by === 'created_at' ? withQuery(call, { order_by: 'updated_at' }) : call)),
  'collections.list.default-order-created-at': () => ({ policy: { collectionsList: { defaultOrder: 'created_at' } } }),
  'collections.list.order-reversed': around('listCollections', (next) => (ctx, call) =>
    pretending(ctx.settings as { newestFirst: boolean }, 'newestFirst', !ctx.settings.newestFirst, () => next(ctx, call))),
  'collections.list.bounds-exclusive': listBounds(exclusive),
  'collections.list.updated-bounds-use-created': listBounds(updatedAsCreated),
  'collections.list.cursor-filters-unchecked': () => ({ policy: { collectionCursorsCheckFilters: false } }),
  // next_page points one past the first collection of the next page. When that collection is the
  // last one, the list simply ends (the original handed out a cursor to an empty page): either way it is lost.
  'collections.list.cursor-skips-one': around('listCollections', (next) => (ctx, call) => {
    const view = next(ctx, call);
    if (typeof view.next_page !== 'string') return view;
    const skipped = next(ctx, withQuery(call, { cursor: view.next_page, limit: '1' }));
    return { ...view, next_page: skipped.next_page };
  }),
  'collections.list.total-is-page-size': after('listCollections', (_ctx, _call, view) =>
    ({ ...view, total: (view.results as View[]).length })),
  'collections.list.next-page-omitted-at-end': after('listCollections', (_ctx, _call, view) => {
    if (view.next_page !== null) return view;
    const { next_page: _omitted, ...rest } = view;
    return rest;
  }),

  // ---- search ----
  'collections.search.query-required': before('searchCollections', (_ctx, call) => {
    const body = call.body ?? {};
    if (isObject(body) && (body as Input).query === undefined) throw invalid('query is required');
    return call;
  }),
  'collections.search.bounds-exclusive': before('searchCollections', (_ctx, call) => {
    const patch = isObject(call.body) ? movedBounds(fields(call), exclusive) : undefined;
    return patch ? withFields(call, patch) : call;
  }),
  // The reference still checks the bounds (a bad one is refused); then they play no part.
  'collections.search.bounds-ignored': around('searchCollections', (next) => (ctx, call) => {
    const view = next(ctx, call);
    return isObject(call.body) ? next(ctx, withFields(call, Object.fromEntries(BOUNDS.map((b) => [b, undefined])))) : view;
  }),
  'collections.search.description-only': () => ({ policy: { collectionsSearch: { titleWeight: 0 } } }),
  'collections.search.total-counts-all': after('searchCollections', (ctx, call, view) => {
    const bounds = readBounds(ctx, fields(call), 'collections.search.bounds');
    let total = 0;
    for (const c of ctx.store.collections.values()) {
      if (canSeeCollection(ctx, call.user, c) && withinBounds(c, bounds, false)) total++;
    }
    return { ...view, total };
  }),
  'collections.search.next-page-returned': after('searchCollections', (_ctx, _call, view) =>
    ({ ...view, next_page: null })),
};
