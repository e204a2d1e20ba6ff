import { expect } from 'vitest';
import type { ListCollectionsQuery } from '../../kit/core/api.js';
import type { TimeWindow } from '../harness/data.js';
import type { CheckContext, Exchange } from '../harness/index.js';
import { checks, expectDeclaredStatus, expectRefused, KitError, setupOk, show } from '../harness/index.js';

const { check } = checks();

type Item = Record<string, unknown> & { id: string };
const json = (x: Exchange) => (x.json ?? {}) as Record<string, unknown>;
const succeeded = (x: Exchange) => x.status >= 200 && x.status < 300;
const itemsOf = (x: Exchange): Item[] => (Array.isArray(json(x).results) ? (json(x).results as Item[]) : []);
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

/** Problems of a list response's own fields (items are collections.list.item-fields' business). */
function envelopeProblems(x: Exchange): string[] {
  const body = json(x);
  const problems: string[] = [];
  if (!Array.isArray(body.results)) problems.push('results is not an array');
  if (!Number.isInteger(body.total) || (body.total as number) < 0)
    problems.push(`total is not a non-negative integer (${JSON.stringify(body.total)})`);
  if (!('next_page' in body)) problems.push('next_page is absent');
  else if (body.next_page !== null && typeof body.next_page !== 'string')
    problems.push(`next_page is neither a string nor null (${JSON.stringify(body.next_page)})`);
  if (typeof body.request_id !== 'string') problems.push('request_id is not a string');
  return problems;
}

/** Whether the values run one way throughout (either direction). */
function monotonic(values: number[]): boolean {
  const up = values.every((v, i) => i === 0 || values[i - 1]! <= v);
  const down = values.every((v, i) => i === 0 || values[i - 1]! >= v);
  return up || down;
}

const times = (items: Item[], field: 'created_at' | 'updated_at') => items.map((i) => Date.parse(String(i[field])));

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

const sortedIds = (items: Item[]) => items.map((i) => i.id).sort();

/** The refusal of a cursor reused with other filters: the declared status, or any 4xx without one. */
function expectCursorRefused(t: CheckContext, x: Exchange, what: string): void {
  expectDeclaredStatus(x, 'cursor_mismatch', t.profile.statuses!.cursor_mismatch!, what);
}

check(
  'limit 1..100 and order_by created_at or updated_at are accepted, others refused; a page has results, total, next_page and request_id',
  {
    rules: ['collections.list.limit-range', 'collections.list.order-by-values', 'collections.list.response-fields'],
  },
  async (t) => {
    // At least two collections exist, so a page of limit 1 has to leave some out.
    await t.data.collection();
    await t.data.collection();
    const one = await t.api.listCollections({ limit: 1, order_by: 'created_at' });
    const hundred = await t.api.listCollections({ limit: 100, order_by: 'updated_at' });
    await t.verify('collections.list.limit-range', () => {
      expect(succeeded(one), `limit 1 is allowed: ${show(one)}`).toBe(true);
      expect(itemsOf(one).length, 'a page of limit 1 holds at most one collection').toBeLessThanOrEqual(1);
      expect(succeeded(hundred), `limit 100 is allowed: ${show(hundred)}`).toBe(true);
      expect(itemsOf(hundred).length, 'a page of limit 100 holds at most 100 collections').toBeLessThanOrEqual(100);
    });
    await t.verify('collections.list.order-by-values', () => {
      expect(succeeded(one), `order_by=created_at is allowed: ${show(one)}`).toBe(true);
      expect(succeeded(hundred), `order_by=updated_at is allowed: ${show(hundred)}`).toBe(true);
    });
    await t.verify('collections.list.response-fields', () => {
      for (const x of [one, hundred]) expect(envelopeProblems(x), `the list response: ${show(x)}`).toEqual([]);
    });
    // The document types limit as an integer: a fraction inside the range is refused too.
    for (const limit of [0, 101, '1.5']) {
      const x = await t.api.listCollections({ limit });
      await t.verify('collections.list.limit-range', () => expectRefused(x, `a collection list with limit ${limit}`));
    }
    for (const orderBy of ['title', 'created']) {
      const x = await t.api.listCollections({ order_by: orderBy });
      await t.verify('collections.list.order-by-values', () =>
        expectRefused(x, `a collection list with order_by=${orderBy}`),
      );
    }
  },
);

check(
  'paging a window of collections visits each once, in order_by order, with total and a null next_page at the end',
  {
    rules: [
      'collections.list.cursor-pages',
      'collections.list.total-before-pagination',
      'collections.list.next-page-null-at-end',
      'collections.list.order-by-honoured',
      'collections.list.order-by-default-updated-at',
      'collections.list.item-fields',
      'collections.list.parameter-names',
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
    const held = seeded[2]!;
    await t.data.note(undefined, { collection_ids: [held.id] });
    const ids = seeded.map((s) => s.id).sort();
    const bounds = { created_after: w.at(0), created_before: w.at(60_000) };
    // Five collections, pages of two: two full pages and a last one.
    const byCreated = await pages(t, { ...bounds, order_by: 'created_at', limit: 2 }, 5);
    const byUpdated = await pages(t, { ...bounds, order_by: 'updated_at', limit: 2 }, 5);
    const all = await t.api.listCollections({ ...bounds, limit: 10 });
    await t.verify('collections.list.parameter-names', () => {
      for (const x of [...byCreated, ...byUpdated, all]) {
        expect(
          succeeded(x),
          `the cursor and bounds, sent under the profile's names.collections_list, are honoured: ${show(x)}`,
        ).toBe(true);
      }
    });
    for (const x of [...byCreated, ...byUpdated, all]) setupOk(x, 'list a page of the window');
    if (JSON.stringify(sortedIds(itemsOf(all))) !== JSON.stringify(ids)) {
      throw new KitError(
        `the creation-time bounds did not return exactly the ${ids.length} collections of the window (see collections.list.bounds-filter): ${show(all)}`,
      );
    }
    await t.verify('collections.list.cursor-pages', () => {
      for (const [what, run] of [
        ['created_at', byCreated],
        ['updated_at', byUpdated],
      ] as const) {
        expect(
          sortedIds(run.flatMap(itemsOf)),
          `following next_page (order_by=${what}) visits every collection exactly once`,
        ).toEqual(ids);
      }
    });
    await t.verify('collections.list.total-before-pagination', () => {
      for (const x of [...byCreated, ...byUpdated])
        expect(json(x).total, `total counts all ${ids.length} matches on every page: ${show(x)}`).toBe(ids.length);
    });
    await t.verify('collections.list.next-page-null-at-end', () => {
      for (const run of [byCreated, byUpdated]) {
        for (const x of run.slice(0, -1)) {
          expect(typeof json(x).next_page, `next_page is a string while collections remain: ${show(x)}`).toBe('string');
        }
        const last = json(run[run.length - 1]!);
        expect(last, 'the last page carries next_page').toHaveProperty('next_page');
        expect(last.next_page, 'next_page is null on the last page').toBeNull();
      }
      expect(json(all), 'a page holding every match carries next_page').toHaveProperty('next_page');
      expect(json(all).next_page, 'next_page is null when nothing remains').toBeNull();
    });
    await t.verify('collections.list.order-by-honoured', () => {
      const created = times(byCreated.flatMap(itemsOf), 'created_at');
      expect(
        monotonic(created),
        `order_by=created_at runs by created_at across pages: ${created.map((v) => new Date(v).toISOString()).join(', ')}`,
      ).toBe(true);
      const updated = times(byUpdated.flatMap(itemsOf), 'updated_at');
      expect(
        monotonic(updated),
        `order_by=updated_at runs by updated_at across pages: ${updated.map((v) => new Date(v).toISOString()).join(', ')}`,
      ).toBe(true);
    });
    await t.verify('collections.list.order-by-default-updated-at', () => {
      const updated = times(itemsOf(all), 'updated_at');
      expect(
        monotonic(updated),
        `without order_by the list runs by updated_at: ${updated.map((v) => new Date(v).toISOString()).join(', ')}`,
      ).toBe(true);
    });
    await t.verify('collections.list.item-fields', () => {
      for (const item of [...byCreated, ...byUpdated, all].flatMap(itemsOf)) {
        expect(
          t.kit.schemas.validate('CollectionItem', item, { strict: t.ctx.strict }),
          `list item ${JSON.stringify(item)}`,
        ).toEqual([]);
      }
    });
    await t.verify('collections.read.note-count', () => {
      for (const item of itemsOf(all))
        expect(item.note_count, `note_count of list item ${item.id}`).toBe(item.id === held.id ? 1 : 0);
    });
    const cursor = json(byCreated[0]!).next_page as string;
    const otherOrder = await t.api.listCollections({ ...bounds, order_by: 'updated_at', limit: 2, cursor });
    const otherBounds = await t.api.listCollections({
      ...bounds,
      created_before: w.at(50_000),
      order_by: 'created_at',
      limit: 2,
      cursor,
    });
    // The document only tells clients to reuse a cursor with the same filters; a refusal, and its
    // status, are the profile's to declare.
    if (!t.declares('statuses.cursor_mismatch')) {
      t.skipRule('collections.list.cursor-filter-mismatch', 'the profile declares no statuses.cursor_mismatch');
      return;
    }
    await t.verify('collections.list.cursor-filter-mismatch', () => {
      expectCursorRefused(t, otherOrder, 'a cursor reused with another order_by');
      expectCursorRefused(t, otherBounds, 'a cursor reused with other bounds');
    });
  },
);

check(
  'creation-time and update-time bounds keep exactly the collections inside them, bounds included; a bound needs an offset',
  {
    rules: [
      'collections.list.bounds-filter',
      'collections.list.bounds-inclusive',
      'collections.list.bounds-offset-required',
      'collections.list.parameter-names',
    ],
  },
  async (t) => {
    const w = t.data.window();
    const [a, b, c, d] = await seed(t, w, [1_000, 2_000, 3_000, 4_000], [13_000, 11_000, 14_000, 12_000]);
    const list = (q: ListCollectionsQuery) => t.api.listCollections({ limit: 10, ...q });
    const createdBetween = await list({ created_after: w.at(1_500), created_before: w.at(3_500) });
    const updatedBetween = await list({ updated_after: w.at(11_500), updated_before: w.at(13_500) });
    const createdOn = await list({ created_after: w.at(2_000), created_before: w.at(3_000) });
    const allOn = await list({
      created_after: w.at(1_000),
      created_before: w.at(4_000),
      updated_after: w.at(12_000),
      updated_before: w.at(14_000),
    });
    await t.verify('collections.list.parameter-names', () => {
      for (const x of [createdBetween, updatedBetween, createdOn, allOn]) {
        expect(
          succeeded(x),
          `the bounds, sent under the profile's names.collections_list, are honoured: ${show(x)}`,
        ).toBe(true);
      }
    });
    for (const x of [createdBetween, updatedBetween, createdOn, allOn]) setupOk(x, 'list with bounds');
    await t.verify('collections.list.bounds-filter', () => {
      expect(
        sortedIds(itemsOf(createdBetween)),
        'creation-time bounds keep the collections created inside them',
      ).toEqual([b!.id, c!.id].sort());
      expect(sortedIds(itemsOf(updatedBetween)), 'update-time bounds keep the collections updated inside them').toEqual(
        [a!.id, d!.id].sort(),
      );
    });
    await t.verify('collections.list.bounds-inclusive', () => {
      expect(sortedIds(itemsOf(createdOn)), 'collections created exactly on either bound are included').toEqual(
        [b!.id, c!.id].sort(),
      );
      expect(sortedIds(itemsOf(allOn)), 'collections on the creation-time and update-time bounds are included').toEqual(
        [a!.id, c!.id, d!.id].sort(),
      );
    });
    // One creation-time and one update-time bound: the budget of a remote run does not stretch to all four.
    for (const bound of ['created_after', 'updated_before'] as const) {
      const x = await list({ [bound]: '2010-05-06T07:08:09' });
      await t.verify('collections.list.bounds-offset-required', () =>
        expectRefused(x, `a list whose ${bound} bound has no timezone offset`),
      );
    }
  },
);

check(
  'the list runs in the direction the profile declares',
  {
    rules: ['collections.list.order-direction'],
    needs: ['profile:list_order', ...CREATED_BOUNDS],
  },
  async (t) => {
    const w = t.data.window();
    const [a, b, c] = await seed(t, w, [1_000, 2_000, 3_000], [9_000, 7_000, 8_000]);
    const bounds = { created_after: w.at(0), created_before: w.at(60_000), limit: 10 };
    const byUpdated = setupOk(await t.api.listCollections({ ...bounds, order_by: 'updated_at' }), 'list by updated_at');
    const byCreated = setupOk(await t.api.listCollections({ ...bounds, order_by: 'created_at' }), 'list by created_at');
    const newestFirst = t.profile.list_order === 'newest_first';
    const direct = (ascending: string[]) => (newestFirst ? [...ascending].reverse() : ascending);
    await t.verify('collections.list.order-direction', () => {
      expect(
        (byUpdated.results as Item[]).map((i) => i.id),
        `order_by=updated_at runs ${t.profile.list_order}`,
      ).toEqual(direct([b!.id, c!.id, a!.id]));
      expect(
        (byCreated.results as Item[]).map((i) => i.id),
        `order_by=created_at runs ${t.profile.list_order}`,
      ).toEqual(direct([a!.id, b!.id, c!.id]));
    });
  },
);

check(
  'without limit a page holds 50 collections when more match',
  {
    rules: ['collections.list.limit-default-50'],
    needs: [{ collections: 51 }, ...CREATED_BOUNDS],
  },
  async (t) => {
    const w = t.data.window();
    for (let i = 0; i < 51; i++) await t.data.collection(`Many ${t.data.word()}`, { created_at: w.at(1_000 + i) });
    const x = await t.api.listCollections({ created_after: w.at(0), created_before: w.at(60_000) });
    setupOk(x, 'list the window without limit');
    await t.verify('collections.list.limit-default-50', () => {
      expect(itemsOf(x).length, 'the default page size is 50').toBe(50);
      expect(typeof json(x).next_page, 'a 51st collection remains').toBe('string');
    });
  },
);
