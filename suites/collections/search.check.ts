import { expect } from 'vitest';
import type { SearchCollectionsBody } from '../../kit/core/api.js';
import type { Exchange } from '../harness/index.js';
import { checks, expectRefused, KitError, setupOk, show } from '../harness/index.js';

const { check } = checks();

type Item = Record<string, unknown> & { id: string };
const json = (x: Exchange) => (x.json ?? {}) as Record<string, unknown>;
const succeeded = (x: Exchange) => x.status >= 200 && x.status < 300;
const itemsOf = (x: Exchange): Item[] => (Array.isArray(json(x).results) ? (json(x).results as Item[]) : []);
const sortedIds = (items: Item[]) => items.map((i) => i.id).sort();

/** Problems of a search response's own fields (items are collections.search.item-fields' business). */
function envelopeProblems(x: Exchange): string[] {
  const body = json(x);
  const problems: string[] = [];
  if (!Array.isArray(body.results)) problems.push('results is not an array');
  if (!Number.isInteger(body.total) || (body.total as number) < 0)
    problems.push(`total is not a non-negative integer (${JSON.stringify(body.total)})`);
  if (typeof body.request_id !== 'string') problems.push('request_id is not a string');
  return problems;
}

check(
  'a search without a query succeeds with results, total (the number returned) and request_id, and no next_page',
  {
    rules: [
      'collections.search.query-optional',
      'collections.search.response-fields',
      'collections.search.total-is-count',
      'collections.search.no-next-page',
    ],
  },
  async (t) => {
    // Whatever the account holds: these rules hold for an empty result as much as for a full one.
    const x = await t.api.searchCollections({});
    await t.verify('collections.search.query-optional', () => {
      expect(succeeded(x), `a collection search without a query is allowed: ${show(x)}`).toBe(true);
    });
    setupOk(x, 'search collections without a query');
    await t.verify('collections.search.response-fields', () => {
      expect(envelopeProblems(x), `the search response: ${show(x)}`).toEqual([]);
    });
    // The value is judged here; its type is collections.search.response-fields' business.
    await t.verify('collections.search.total-is-count', () => {
      expect(Number(json(x).total), 'total is the number of results returned').toBe(itemsOf(x).length);
    });
    await t.verify('collections.search.no-next-page', () => {
      expect(json(x), 'collection search has no paging: no next_page at all').not.toHaveProperty('next_page');
    });
  },
);

check(
  'a rare word of a title finds the collection; items carry note_count and total counts only what is returned',
  {
    rules: [
      'collections.search.finds-by-title',
      'collections.search.item-fields',
      'collections.search.total-is-count',
      'collections.search.parameter-names',
      'collections.read.note-count',
    ],
  },
  async (t) => {
    const word = t.data.word();
    const found = await t.data.collection(`Garden ${word}`, { description: 'Seeds, soil and watering' });
    // A second collection, not matching, so "every visible collection" and "the matches" differ.
    await t.data.collection(`Kitchen ${t.data.word()}`, { description: 'Pots and pans' });
    await t.data.note(undefined, { collection_ids: [found.id] });
    const x = await t.api.searchCollections({ query: word });
    await t.verify('collections.search.parameter-names', () => {
      expect(
        succeeded(x),
        `the query, sent as the profile's names.collections_search.query, is honoured: ${show(x)}`,
      ).toBe(true);
    });
    setupOk(x, 'search collections for a title word');
    const hit = itemsOf(x).find((i) => i.id === found.id);
    await t.verify('collections.search.finds-by-title', () => {
      expect(hit, `searching "${word}" finds the collection titled "Garden ${word}": ${show(x)}`).toBeDefined();
    });
    await t.verify('collections.search.total-is-count', () => {
      expect(Number(json(x).total), `total is the number of results returned: ${show(x)}`).toBe(itemsOf(x).length);
    });
    // Items to judge: the hits, or else (a target that did not find the title) a search without a query.
    const items = itemsOf(x).length > 0 ? itemsOf(x) : itemsOf(await t.api.searchCollections({}));
    if (items.length === 0)
      throw new KitError('no collection search returned any item, so item fields cannot be judged');
    await t.verify('collections.search.item-fields', () => {
      for (const item of items)
        expect(
          t.kit.schemas.validate('CollectionItem', item, { strict: t.ctx.strict }),
          `search item ${JSON.stringify(item)}`,
        ).toEqual([]);
    });
    if (hit) {
      await t.verify('collections.read.note-count', () => {
        expect(hit.note_count, 'note_count in a search item counts the active note the collection holds').toBe(1);
      });
    }
  },
);

check(
  'search bounds keep only collections inside them, bounds included; a bound needs an offset',
  {
    rules: [
      'collections.search.bounds-filter',
      'collections.search.bounds-offset-required',
      'collections.search.parameter-names',
    ],
  },
  async (t) => {
    const w = t.data.window();
    const seeded = [];
    for (const [created, updated] of [
      [1_000, 12_000],
      [2_000, 10_000],
      [3_000, 11_000],
    ] as const) {
      seeded.push(
        await t.data.collection(`Bounded ${t.data.word()}`, { created_at: w.at(created), updated_at: w.at(updated) }),
      );
    }
    const [a, b, c] = seeded;
    const search = (body: SearchCollectionsBody) => t.api.searchCollections(body);
    const byCreated = await search({ created_after: w.at(1_000), created_before: w.at(2_000) });
    const byUpdated = await search({ updated_after: w.at(11_000), updated_before: w.at(12_000) });
    await t.verify('collections.search.parameter-names', () => {
      for (const x of [byCreated, byUpdated])
        expect(
          succeeded(x),
          `the bounds, sent under the profile's names.collections_search, are honoured: ${show(x)}`,
        ).toBe(true);
    });
    for (const x of [byCreated, byUpdated]) setupOk(x, 'search with bounds');
    await t.verify('collections.search.bounds-filter', () => {
      // Only the window's collections lie inside these bounds, so the results are exactly them.
      expect(
        sortedIds(itemsOf(byCreated)),
        'creation-time bounds keep the collections created inside them, both bounds included',
      ).toEqual([a!.id, b!.id].sort());
      expect(
        sortedIds(itemsOf(byUpdated)),
        'update-time bounds keep the collections updated inside them, both bounds included',
      ).toEqual([a!.id, c!.id].sort());
    });
    // One creation-time and one update-time bound: the budget of a remote run does not stretch to all four.
    for (const bound of ['created_before', 'updated_after'] as const) {
      const x = await search({ [bound]: '2010-05-06T07:08:09' });
      await t.verify('collections.search.bounds-offset-required', () =>
        expectRefused(x, `a search whose ${bound} bound has no timezone offset`),
      );
    }
  },
);
