import { invalid } from '../service/errors.js';
import { readBounds, withinBounds } from '../service/notes-list.js';
import { canSeeCollection } from '../service/permissions.js';
import { type Input, parseTimestamp } from '../service/validate.js';
import type { View } from '../service/views.js';
import type { Fault, FaultFactory } from './hooks.js';
import { after, around, before, fields, pretending, withFields, withQuery } from './support.js';

type Bound = 'created_after' | 'created_before' | 'updated_after' | 'updated_before';
type Instants = Partial<Record<Bound, number>>;
const BOUNDS: readonly Bound[] = ['created_after', 'created_before', 'updated_after', 'updated_before'];

/**
 * The time bounds of a request moved instant by instant (a broken server's reading of them). When a
 * bound is one the reference refuses, nothing moves: the reference refuses the request as it is.
 */
function movedBounds(
  input: Input,
  move: (bounds: Instants) => Instants,
): Record<Bound, string | undefined> | undefined {
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
  return Object.fromEntries(
    BOUNDS.map((name) => {
      const ms = moved[name];
      return [name, ms === undefined ? undefined : new Date(ms).toISOString()];
    }),
  ) as Record<Bound, string | undefined>;
}
/** Exclusive bounds: an instant exactly on a bound no longer matches (instants are whole milliseconds). */
const exclusive = (b: Instants): Instants =>
  Object.fromEntries(Object.entries(b).map(([name, ms]) => [name, name.endsWith('_after') ? ms + 1 : ms - 1]));
/** Update-time bounds compared with created_at: they join the creation-time bounds (the narrower one wins). */
const updatedAsCreated = (b: Instants): Instants => {
  const pick = (f: (...n: number[]) => number, x: number | undefined, y: number | undefined) =>
    x === undefined ? y : y === undefined ? x : f(x, y);
  return {
    created_after: pick(Math.max, b.created_after, b.updated_after),
    created_before: pick(Math.min, b.created_before, b.updated_before),
  };
};
const listBounds = (move: (b: Instants) => Instants): FaultFactory =>
  before('listCollections', (_ctx, call) => {
    const patch = movedBounds(call.query, move);
    return patch ? withQuery(call, patch) : call;
  });
const isObject = (body: unknown) => body !== null && typeof body === 'object' && !Array.isArray(body);

export const COLLECTIONS_QUERY_FAULTS = {
  // ---- list ----
  'collections.list.limit-max-off-by-one': {
    rules: ['collections.list.limit-range'],
    does: 'collection limit 101 is accepted',
    hooks: () => ({ policy: { collectionsList: { max: 101 } } }),
  },
  'collections.list.default-limit-20': {
    rules: ['collections.list.limit-default-50'],
    does: 'the default collection page size is 20',
    hooks: () => ({ policy: { collectionsList: { fallback: 20 } } }),
  },
  // Every operation that reads limit or offset takes the policy's answer (both lists, search, related notes).
  'collections.list.order-by-unvalidated': {
    rules: ['collections.list.order-by-values'],
    does: 'an unknown order_by falls back to updated_at',
    hooks: before('listCollections', (_ctx, call) => {
      const order = call.query.order_by;
      return order !== undefined && order !== 'created_at' ? withQuery(call, { order_by: 'updated_at' }) : call;
    }),
  },
  'collections.list.order-by-ignored': {
    rules: ['collections.list.order-by-honoured'],
    does: 'order_by=created_at still orders by updated_at',
    hooks: before('listCollections', (_ctx, call) =>
      call.query.order_by === 'created_at' ? withQuery(call, { order_by: 'updated_at' }) : call,
    ),
  },
  'collections.list.default-order-created-at': {
    rules: ['collections.list.order-by-default-updated-at'],
    does: 'the default order is created_at',
    hooks: () => ({ policy: { collectionsList: { defaultOrder: 'created_at' } } }),
  },
  'collections.list.order-reversed': {
    rules: ['collections.list.order-direction'],
    does: 'the list runs opposite to the declared direction',
    hooks: around(
      'listCollections',
      (next) => (ctx, call) =>
        pretending(ctx.settings as { newestFirst: boolean }, 'newestFirst', !ctx.settings.newestFirst, () =>
          next(ctx, call),
        ),
    ),
  },
  'collections.list.bounds-exclusive': {
    rules: ['collections.list.bounds-inclusive'],
    does: 'bounds exclude a collection exactly on them',
    hooks: listBounds(exclusive),
  },
  'collections.list.updated-bounds-use-created': {
    rules: ['collections.list.bounds-filter'],
    does: 'updated bounds compare created_at',
    hooks: listBounds(updatedAsCreated),
  },
  'collections.list.cursor-filters-unchecked': {
    rules: ['collections.list.cursor-filter-mismatch'],
    does: 'a cursor reused with other filters is accepted',
    hooks: () => ({ policy: { collectionCursorsCheckFilters: false } }),
  },
  // next_page points one past the first collection of the next page. When that collection is the
  // last one, the list simply ends (the original handed out a cursor to an empty page): either way it is lost.
  'collections.list.cursor-skips-one': {
    rules: ['collections.list.cursor-pages'],
    does: 'next_page skips the first collection of the next page',
    hooks: around('listCollections', (next) => (ctx, call) => {
      const view = next(ctx, call);
      if (typeof view.next_page !== 'string') return view;
      const skipped = next(ctx, withQuery(call, { cursor: view.next_page, limit: '1' }));
      return { ...view, next_page: skipped.next_page };
    }),
  },
  'collections.list.total-is-page-size': {
    rules: ['collections.list.total-before-pagination'],
    does: 'total is the number of collections on the page',
    hooks: after('listCollections', (_ctx, _call, view) => ({ ...view, total: (view.results as View[]).length })),
  },
  'collections.list.next-page-omitted-at-end': {
    rules: ['collections.list.next-page-null-at-end'],
    does: 'the last page omits next_page instead of null',
    hooks: after('listCollections', (_ctx, _call, view) => {
      if (view.next_page !== null) return view;
      const { next_page: _omitted, ...rest } = view;
      return rest;
    }),
  },

  // ---- search ----
  'collections.search.query-required': {
    rules: ['collections.search.query-optional'],
    does: 'a search without query is refused',
    hooks: before('searchCollections', (_ctx, call) => {
      const body = call.body ?? {};
      if (isObject(body) && (body as Input).query === undefined) throw invalid('query is required');
      return call;
    }),
  },
  'collections.search.bounds-exclusive': {
    rules: ['collections.search.bounds-filter'],
    does: 'search bounds exclude a collection exactly on them',
    hooks: before('searchCollections', (_ctx, call) => {
      const patch = isObject(call.body) ? movedBounds(fields(call), exclusive) : undefined;
      return patch ? withFields(call, patch) : call;
    }),
  },
  // The reference still checks the bounds (a bad one is refused); then they play no part.
  'collections.search.bounds-ignored': {
    rules: ['collections.search.bounds-filter'],
    does: 'search bounds are ignored',
    hooks: around('searchCollections', (next) => (ctx, call) => {
      const view = next(ctx, call);
      return isObject(call.body)
        ? next(ctx, withFields(call, Object.fromEntries(BOUNDS.map((b) => [b, undefined]))))
        : view;
    }),
  },
  'collections.search.description-only': {
    rules: ['collections.search.finds-by-title'],
    does: 'only descriptions are searched',
    hooks: () => ({ policy: { collectionsSearch: { titleWeight: 0 } } }),
  },
  'collections.search.total-counts-all': {
    rules: ['collections.search.total-is-count'],
    does: 'total counts every visible collection',
    hooks: after('searchCollections', (ctx, call, view) => {
      const bounds = readBounds(ctx, fields(call), 'collections.search.bounds');
      let total = 0;
      for (const c of ctx.store.collections.values()) {
        if (canSeeCollection(ctx, call.user, c) && withinBounds(c, bounds, false)) total++;
      }
      return { ...view, total };
    }),
  },
  'collections.search.next-page-returned': {
    rules: ['collections.search.no-next-page'],
    does: 'responses carry next_page: null',
    hooks: after('searchCollections', (_ctx, _call, view) => ({ ...view, next_page: null })),
  },
} satisfies Record<string, Fault>;
