import type { CollectionRecord, UserRecord } from '../store/records.js';
import { everyInOrder, MergedWalk, type OrderedWalk } from '../store/sorted-index.js';
import { TermTable } from '../store/term-table.js';
import type { ServiceContext } from './context.js';
import { readBounds, withinBounds } from './notes-list.js';
import { decodeCursor, encodeCursor, filtersHash, pageOf } from './paging.js';
import { canSeeCollection } from './permissions.js';
import { checkString, enumParam, type Input, intParam, requireObject } from './validate.js';
import { collectionView, type View } from './views.js';

const SEARCH_RESULTS_MAX = 50;

/** GET /v2/collections: cursor-paginated; next_page is null at the end. */
export function listCollections(ctx: ServiceContext, user: UserRecord, query: Input): View {
  const policy = ctx.policy.collectionsList;
  const limit = intParam(query.limit, 'limit', {
    min: 1,
    max: policy.max,
    fallback: policy.fallback,
    truncateFractions: !ctx.policy.refuseFractions,
  });
  const orderBy = enumParam(query.order_by, 'order_by', ['created_at', 'updated_at'] as const, policy.defaultOrder);
  const bounds = readBounds(ctx, query, 'collections.list.bounds');
  const filters = filtersHash({ orderBy, bounds });
  const after =
    query.cursor === undefined
      ? undefined
      : decodeCursor(String(query.cursor), filters, ctx.policy.collectionCursorsCheckFilters);
  const index = visibleInOrder(ctx, user, orderBy);
  const matches = (c: CollectionRecord): boolean => canSeeCollection(ctx, user, c) && withinBounds(c, bounds, false);
  const keyOf = (c: CollectionRecord) => (orderBy === 'created_at' ? c.createdAt : c.updatedAt);
  const page = pageOf(index, ctx.settings.newestFirst, after, limit, matches, keyOf);
  return {
    results: page.items.map((c) => collectionView(ctx, c, true)),
    total: page.total,
    next_page: page.next ? encodeCursor({ ...page.next, filters }) : null,
  };
}

/**
 * POST /v2/collections/search: free-text relevance over title (weighted) and description; with
 * no query, the most recently updated collections (a bounded general set). No paging.
 */
export function searchCollections(ctx: ServiceContext, user: UserRecord, body: unknown): View {
  const input = requireObject(body);
  // "optional text query": absent or a string; null is no text (openapi.yaml: type string).
  const text = input.query === undefined ? undefined : checkString(input.query, 'query');
  const bounds = readBounds(ctx, input, 'collections.search.bounds');
  const visible: CollectionRecord[] = [];
  visibleInOrder(ctx, user, 'updated_at').forEach(false, undefined, (c) => {
    if (canSeeCollection(ctx, user, c) && withinBounds(c, bounds, false)) visible.push(c);
  });
  const index = ctx.store.collectionTerms;
  // Catches up with any visible collection whose text was set outside the store's methods (a fault).
  if (text !== undefined) index.refresh(visible);
  const query = new TermTable(text ?? '');
  let ranked: CollectionRecord[];
  if (query.occurrences === 0) {
    ranked = visible.sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1));
  } else {
    const { titleWeight, descriptionWeight } = ctx.policy.collectionsSearch;
    // Score = sum over the query's terms (repeats count) of the weighted occurrences in the title
    // and description: each visible collection's distinct terms, read when it was written
    // (collection-terms.ts), are looked up in the query's table.
    const scored = index.score(visible, query, titleWeight, descriptionWeight);
    scored.sort((a, b) => b.score - a.score || b.c.updatedAt - a.c.updatedAt || (a.c.id < b.c.id ? -1 : 1));
    ranked = scored.map((s) => s.c);
  }
  const results = ranked.slice(0, SEARCH_RESULTS_MAX).map((c) => collectionView(ctx, c, true));
  return { results, total: results.length };
}

/**
 * The collections a user's list and search walk, in list order (every one they can see, and
 * more): their own and those of other owners they hold a grant on, never every user's (a user
 * with 10 collections paid for another's 100,000). The seam that checks no ownership walks all.
 */
function visibleInOrder(
  ctx: ServiceContext,
  user: UserRecord,
  orderBy: 'created_at' | 'updated_at',
): OrderedWalk<CollectionRecord> {
  const { store } = ctx;
  if (ctx.broken('auth.scope.collections-unchecked')) return everyInOrder([...store.collections.values()], orderBy);
  const own = store.collectionsOf(user.id);
  const ownInOrder = orderBy === 'created_at' ? own.byCreated : own.byUpdated;
  const shared: Array<{ key: number; item: CollectionRecord }> = [];
  for (const [resourceId, levels] of store.grants) {
    const c = levels.has(user.id) ? store.collections.get(resourceId) : undefined;
    if (c && c.ownerId !== user.id) shared.push({ key: orderBy === 'created_at' ? c.createdAt : c.updatedAt, item: c });
  }
  return shared.length === 0 ? ownInOrder : new MergedWalk(ownInOrder, shared, (c) => c.id);
}
