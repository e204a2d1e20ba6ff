import type { CollectionRecord, UserRecord } from '../store/records.js';
import { tokenize } from '../store/search-index.js';
import type { ServiceContext } from './context.js';
import { invalid } from './errors.js';
import { readBounds, withinBounds } from './notes-list.js';
import { canSeeCollection } from './permissions.js';
import { decodeCursor, encodeCursor, filtersHash, pageOf } from './paging.js';
import { type Input, checkString, enumParam, intParam, requireObject } from './validate.js';
import { type View, collectionView } from './views.js';

const SEARCH_RESULTS_MAX = 50;

/** GET /v2/collections: cursor-paginated; next_page is null at the end. */
export function listCollections(ctx: ServiceContext, user: UserRecord, query: Input): View {
  const limit = intParam(query.limit, 'limit', {
    min: 1,
    max: ctx.broken('collections.list.limit-max-off-by-one') ? 101 : 100,
    fallback: ctx.broken('collections.list.default-limit-20') ? 20 : 50,
    truncateFractions: ctx.broken('limits.fractions-truncated'),
  });
  let orderBy = ctx.broken('collections.list.order-by-unvalidated') && query.order_by !== undefined && query.order_by !== 'created_at'
    ? 'updated_at'
    : enumParam(query.order_by, 'order_by', ['created_at', 'updated_at'] as const, ctx.broken('collections.list.default-order-created-at') ? 'created_at' : 'updated_at');
  if (ctx.broken('collections.list.order-by-ignored')) orderBy = 'updated_at';
  const bounds = readBounds(ctx, query, 'collections.list.bounds');
  const filters = filtersHash({ orderBy, bounds });
  const after = query.cursor === undefined ? undefined
    : decodeCursor(String(query.cursor), filters, !ctx.broken('collections.list.cursor-filters-unchecked'));
  const index = orderBy === 'created_at' ? ctx.store.collectionsByCreated : ctx.store.collectionsByUpdated;
  const exclusive = ctx.broken('collections.list.bounds-exclusive');
  const updatedUsesCreated = ctx.broken('collections.list.updated-bounds-use-created');
  const matches = (id: string): boolean => {
    const c = ctx.store.collections.get(id)!;
    return canSeeCollection(ctx, user, c) && withinBounds(c, bounds, exclusive, updatedUsesCreated);
  };
  const keyOf = (id: string) => {
    const c = ctx.store.collections.get(id)!;
    return orderBy === 'created_at' ? c.createdAt : c.updatedAt;
  };
  const newestFirst = ctx.broken('collections.list.order-reversed') ? !ctx.settings.newestFirst : ctx.settings.newestFirst;
  const page = pageOf(index, newestFirst, after, limit, matches, keyOf);
  let next = page.next;
  if (next && ctx.broken('collections.list.cursor-skips-one')) {
    const skipped = pageOf(index, newestFirst, next, 1, matches, keyOf).ids[0];
    if (skipped !== undefined) next = { key: keyOf(skipped), id: skipped };
  }
  const view: View = {
    results: page.ids.map((id) => collectionView(ctx, ctx.store.collections.get(id)!, true)),
    total: ctx.broken('collections.list.total-is-page-size') ? page.ids.length : page.total,
    next_page: next ? encodeCursor({ ...next, filters }) : null,
  };
  if (!next && ctx.broken('collections.list.next-page-omitted-at-end')) delete view.next_page;
  return view;
}

/**
 * POST /v2/collections/search: free-text relevance over title (weighted) and description; with
 * no query, the most recently updated collections (a bounded general set). No paging.
 */
export function searchCollections(ctx: ServiceContext, user: UserRecord, body: unknown): View {
  const input = requireObject(body);
  if (input.query === undefined && ctx.broken('collections.search.query-required')) throw invalid('query is required');
  // "optional text query": absent or a string; null is no text (openapi.yaml: type string).
  const text = input.query === undefined ? undefined : checkString(input.query, 'query');
  const bounds = readBounds(ctx, input, 'collections.search.bounds');
  const exclusive = ctx.broken('collections.search.bounds-exclusive');
  const ignoreBounds = ctx.broken('collections.search.bounds-ignored');
  const visible = [...ctx.store.collections.values()].filter((c) => canSeeCollection(ctx, user, c)
    && (ignoreBounds || withinBounds(c, bounds, exclusive)));
  const terms = text === undefined ? [] : tokenize(text);
  let ranked: CollectionRecord[];
  if (text === undefined || terms.length === 0) {
    ranked = visible.sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1));
  } else {
    const descriptionOnly = ctx.broken('collections.search.description-only');
    const scored = visible.map((c) => {
      const titleTerms = descriptionOnly ? [] : tokenize(c.title);
      const bodyTerms = tokenize(c.description ?? '');
      let score = 0;
      for (const term of terms) score += 3 * titleTerms.filter((t) => t === term).length + bodyTerms.filter((t) => t === term).length;
      return { c, score };
    }).filter((s) => s.score > 0);
    scored.sort((a, b) => b.score - a.score || b.c.updatedAt - a.c.updatedAt || (a.c.id < b.c.id ? -1 : 1));
    ranked = scored.map((s) => s.c);
  }
  const results = ranked.slice(0, SEARCH_RESULTS_MAX).map((c) => collectionView(ctx, c, true));
  const view: View = { results, total: ctx.broken('collections.search.total-counts-all') ? visible.length : results.length };
  if (ctx.broken('collections.search.next-page-returned')) view.next_page = null;
  return view;
}
