import { instantOf as ms } from '../../../spec/patterns.js';
import { CONTAINS_KINDS, type ContainsKind } from '../../../spec/profile.js';
import { type ContentMarkers, containsMatch, containsSent, contentKinds } from '../behaviour/content-kinds.js';
import { sameInstant } from '../behaviour/outcomes.js';
import { isTokenUser, objectOf } from '../behaviour/request.js';
import { type KnownNote, settled } from '../behaviour/state.js';
import { collectionFields, type NoteView, noteFields } from '../behaviour/views.js';
import { judgeFields, show } from './compare.js';
import type { Env } from './env.js';
import type { Observation } from './observation.js';
import {
  BOUNDS,
  filtersOf,
  hasBounds,
  insideBounds,
  judgeDefaultPage,
  settleEnd,
  type Traversal,
  type Traversals,
  unchangedSince,
} from './traversals.js';

const NOTE_END = { total: 'notes.list.total-before-pagination', end: 'notes.list.next-page-omitted-at-end' } as const;

/** A page's items as objects with a string id (anything else is the shape rules' to judge). */
function itemsOf(body: Record<string, unknown>): Array<Record<string, unknown> & { id: string }> {
  const results = Array.isArray(body.results) ? body.results : [];
  return results.filter(
    (r): r is Record<string, unknown> & { id: string } =>
      typeof r === 'object' && r !== null && typeof (r as { id?: unknown }).id === 'string',
  );
}

/** The contains kinds of a known note's content, by the profile's markers; undefined where it cannot tell. */
function contentKindsOf(env: Env, n: KnownNote): ReturnType<typeof contentKinds> {
  return env.contentMarkers && n.content ? contentKinds(n.content.value, env.contentMarkers) : undefined;
}

/**
 * Which contains rule a note missing from a page kept to the filters `sent` breaks: with several,
 * one it matches only some of is what "combined with OR" keeps.
 */
function containsRuleOf(
  rules: { readonly filters: string; readonly or: string },
  kinds: ReturnType<typeof contentKinds> & object,
  sent: readonly ContainsKind[],
  markers: ContentMarkers,
): string {
  const each = sent.filter((f) => containsMatch(kinds, [f], markers) === 'yes').length;
  return sent.length > 1 && each < sent.length ? rules.or : rules.filters;
}

const LIST_CONTAINS = { filters: 'notes.list.contains-filters', or: 'notes.list.contains-or' } as const;
const SEARCH_CONTAINS = { filters: 'notes.search.contains-filters', or: 'notes.search.contains-or' } as const;

/** A valid integer limit in range, as sent; undefined when none or not one (the refusal rules judge those). */
function limitOf(value: unknown, max: number): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= max ? n : undefined;
}

/** Per-item judgements every note page shares: isolation, deleted notes, fields, filters. */
function judgeItems(
  env: Env,
  o: Observation,
  items: Array<Record<string, unknown> & { id: string }>,
  view: NoteView,
  since: { seq: number; at: number },
  filters: {
    bounds?: Readonly<Record<string, unknown>>;
    collections?: readonly string[];
    boundsRule: string;
    collectionRule: string;
    /** The contains filters sent true, and the rule a note that matches none of them breaks. */
    contains?: { readonly sent: readonly ContainsKind[]; readonly rule: string };
  },
): void {
  const { j, world } = env;
  const lag = view === 'list' ? 0 : env.lagMs;
  const what = `${o.method} ${o.path}`;
  const isolation = view === 'related' ? 'auth.scope.related-notes-isolated' : 'auth.scope.notes-list-isolated';
  for (const item of items) {
    refusedCreate(env, 'note', item.id, o);
    const n = world.notes.get(item.id);
    if (!n) continue;
    if (isTokenUser(n.owner) && isTokenUser(o.actor) && n.owner !== o.actor)
      j.that(
        isolation,
        false,
        () => `${what} as the ${o.actor} user shows note ${n.id} of the ${n.owner} user, which was never shared`,
        o.x,
      );
    if (!settled(n.clock, since.seq, since.at, lag) || n.clock.inFlight > 0 || n.clock.lastEndSeq >= o.startSeq)
      continue;
    if (n.deleted) {
      j.that(
        'notes.delete.permanent',
        false,
        () => `${what} shows note ${n.id}, deleted by ${n.deleted!.by.method} ${n.deleted!.by.path}`,
        o.x,
        n.deleted.by,
      );
      continue;
    }
    judgeFields(env, noteFields(n, view), item, o, `${what} (note ${n.id})`);
    for (const bound of BOUNDS) {
      const limit = ms(filters.bounds?.[bound]);
      const field = bound.startsWith('created') ? 'created_at' : 'updated_at';
      const v = ms(item[field]);
      if (limit === undefined || v === undefined) continue;
      const after = bound.endsWith('after');
      j.that(
        filters.boundsRule,
        (after ? v >= limit : v <= limit) || sameInstant(v, limit, env.precisionMs),
        () =>
          `${what}: note ${n.id} has ${field} ${show(item[field])}, outside the bound ${bound} ${show(filters.bounds![bound])}`,
        o.x,
      );
    }
    const kinds = filters.contains && contentKindsOf(env, n);
    if (kinds && filters.contains!.sent.length > 0) {
      const match = containsMatch(kinds, filters.contains!.sent, env.contentMarkers!);
      if (match !== 'open')
        j.that(
          filters.contains!.rule,
          match === 'yes',
          () =>
            `${what}: note ${n.id} is shown, yet its content matches none of the filters ${show(filters.contains!.sent)}`,
          o.x,
        );
    }
    const wanted = filters.collections;
    if (wanted && wanted.length > 0 && n.links)
      j.that(
        filters.collectionRule,
        wanted.some((c) => n.links!.has(c)),
        () =>
          `${what}: note ${n.id} is in none of the filtered collections ${show(wanted)} (it is in ${show([...n.links!.keys()])})`,
        o.x,
      );
  }
}

/**
 * A later page of a walk kept to one collection reports the first page's total while the
 * collection changed in no way since the walk began (what other users or workers create elsewhere
 * cannot count in it): total counts the matches before pagination, not what is left of them.
 */
function sameTotal(env: Env, o: Observation, walk: Traversal, collectionId: string | undefined, total: unknown): void {
  if (!Number.isInteger(total)) return;
  if (o.input?.cursor === undefined) {
    walk.firstTotal = total as number;
    return;
  }
  // Kept to the collection alone: a bound or a contains filter would let a note's own write change the count.
  const q = o.input ?? {};
  if (hasBounds(q) || CONTAINS_KINDS.some((k) => q[k] !== undefined)) return;
  const c = collectionId === undefined ? undefined : env.world.collections.get(collectionId);
  if (walk.firstTotal === undefined || !c?.members || c.clock.inFlight > 0 || !unchangedSince(c.clock, walk.startSeq))
    return;
  env.j.that(
    'notes.list.total-before-pagination',
    total === walk.firstTotal,
    () =>
      `${o.method} ${o.path}: a later page of the walk in collection ${c.id} reports total ${total}; ` +
      `its first page reported ${walk.firstTotal} and the collection did not change`,
    o.x,
  );
}

/** GET /v2/notes: items, page and, when a walk ends, its completeness. */
export function listNotes(env: Env, o: Observation, traversals: Traversals): void {
  const { j } = env;
  const q = o.input ?? {};
  // "must be reused with identical filters and order_by": the declared status for a cursor reused otherwise.
  cursorMismatch(env, o, traversals.issuedUnder(o.actor, q.cursor), q, 'notes.list.cursor-filter-mismatch');
  if (o.x.status < 200 || o.x.status >= 300) return;
  const body = objectOf(o.x.json);
  const items = itemsOf(body);
  const what = `${o.method} ${o.path}`;
  // No results array: no page to judge (the shape rules, openapi.yaml, say what is wrong).
  if (!Array.isArray(body.results)) return;
  const results: unknown[] = body.results;
  const limit = limitOf(q.limit, 100);
  if (q.limit === undefined || limit !== undefined)
    j.that(
      q.limit === undefined ? 'notes.list.limit-default-50' : 'notes.list.limit-range',
      results.length <= (limit ?? 50),
      () => `${what}: ${results.length} results on a page of at most ${limit ?? 50}`,
      o.x,
    );
  judgeDefaultPage(j, 'notes.list.limit-default-50', q, body, results, o.x);
  if (Number.isInteger(body.total))
    j.that(
      'notes.list.total-before-pagination',
      (body.total as number) >= results.length,
      () => `${what}: total ${body.total} is less than the ${results.length} results of the page`,
      o.x,
    );
  const includes = q.include_content === true || q.include_content === 'true';
  for (const item of items) {
    if (q.include_content === undefined)
      j.that(
        'notes.list.content-omitted-by-default',
        !('content' in item),
        () => `${what}: item ${item.id} carries content though none was asked for`,
        o.x,
      );
    else if (includes)
      j.that(
        'notes.list.include-content',
        typeof item.content === 'string',
        () => `${what}: item ${item.id} carries no content though it was asked for`,
        o.x,
      );
  }
  // Total and next_page disagree: the next page of the walk tells which is wrong (settleEnd).
  const pendingEnd =
    q.cursor === undefined &&
    Number.isInteger(body.total) &&
    (body.total as number) <= results.length &&
    typeof body.next_page === 'string'
      ? (body.total as number)
      : undefined;
  // A later page: next_page is a cursor or absent ("omitted when no more results"), never null or another value.
  if (q.cursor !== undefined && 'next_page' in body)
    j.that(
      'notes.list.next-page-omitted-at-end',
      typeof body.next_page === 'string',
      () => `${what}: next_page is ${show(body.next_page)}; it is a cursor while more remain, omitted at the end`,
      o.x,
    );
  if (q.cursor === undefined && Number.isInteger(body.total) && pendingEnd === undefined) {
    const more = (body.total as number) > results.length;
    j.that(
      'notes.list.next-page-omitted-at-end',
      more ? typeof body.next_page === 'string' : !('next_page' in body),
      () =>
        more
          ? `${what}: total ${body.total} with ${results.length} results, yet no next_page`
          : `${what}: all ${body.total} results are on this page, yet next_page is ${show(body.next_page)} (omitted at the end)`,
      o.x,
    );
  }
  const collection = typeof q.collection === 'string' ? [q.collection] : undefined;
  const contains = containsSent(q);
  judgeItems(
    env,
    o,
    items,
    'list',
    { seq: o.startSeq, at: o.startedAt },
    {
      bounds: q,
      ...(collection ? { collections: collection } : {}),
      boundsRule: 'notes.list.bounds-filter',
      collectionRule: 'notes.list.collection-filter',
      ...(contains ? { contains: { sent: contains, rule: LIST_CONTAINS.filters } } : {}),
    },
  );
  const walk = traversals.page(q, q.cursor, o.actor, o.startSeq, o.startedAt);
  if (!walk) return;
  sameTotal(env, o, walk, collection?.[0], body.total);
  if (pendingEnd !== undefined) walk.pendingEnd = { x: o.x, total: pendingEnd };
  else settleEnd(j, walk, results.length, o.x, NOTE_END, 'next_page is omitted at the end');
  for (const item of items) walk.seen.set(item.id, (walk.seen.get(item.id) ?? 0) + 1);
  for (const [id, count] of walk.seen) {
    const n = env.world.notes.get(id);
    if (count > 1 && n && unchangedSince(n.clock, walk.startSeq))
      j.that(
        'notes.list.cursor-pages',
        false,
        () => `${what}: note ${id} was listed ${count} times in one walk along next_page`,
        o.x,
      );
  }
  for (const item of items) walk.seen.set(item.id, Math.min(walk.seen.get(item.id)!, 1));
  walk.tail = items.at(-1) ?? walk.tail;
  if (typeof body.next_page === 'string') traversals.continues(walk, body.next_page);
  else if (q.cursor === undefined && fullPageEndsEarly(body, results.length, limit ?? 50)) {
    // Judged above (next-page-omitted-at-end): the page's own total says more remain, so what the
    // walk missed is the missing next_page's doing, not the filters' or the cursor's.
  } else if (contains !== undefined) completeWalk(env, o, walk, q, collection?.[0], contains);
}

/** A first page, full, without next_page, whose total counts more than it shows. */
function fullPageEndsEarly(body: Record<string, unknown>, shown: number, pageSize: number): boolean {
  return shown === pageSize && Number.isInteger(body.total) && (body.total as number) > shown;
}

/** A cursor the run saw handed out under other filters or another order: refused with the declared status. */
export function cursorMismatch(
  env: Env,
  o: Observation,
  issuedUnder: string | undefined,
  q: Readonly<Record<string, unknown>>,
  rule: 'notes.list.cursor-filter-mismatch' | 'collections.list.cursor-filter-mismatch',
): void {
  const declared = env.statuses.cursor_mismatch;
  if (issuedUnder === undefined || declared === undefined || filtersOf(q) === issuedUnder) return;
  env.j.that(
    rule,
    o.x.status === declared,
    () =>
      `${o.method} ${o.path}: a cursor handed out under ${issuedUnder} was sent with other filters or order;` +
      ` the profile declares ${declared} for cursor_mismatch, the target answered ${o.x.status}`,
    o.x,
  );
}

/** A walk reached its end: every known note of the caller that matches and stayed unchanged was on a page. */
function completeWalk(
  env: Env,
  o: Observation,
  walk: Traversal,
  q: Readonly<Record<string, unknown>>,
  collection: string | undefined,
  contains: readonly ContainsKind[],
): void {
  const { j, world } = env;
  // Kept to contents: only notes whose kinds the profile's markers tell.
  if (contains.length > 0 && !env.contentMarkers) return;
  for (const n of world.notes.values()) {
    if (n.owner !== walk.actor || n.deleted || n.trashed?.value !== false) continue;
    if (!unchangedSince(n.clock, walk.startSeq)) continue;
    if (collection !== undefined && !n.links?.has(collection)) continue;
    const kinds = contains.length > 0 ? contentKindsOf(env, n) : undefined;
    if (contains.length > 0 && (!kinds || containsMatch(kinds, contains, env.contentMarkers!) !== 'yes')) continue;
    const where = insideBounds({ created_at: n.createdAt?.value, updated_at: n.updatedAt?.value }, q, env.precisionMs);
    if (where !== 'inside' && where !== 'exact') continue;
    const rule =
      where === 'exact'
        ? 'notes.list.bounds-inclusive'
        : kinds
          ? containsRuleOf(LIST_CONTAINS, kinds, contains, env.contentMarkers!)
          : walk.pages > 1 || (!hasBounds(q) && collection === undefined)
            ? 'notes.list.cursor-pages'
            : hasBounds(q)
              ? 'notes.list.bounds-filter'
              : 'notes.list.collection-filter';
    // A note found is evidence too: the rule that would have lost it held.
    j.that(rule, walk.seen.has(n.id), () => missing(o, walk, n), o.x, n.content?.by ?? n.title?.by);
  }
  // "lists notes visible to the caller": a note granted to it before the walk, at any level.
  if (hasBounds(q) || collection !== undefined || contains.length > 0) return;
  for (const [id, grantSeq] of world.sharedWith.get(walk.actor) ?? []) {
    const n = world.notes.get(id);
    if (!n || n.deleted || n.trashed?.value !== false || grantSeq > walk.startSeq) continue;
    if (!unchangedSince(n.clock, walk.startSeq)) continue;
    j.that(
      'auth.scope.shared-visible',
      walk.seen.has(n.id),
      () =>
        `${o.method} ${o.path}: the walk of ${walk.pages} page(s) ended without note ${n.id} of the ${n.owner} user,` +
        ' which was granted to the caller before the walk began and did not change during it',
      o.x,
    );
  }
}

function missing(o: Observation, walk: Traversal, n: KnownNote): string {
  return (
    `${o.method} ${o.path}: the walk of ${walk.pages} page(s) ended without note ${n.id} of the caller,` +
    ' which matches its filters and did not change during the walk'
  );
}

/** A search snapshot as its pages showed it: total and which note stands at which place of the window. */
interface Snapshot {
  readonly key: string;
  readonly total: number;
  readonly startSeq: number;
  readonly startedAt: number;
  readonly at: Map<number, string>;
}

export class Snapshots {
  readonly byId = new Map<string, Snapshot>();
}

/** POST /v2/notes/search: page arithmetic, the frozen snapshot, items and filters. */
export function searchNotes(env: Env, o: Observation, snapshots: Snapshots): void {
  const { j } = env;
  if (o.x.status < 200 || o.x.status >= 300) return;
  const input = o.input ?? {};
  const q = objectOf(input.query);
  const b = objectOf(input.body);
  const body = objectOf(o.x.json);
  const what = `${o.method} ${o.path}`;
  // No results array: no page to judge (the shape rules, openapi.yaml, say what is wrong).
  if (!Array.isArray(body.results)) return;
  const results: unknown[] = body.results;
  const limit = limitOf(q.limit, 50);
  const offsetSent = typeof q.offset === 'string' && /^\d+$/.test(q.offset) ? Number(q.offset) : q.offset;
  const offset =
    offsetSent === undefined
      ? 0
      : Number.isInteger(offsetSent) && (offsetSent as number) >= 0
        ? (offsetSent as number)
        : undefined;
  if (q.limit === undefined || limit !== undefined) {
    const rule = q.limit === undefined ? 'notes.search.limit-default-20' : 'notes.search.limit-range';
    j.that(
      rule,
      results.length <= (limit ?? 20),
      () => `${what}: ${results.length} results on a page of at most ${limit ?? 20}`,
      o.x,
    );
    if ('limit' in body)
      j.that(
        q.limit === undefined ? 'notes.search.limit-default-20' : 'notes.search.limit-offset-echoed',
        body.limit === (limit ?? 20),
        () => `${what}: limit ${show(body.limit)} answered, ${limit ?? 20} used`,
        o.x,
      );
  }
  // "Without offset a search reports offset 0": leaving it out of the answer breaks that too.
  if (offset !== undefined && ('offset' in body || q.offset === undefined))
    j.that(
      q.offset === undefined ? 'notes.search.offset-default-0' : 'notes.search.limit-offset-echoed',
      body.offset === offset,
      () => `${what}: offset ${show(body.offset)} answered, ${offset} used`,
      o.x,
    );
  const total = Number.isInteger(body.total) ? (body.total as number) : undefined;
  if (total !== undefined) {
    j.that(
      'notes.search.total-capped-100',
      total <= 100,
      () => `${what}: total ${total} is beyond the 100-result window`,
      o.x,
    );
    if (offset !== undefined) {
      j.that(
        'notes.search.snapshot-pages',
        results.length <= Math.max(0, total - offset),
        () => `${what}: ${results.length} results at offset ${offset} of a window of ${total}`,
        o.x,
      );
      if (typeof body.has_next_page === 'boolean')
        j.that(
          'notes.search.has-next-page',
          body.has_next_page === offset + results.length < total,
          () =>
            `${what}: has_next_page is ${body.has_next_page} with ${results.length} results at offset ${offset} of ${total}`,
          o.x,
        );
    }
  }
  const items = itemsOf(body);
  const snapshot = trackSnapshot(env, o, snapshots, q, b, total, offset, items);
  const since = snapshot ? { seq: snapshot.startSeq, at: snapshot.startedAt } : { seq: o.startSeq, at: o.startedAt };
  const collections = Array.isArray(b.collections)
    ? b.collections.filter((c): c is string => typeof c === 'string')
    : undefined;
  const contains = containsSent(b);
  judgeItems(env, o, items, 'search', since, {
    bounds: b,
    ...(collections ? { collections } : {}),
    boundsRule: 'notes.search.bounds-filter',
    collectionRule: 'notes.search.collection-filter',
    ...(contains ? { contains: { sent: contains, rule: SEARCH_CONTAINS.filters } } : {}),
  });
  if ((offset ?? 0) === 0 && results.length < (limit ?? 20)) findsKnown(env, o, b, collections, items);
}

/**
 * A first page with room left holds every match: each known, settled, active note of the caller
 * whose first line holds the queried word (one word of letters) is among its results (advisory:
 * what matches a word is the target's). With a collection filter, each such note in a listed
 * collection that an unfiltered search of the same word found, unchanged since, is among them
 * (documented: "a note in any listed collection matches"). Time bounds and contains filters leave
 * it unjudged; whether a trashed note is searched is not shown.
 */
function findsKnown(
  env: Env,
  o: Observation,
  b: Record<string, unknown>,
  collections: readonly string[] | undefined,
  items: ReadonlyArray<{ readonly id: string }>,
): void {
  const word = typeof b.query === 'string' ? b.query.trim().toLowerCase() : '';
  const contains = containsSent(b) ?? [];
  const kept = collections !== undefined || contains.length > 0;
  // Letters only: how a word of letters and digits splits into terms is the target's own.
  if (!/^[a-z]{4,}$/.test(word) || hasBounds(b) || containsSent(b) === undefined) return;
  // Kept to collections and contents at once: a missing note would not tell which filter lost it.
  if (collections !== undefined && contains.length > 0) return;
  if (contains.length > 0 && !env.contentMarkers) return;
  const shown = new Set(items.map((i) => i.id));
  if (!kept) for (const id of shown) env.searchFound.set(`${o.actor} ${word} ${id}`, o.startSeq);
  for (const n of env.world.notes.values()) {
    if (n.owner !== o.actor || n.deleted || n.trashed?.value !== false || n.clock.lastEndSeq >= o.startSeq) continue;
    if (n.clock.inFlight !== 0 || !settled(n.clock, o.startSeq, o.startedAt, env.lagMs)) continue;
    const first = n.content?.value.split('\n', 1)[0]?.toLowerCase() ?? '';
    if (!first.includes(word) || !first.split(/[^a-z]+/).includes(word)) continue;
    if (collections && (!n.links || !collections.some((c) => n.links!.has(c)))) continue;
    const kinds = contains.length > 0 ? contentKindsOf(env, n) : undefined;
    if (contains.length > 0 && (!kinds || containsMatch(kinds, contains, env.contentMarkers!) !== 'yes')) continue;
    const found = env.searchFound.get(`${o.actor} ${word} ${n.id}`);
    if (kept && (found === undefined || n.clock.lastEndSeq >= found)) continue;
    env.j.that(
      kinds
        ? containsRuleOf(SEARCH_CONTAINS, kinds, contains, env.contentMarkers!)
        : collections
          ? 'notes.search.collection-filter'
          : 'notes.search.finds-matching-note',
      shown.has(n.id),
      () =>
        `${o.method} ${o.path}: note ${n.id}, whose first line holds "${word}"` +
        `${collections ? ' and which is in a listed collection' : kinds ? ' and whose content matches a contains filter' : ''}` +
        `${kept ? ' (an unfiltered search of the word found it)' : ''},` +
        ` is not among the ${items.length} results of a page with room left`,
      o.x,
    );
  }
}

/** Later pages of a snapshot keep its total and its order, and no note stands at two places. */
function trackSnapshot(
  env: Env,
  o: Observation,
  snapshots: Snapshots,
  q: Record<string, unknown>,
  b: Record<string, unknown>,
  total: number | undefined,
  offset: number | undefined,
  items: Array<{ id: string }>,
): Snapshot | undefined {
  const { j } = env;
  const body = objectOf(o.x.json);
  const key = JSON.stringify(b);
  const what = `${o.method} ${o.path}`;
  let s: Snapshot | undefined;
  if (q.snapshot_id === undefined) {
    if (typeof body.snapshot_id !== 'string' || total === undefined) return undefined;
    s = { key, total, startSeq: o.startSeq, startedAt: o.startedAt, at: new Map() };
    if (snapshots.byId.size > 1_000) snapshots.byId.delete(snapshots.byId.keys().next().value!);
    snapshots.byId.set(`${o.actor} ${body.snapshot_id}`, s);
  } else {
    s = typeof q.snapshot_id === 'string' ? snapshots.byId.get(`${o.actor} ${q.snapshot_id}`) : undefined;
    if (!s || s.key !== key) return undefined;
    if (total !== undefined)
      j.that(
        'notes.search.snapshot-frozen',
        total === s.total,
        () => `${what}: total ${total} on a later page of a snapshot whose first page said ${s!.total}`,
        o.x,
      );
  }
  if (offset === undefined) return s;
  // The page at offset k starts with the (k+1)th result: one that starts with the kth (the earlier
  // page's last) and goes on one place back counts its offset from 1, not 0.
  const known = items.filter((_, i) => s!.at.has(offset + i - 1));
  // An empty page shows nothing of where it starts (and matching undefined with undefined is no evidence).
  if (
    offset > 0 &&
    items[0] !== undefined &&
    s.at.get(offset - 1) === items[0].id &&
    items.every((item, i) => [undefined, item.id].includes(s!.at.get(offset + i - 1)))
  ) {
    j.that(
      'notes.search.offset-zero-based',
      false,
      () =>
        `${what}: the page at offset ${offset} starts with note ${items[0]!.id}, place ${offset} of the snapshot` +
        ` (the earlier page's last), and its ${known.length} known item(s) each stand one place back: offset counts from 1`,
      o.x,
    );
    return s;
  }
  // A later page that starts with the result its offset names, counted from 0: the rule held.
  if (offset > 0 && items[0] !== undefined && s.at.get(offset) === items[0].id)
    j.that('notes.search.offset-zero-based', true, () => '', o.x);
  items.forEach((item, i) => {
    const place = offset + i;
    const before = s!.at.get(place);
    if (before !== undefined)
      j.that(
        'notes.search.snapshot-frozen',
        before === item.id,
        () =>
          `${what}: place ${place + 1} of the snapshot holds note ${item.id}; an earlier page of it put ${before} there`,
        o.x,
      );
    for (const [other, id] of s!.at)
      if (id === item.id && other !== place)
        j.that(
          'notes.search.snapshot-pages',
          false,
          () => `${what}: note ${item.id} stands at places ${other + 1} and ${place + 1} of one snapshot`,
          o.x,
        );
    s!.at.set(place, item.id);
  });
  return s;
}

/** GET /v2/notes/{id}/related-notes: the page's size, isolation, items and their collection summaries. */
export function relatedNotes(env: Env, o: Observation): void {
  const { j, world } = env;
  if (o.x.status < 200 || o.x.status >= 300) return;
  const q = o.input ?? {};
  const body = objectOf(o.x.json);
  // No results array: no page to judge (the shape rules, openapi.yaml, say what is wrong).
  if (!Array.isArray(body.results)) return;
  const results: unknown[] = body.results;
  const limit = limitOf(q.limit, 20);
  if (q.limit === undefined || limit !== undefined)
    j.that(
      q.limit === undefined ? 'notes.related.limit-default-10' : 'notes.related.limit-range',
      results.length <= (limit ?? 10),
      () => `${o.method} ${o.path}: ${results.length} related notes, at most ${limit ?? 10} asked`,
      o.x,
    );
  const items = itemsOf(body);
  judgeItems(env, o, items, 'related', { seq: o.startSeq, at: o.startedAt }, { boundsRule: '', collectionRule: '' });
  for (const item of items) {
    // "collections: summaries" of the collections in collection_ids, exactly; judged on the caller's
    // own notes only (another user's shared note may sit in collections the caller cannot see).
    const own = world.notes.get(item.id)?.owner === o.actor;
    if (own && Array.isArray(item.collections) && Array.isArray(item.collection_ids)) {
      const summarised = item.collections.map((s) => objectOf(s).id).sort();
      const listed = [...item.collection_ids].sort();
      j.that(
        'notes.related.collections-match',
        JSON.stringify(summarised) === JSON.stringify(listed),
        () =>
          `${o.method} ${o.path}: related note ${item.id} summarises collections ${JSON.stringify(summarised)},` +
          ` but its collection_ids are ${JSON.stringify(listed)}`,
        o.x,
      );
    }
    for (const summary of Array.isArray(item.collections) ? item.collections : []) {
      const s = objectOf(summary);
      const c = typeof s.id === 'string' ? world.collections.get(s.id) : undefined;
      if (!c || c.deleted || !settled(c.clock, o.startSeq, o.startedAt, env.lagMs)) continue;
      const members = [...(c.members ?? [])].map((id) => world.notes.get(id)?.clock);
      if (members.some((m) => !m || !settled(m, o.startSeq, o.startedAt, env.lagMs))) continue;
      const fields = collectionFields(world, c, 'notes.related.collections-match', 'notes.related.collections-match');
      judgeFields(env, fields, s, o, `${o.method} ${o.path} (collection ${c.id})`);
    }
  }
}

/** A page item under the id of a create the target refused: the refusal created it after all. */
export function refusedCreate(env: Env, kind: 'note' | 'collection', id: string, o: Observation): void {
  const refusal = env.world.refusedCreates.get(`${kind} ${id}`);
  if (refusal)
    env.j.that(
      refusal.rule,
      false,
      () =>
        `${o.method} ${o.path} lists the ${kind} ${id}, though its create was refused` +
        ` (${refusal.by.method} ${refusal.by.path} answered ${refusal.by.status}); a refusal creates nothing`,
      o.x,
      refusal.by,
    );
}
