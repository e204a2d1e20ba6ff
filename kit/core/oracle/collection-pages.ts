import { instantOf as ms } from '../../../spec/patterns.js';
import { sameInstant } from '../behaviour/outcomes.js';
import { isTokenUser, objectOf } from '../behaviour/request.js';
import { type KnownCollection, settled } from '../behaviour/state.js';
import { collectionFields } from '../behaviour/views.js';
import { judgeFields, show } from './compare.js';
import type { Env } from './env.js';
import { cursorMismatch, refusedCreate } from './note-pages.js';
import type { Observation } from './observation.js';
import {
  BOUNDS,
  hasBounds,
  insideBounds,
  judgeDefaultPage,
  settleEnd,
  type Traversals,
  unchangedSince,
} from './traversals.js';

type Item = Record<string, unknown> & { id: string };

function itemsOf(body: Record<string, unknown>): Item[] {
  const results = Array.isArray(body.results) ? body.results : [];
  return results.filter(
    (r): r is Item => typeof r === 'object' && r !== null && typeof (r as { id?: unknown }).id === 'string',
  );
}

/** Whether every note a collection holds was settled when the answer was made (note_count depends on them). */
function membersSettled(env: Env, c: KnownCollection, seq: number, at: number, lag: number): boolean {
  for (const id of c.members ?? []) {
    const n = env.world.notes.get(id);
    if (!n || !settled(n.clock, seq, at, lag)) return false;
  }
  return true;
}

function judgeItems(
  env: Env,
  o: Observation,
  items: Item[],
  lag: number,
  boundsRule: string,
  bounds: Readonly<Record<string, unknown>>,
): void {
  const { j, world } = env;
  const what = `${o.method} ${o.path}`;
  for (const item of items) {
    refusedCreate(env, 'collection', item.id, o);
    const c = world.collections.get(item.id);
    if (!c) continue;
    if (isTokenUser(c.owner) && isTokenUser(o.actor) && c.owner !== o.actor)
      j.that(
        'auth.scope.collections-isolated',
        false,
        () => `${what} as the ${o.actor} user shows collection ${c.id} of the ${c.owner} user, which was never shared`,
        o.x,
      );
    if (!settled(c.clock, o.startSeq, o.startedAt, lag)) continue;
    if (c.deleted) {
      j.that(
        'collections.delete.permanent',
        false,
        () => `${what} shows collection ${c.id}, deleted by ${c.deleted!.by.method} ${c.deleted!.by.path}`,
        o.x,
        c.deleted.by,
      );
      continue;
    }
    const countRule = membersSettled(env, c, o.startSeq, o.startedAt, lag) ? 'collections.read.note-count' : undefined;
    judgeFields(env, collectionFields(world, c, countRule), item, o, `${what} (collection ${c.id})`);
    for (const bound of BOUNDS) {
      const limit = ms(bounds[bound]);
      const field = bound.startsWith('created') ? 'created_at' : 'updated_at';
      const v = ms(item[field]);
      if (limit === undefined || v === undefined) continue;
      j.that(
        boundsRule,
        (bound.endsWith('after') ? v >= limit : v <= limit) || sameInstant(v, limit, env.precisionMs),
        () =>
          `${what}: collection ${c.id} has ${field} ${show(item[field])}, outside the bound ${bound} ${show(bounds[bound])}`,
        o.x,
      );
    }
  }
}

const COLLECTION_END = {
  total: 'collections.list.total-before-pagination',
  end: 'collections.list.next-page-null-at-end',
} as const;

/** GET /v2/collections: page arithmetic, next_page null at the end, items and completeness of a walk. */
export function listCollections(env: Env, o: Observation, traversals: Traversals): void {
  const { j, world } = env;
  const q = o.input ?? {};
  cursorMismatch(env, o, traversals.issuedUnder(o.actor, q.cursor), q, 'collections.list.cursor-filter-mismatch');
  if (o.x.status < 200 || o.x.status >= 300) return;
  const body = objectOf(o.x.json);
  // No results array: no page to judge (the shape rules, openapi.yaml, say what is wrong).
  if (!Array.isArray(body.results)) return;
  const results: unknown[] = body.results;
  const what = `${o.method} ${o.path}`;
  const limit =
    typeof q.limit === 'number' && Number.isInteger(q.limit) && q.limit >= 1 && q.limit <= 100 ? q.limit : undefined;
  if (q.limit === undefined || limit !== undefined)
    j.that(
      q.limit === undefined ? 'collections.list.limit-default-50' : 'collections.list.limit-range',
      results.length <= (limit ?? 50),
      () => `${what}: ${results.length} results on a page of at most ${limit ?? 50}`,
      o.x,
    );
  judgeDefaultPage(j, 'collections.list.limit-default-50', q, body, results, o.x);
  let pendingEnd: number | undefined;
  if (Number.isInteger(body.total)) {
    j.that(
      'collections.list.total-before-pagination',
      (body.total as number) >= results.length,
      () => `${what}: total ${body.total} is less than the ${results.length} results of the page`,
      o.x,
    );
    const more = (body.total as number) > results.length;
    // Total and next_page disagree: the next page of the walk tells which is wrong (settleEnd).
    if (q.cursor === undefined && !more && typeof body.next_page === 'string') pendingEnd = body.total as number;
    else if (q.cursor === undefined) {
      j.that(
        'collections.list.next-page-null-at-end',
        more ? typeof body.next_page === 'string' : body.next_page === null,
        () =>
          more
            ? `${what}: total ${body.total} with ${results.length} results, yet next_page is ${show(body.next_page)}`
            : `${what}: all ${body.total} results are on this page, so next_page is null, not ` +
              `${'next_page' in body ? show(body.next_page) : 'absent'}`,
        o.x,
      );
    }
  }
  const items = itemsOf(body);
  judgeItems(env, o, items, 0, 'collections.list.bounds-filter', q);
  const walk = traversals.page(q, q.cursor, o.actor, o.startSeq, o.startedAt);
  if (!walk) return;
  if (pendingEnd !== undefined) walk.pendingEnd = { x: o.x, total: pendingEnd };
  else settleEnd(j, walk, results.length, o.x, COLLECTION_END, 'next_page is null at the end');
  for (const item of items) {
    const c = world.collections.get(item.id);
    if (walk.seen.has(item.id) && c && unchangedSince(c.clock, walk.startSeq))
      j.that(
        'collections.list.cursor-pages',
        false,
        () => `${what}: collection ${item.id} was listed twice in one walk along next_page`,
        o.x,
      );
    walk.seen.set(item.id, 1);
  }
  walk.tail = items.at(-1) ?? walk.tail;
  if (typeof body.next_page === 'string') {
    traversals.continues(walk, body.next_page);
    return;
  }
  for (const c of world.collections.values()) {
    if (c.deleted || !unchangedSince(c.clock, walk.startSeq)) continue;
    const where = insideBounds({ created_at: c.createdAt?.value, updated_at: c.updatedAt?.value }, q, env.precisionMs);
    if (where !== 'inside' && where !== 'exact') continue;
    // Another user's collection in the window the walk covered, not shown: isolation held (judgeItems fails one shown).
    if (c.owner !== walk.actor) {
      if (isTokenUser(c.owner) && isTokenUser(walk.actor) && hasBounds(q) && !walk.seen.has(c.id))
        j.that('auth.scope.collections-isolated', true, () => '', o.x);
      continue;
    }
    const rule =
      where === 'exact'
        ? 'collections.list.bounds-inclusive'
        : walk.pages > 1 || !hasBounds(q)
          ? 'collections.list.cursor-pages'
          : 'collections.list.bounds-filter';
    // A collection found is evidence too: the rule that would have lost it held.
    j.that(
      rule,
      walk.seen.has(c.id),
      () =>
        `${what}: the walk of ${walk.pages} page(s) ended without collection ${c.id} of the caller,` +
        ' which matches its bounds and did not change during the walk',
      o.x,
      c.title?.by,
    );
  }
}

/** POST /v2/collections/search: total is the count returned, no next_page, items and bounds. */
export function searchCollections(env: Env, o: Observation): void {
  const { j } = env;
  if (o.x.status < 200 || o.x.status >= 300) return;
  const body = objectOf(o.x.json);
  // No results array: no page to judge (the shape rules, openapi.yaml, say what is wrong).
  if (!Array.isArray(body.results)) return;
  const results: unknown[] = body.results;
  const what = `${o.method} ${o.path}`;
  if ('total' in body)
    j.that(
      'collections.search.total-is-count',
      body.total === results.length,
      () => `${what}: total ${show(body.total)} with ${results.length} results returned`,
      o.x,
    );
  j.that(
    'collections.search.no-next-page',
    !('next_page' in body),
    () => `${what}: the answer carries next_page (${show(body.next_page)})`,
    o.x,
  );
  judgeItems(env, o, itemsOf(body), env.lagMs, 'collections.search.bounds-filter', o.input ?? {});
  onBoundKept(env, o, itemsOf(body));
}

/**
 * "Inclusive bounds": where a search for a word found a collection of the caller whose title holds
 * it inside the bounds, each settled one whose title holds it too and that lies exactly on a bound
 * is among the results. A search that finds none of them says nothing here (relevance is advisory).
 */
function onBoundKept(env: Env, o: Observation, items: Item[]): void {
  const q = o.input ?? {};
  const word = typeof q.query === 'string' ? q.query.trim().toLowerCase() : '';
  if (!/^[\p{L}\p{N}]+$/u.test(word) || !hasBounds(q)) return;
  const shown = new Set(items.map((i) => i.id));
  const matching = [...env.world.collections.values()].filter(
    (c) =>
      c.owner === o.actor &&
      !c.deleted &&
      settled(c.clock, o.startSeq, o.startedAt, env.lagMs) &&
      (c.title?.value ?? '')
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .includes(word),
  );
  const where = (c: KnownCollection) =>
    insideBounds({ created_at: c.createdAt?.value, updated_at: c.updatedAt?.value }, q, env.precisionMs);
  if (!matching.some((c) => shown.has(c.id) && where(c) === 'inside')) return;
  for (const c of matching.filter((c) => where(c) === 'exact'))
    env.j.that(
      'collections.search.bounds-filter',
      shown.has(c.id),
      () =>
        `${o.method} ${o.path}: the search for "${word}" found a collection inside the bounds but not ${c.id}, ` +
        `titled ${show(c.title?.value)}, which lies exactly on a bound (bounds are inclusive)`,
      o.x,
      c.title?.by,
    );
}
