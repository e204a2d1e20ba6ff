import type { Exchange } from '../core/client.js';
import { BOUND_KEYS, type BoundKey, type BoundPattern, boundCandidates, nameCandidates } from './candidates.js';
import { type Finding, isObserved, notObserved, observed } from './findings.js';
import type { ProbeCollections } from './probe-data.js';
import { MAX_REQUESTS, type ProbeSession } from './session.js';
import { resultIds } from './titles-and-order.js';
import { confirmed, failedAnswer, firstConfirmed, notConfirmed } from './trials.js';

/**
 * The names of GET /v2/collections and POST /v2/collections/search the document does not show,
 * confirmed on the probe's three backdated collections: each time bound, honoured, leaves out the
 * one collection made to fall outside it alone; the query keeps the one collection whose title has its
 * word; the list cursor moves to another collection.
 */

export type CollectionsListSlot = 'cursor' | BoundKey;
export type CollectionsSearchSlot = 'query' | BoundKey;

export interface CollectionsNameFindings {
  list: Record<CollectionsListSlot, Finding<string>>;
  search: Record<CollectionsSearchSlot, Finding<string>>;
}

const ids = (x: Exchange) => new Set(resultIds(x));

/** The bounds sent together, and the probe collection each leaves out (relative to its instant). */
const PAIRS: ReadonlyArray<readonly [BoundKey, BoundKey]> = [
  ['created_after', 'created_before'],
  ['updated_after', 'updated_before'],
];
const OUTSIDE: Record<BoundKey, ['early' | 'late', string]> = {
  created_after: ['early', 'created before it'],
  created_before: ['late', 'created after it'],
  updated_after: ['early', 'updated before it'],
  updated_before: ['late', 'updated after it'],
};

/**
 * Tries bound patterns until each bound is confirmed, a pair a request (created, then updated): a
 * name is confirmed when the answer keeps the inside collection and leaves out the one its bound
 * alone excludes. A pattern whose first pair is refused is not tried further.
 */
async function probeBounds(
  s: ProbeSession,
  c: ProbeCollections,
  patterns: readonly BoundPattern[],
  send: (params: Record<string, string>) => Promise<Exchange>,
  where: string,
): Promise<Record<BoundKey, Finding<string>>> {
  const found: Partial<Record<BoundKey, Finding<string>>> = {};
  const tried: string[] = [];
  tries: for (const pattern of patterns) {
    for (const pair of PAIRS) {
      const open = pair.filter((k) => found[k] === undefined);
      if (open.length === 0) continue;
      const label = open.map((k) => pattern[k]).join(', ');
      if (!s.affords(1)) {
        tried.push(`the probe's ${MAX_REQUESTS} requests left no room to try ${label}`);
        break tries;
      }
      const x = await send(Object.fromEntries(open.map((k) => [pattern[k], c.bounds[k]])));
      const failed = failedAnswer(x);
      const kept = ids(x);
      if (failed || !kept.has(c.inside)) {
        tried.push(`${label} ${failed ?? 'left out the collection inside the bounds'}`);
        continue tries;
      }
      for (const k of open) {
        const [which, words] = OUTSIDE[k];
        if (kept.has(c[which])) {
          tried.push(`${pattern[k]} left in the collection ${words}`);
          continue;
        }
        found[k] = observed(
          pattern[k],
          `${where} with ${open.map((o) => pattern[o]).join(' and ')} kept the probe collection inside the bounds ` +
            `and left out the one ${words}`,
        );
      }
    }
  }
  const why = `no candidate was confirmed: ${tried.join('; ')}`;
  return Object.fromEntries(BOUND_KEYS.map((k) => [k, found[k] ?? notObserved(why)])) as Record<
    BoundKey,
    Finding<string>
  >;
}

async function probeListCursor(s: ProbeSession): Promise<Finding<string>> {
  if (!s.affords(2)) return notObserved("the probe's requests ran out before the collection list cursor");
  const list = (query: Record<string, string | number>) =>
    s.attempt('listCollections', { method: 'GET', path: '/v2/collections', query: { limit: 1, ...query } });
  const first = await list({});
  const next = (first.json as { next_page?: unknown } | undefined)?.next_page;
  const firstId = resultIds(first)[0];
  if (failedAnswer(first) || typeof next !== 'string' || firstId === undefined)
    return notObserved(`the first page of collections with limit 1 ${failedAnswer(first) ?? 'had no next_page'}`);
  return firstConfirmed(
    s,
    nameCandidates('collections_list.cursor'),
    (n) => `${n}=<next_page>`,
    async (n) => {
      const x = await list({ [n]: next });
      const failed = failedAnswer(x);
      if (failed) return notConfirmed(failed);
      const second = resultIds(x)[0];
      if (second === undefined) return notConfirmed('served an empty page');
      if (second === firstId) return notConfirmed('served the first page again');
      return confirmed('the first page (limit 1) and the page its next_page led to held different collections');
    },
  );
}

export async function probeCollectionsNames(s: ProbeSession, c: ProbeCollections): Promise<CollectionsNameFindings> {
  const listBounds = await probeBounds(
    s,
    c,
    boundCandidates('collections_list'),
    (params) =>
      s.attempt('listCollections', {
        method: 'GET',
        path: '/v2/collections',
        query: { limit: 100, order_by: 'created_at', ...params },
      }),
    'GET /v2/collections',
  );
  const cursor = await probeListCursor(s);
  const search = (body: Record<string, unknown>) =>
    s.attempt('searchCollections', { method: 'POST', path: '/v2/collections/search', json: body });
  const query = await firstConfirmed(
    s,
    nameCandidates('collections_search.query'),
    (n) => `${n}: <word>`,
    async (n) => {
      const x = await search({ [n]: c.insideWord });
      const failed = failedAnswer(x);
      if (failed) return notConfirmed(failed);
      const kept = ids(x);
      const mine = [c.inside, c.early, c.late].filter((id) => kept.has(id));
      if (mine.length === 1 && mine[0] === c.inside)
        return confirmed("kept, of the probe's three collections, only the one whose title holds the word");
      return notConfirmed(`kept ${mine.length} of the probe's three collections (expected the one with the word)`);
    },
  );
  // The list's pattern first: a target tends to name the bounds alike in both places.
  const listPattern = BOUND_KEYS.every((k) => isObserved(listBounds[k]))
    ? [Object.fromEntries(BOUND_KEYS.map((k) => [k, (listBounds[k] as { value: string }).value])) as BoundPattern]
    : [];
  const searchBounds = isObserved(query)
    ? await probeBounds(
        s,
        c,
        boundCandidates('collections_search', listPattern),
        (params) => search({ [query.value]: c.word, ...params }),
        'POST /v2/collections/search',
      )
    : (Object.fromEntries(
        BOUND_KEYS.map((k) => [k, notObserved('needs the search query name, to find the probe collections')]),
      ) as Record<BoundKey, Finding<string>>);
  return { list: { cursor, ...listBounds }, search: { query, ...searchBounds } };
}
