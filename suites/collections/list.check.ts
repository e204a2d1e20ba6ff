import { expect } from 'vitest';
import type { ListCollectionsQuery } from '../../kit/core/api.js';
import type { TimeWindow } from '../harness/data.js';
import type { CheckContext, Exchange } from '../harness/index.js';
import { checks, setupOk, show } from '../harness/index.js';

const { check } = checks();

const json = (x: Exchange) => (x.json ?? {}) as Record<string, unknown>;
const succeeded = (x: Exchange) => x.status >= 200 && x.status < 300;
const CREATED_BOUNDS = [
  'profile:names.collections_list.created_after',
  'profile:names.collections_list.created_before',
] as const;

/** Collections backdated into a window: created at `created[i]`, updated at `updated[i]` (offsets in ms). */
async function seed(
  t: CheckContext,
  w: TimeWindow,
  created: number[],
  updated: number[],
): Promise<Array<{ id: string; created: number; updated: number }>> {
  const out = [];
  for (const [i, c] of created.entries()) {
    const ref = await t.data.collection(`List ${t.data.word()}`, {
      created_at: w.at(c),
      updated_at: w.at(updated[i]!),
    });
    out.push({ id: ref.id, created: w.ms(c), updated: w.ms(updated[i]!) });
  }
  return out;
}

/**
 * Follows next_page from a first page, stopping at the first answer that is not a success or
 * after `maxPages`, so a cursor that never ends cannot loop. Returns every exchange in order.
 */
async function pages(t: CheckContext, query: ListCollectionsQuery, maxPages: number): Promise<Exchange[]> {
  const out = [await t.api.listCollections(query)];
  while (out.length < maxPages) {
    const last = out[out.length - 1]!;
    const next = json(last).next_page;
    if (!succeeded(last) || typeof next !== 'string') break;
    out.push(await t.api.listCollections({ ...query, cursor: next }));
  }
  return out;
}

/** The profile's names.collections_list (cursor, bounds) are honoured: every page answered a success. */
async function namesHonoured(t: CheckContext, xs: readonly Exchange[], what: string): Promise<void> {
  await t.verify('collections.list.parameter-names', () => {
    for (const x of xs)
      expect(succeeded(x), `${what}, sent under the profile's names.collections_list, are honoured: ${show(x)}`).toBe(
        true,
      );
  });
  for (const x of xs) setupOk(x, `list with ${what}`);
}

check(
  'limit 1..100 and order_by created_at or updated_at are accepted, others refused; a page has results, total, next_page and request_id',
  {
    oracle: ['collections.list.limit-range', 'collections.list.order-by-values', 'collections.list.response-fields'],
  },
  async (t) => {
    // At least two collections exist, so a page of limit 1 has to leave some out.
    await t.data.collection();
    await t.data.collection();
    await t.api.listCollections({ limit: 1, order_by: 'created_at' });
    await t.api.listCollections({ limit: 100, order_by: 'updated_at' });
    // The document types limit as an integer: a fraction inside the range is refused too.
    for (const limit of [0, 101, '1.5']) await t.api.listCollections({ limit });
    for (const orderBy of ['title', 'created']) await t.api.listCollections({ order_by: orderBy });
  },
);

check(
  'paging a window of collections visits each once, in order_by order, with total and a null next_page at the end',
  {
    rules: ['collections.list.parameter-names'],
    oracle: [
      'collections.list.cursor-pages',
      'collections.list.total-before-pagination',
      'collections.list.next-page-null-at-end',
      'collections.list.order-by-honoured',
      'collections.list.order-by-default-updated-at',
      'collections.list.item-fields',
      'collections.list.cursor-filter-mismatch',
      'collections.read.note-count',
    ],
    needs: CREATED_BOUNDS,
  },
  async (t) => {
    const w = t.data.window();
    // The update order is a shuffle of the creation order (neither the same nor reversed), so
    // ordering by the wrong field is not monotonic in the right one, whatever the direction.
    const seeded = await seed(
      t,
      w,
      [1, 2, 3, 4, 5].map((k) => k * 1_000),
      [3, 0, 4, 1, 2].map((k) => 100_000 + k * 1_000),
    );
    await t.data.note(undefined, { collection_ids: [seeded[2]!.id] });
    const bounds = { created_after: w.at(0), created_before: w.at(60_000) };
    // Five collections, pages of two: two full pages and a last one.
    const byCreated = await pages(t, { ...bounds, order_by: 'created_at', limit: 2 }, 5);
    const byUpdated = await pages(t, { ...bounds, order_by: 'updated_at', limit: 2 }, 5);
    const all = await t.api.listCollections({ ...bounds, limit: 10 });
    await namesHonoured(t, [...byCreated, ...byUpdated, all], 'the cursor and bounds');
    // The document only tells clients to reuse a cursor with the same filters; a refusal, and its
    // status, are the profile's to declare (the oracle judges it where the profile declares one).
    if (!t.declares('statuses.cursor_mismatch'))
      t.skipRule('collections.list.cursor-filter-mismatch', 'the profile declares no statuses.cursor_mismatch');
    const cursor = json(byCreated[0]!).next_page as string;
    await t.api.listCollections({ ...bounds, order_by: 'updated_at', limit: 2, cursor });
    await t.api.listCollections({ ...bounds, created_before: w.at(50_000), order_by: 'created_at', limit: 2, cursor });
  },
);

check(
  'creation-time and update-time bounds keep exactly the collections inside them, bounds included; a bound needs an offset',
  {
    rules: ['collections.list.parameter-names'],
    oracle: [
      'collections.list.bounds-filter',
      'collections.list.bounds-inclusive',
      'collections.list.bounds-offset-required',
    ],
  },
  async (t) => {
    const w = t.data.window();
    await seed(t, w, [1_000, 2_000, 3_000, 4_000], [13_000, 11_000, 14_000, 12_000]);
    const list = (q: ListCollectionsQuery) => t.api.listCollections({ limit: 10, ...q });
    const answers = [
      await list({ created_after: w.at(1_500), created_before: w.at(3_500) }),
      await list({ updated_after: w.at(11_500), updated_before: w.at(13_500) }),
      await list({ created_after: w.at(2_000), created_before: w.at(3_000) }),
      await list({
        created_after: w.at(1_000),
        created_before: w.at(4_000),
        updated_after: w.at(12_000),
        updated_before: w.at(14_000),
      }),
    ];
    await namesHonoured(t, answers, 'the bounds');
    // One creation-time and one update-time bound: the budget of a remote run does not stretch to all four.
    for (const bound of ['created_after', 'updated_before'] as const) await list({ [bound]: '2010-05-06T07:08:09' });
  },
);

check(
  'the list runs in the direction the profile declares',
  { oracle: ['collections.list.order-direction'], needs: ['profile:list_order', ...CREATED_BOUNDS] },
  async (t) => {
    const w = t.data.window();
    await seed(t, w, [1_000, 2_000, 3_000], [9_000, 7_000, 8_000]);
    const bounds = { created_after: w.at(0), created_before: w.at(60_000), limit: 10 };
    await t.api.listCollections({ ...bounds, order_by: 'updated_at' });
    await t.api.listCollections({ ...bounds, order_by: 'created_at' });
  },
);

check(
  'without limit a page holds 50 collections when more match',
  { oracle: ['collections.list.limit-default-50'], needs: [{ collections: 51 }, ...CREATED_BOUNDS] },
  async (t) => {
    const w = t.data.window();
    for (let i = 0; i < 51; i++) await t.data.collection(`Many ${t.data.word()}`, { created_at: w.at(1_000 + i) });
    await t.api.listCollections({ created_after: w.at(0), created_before: w.at(60_000) });
  },
);
