import { expect } from 'vitest';
import type { SearchCollectionsBody } from '../../kit/core/api.js';
import type { Exchange } from '../harness/index.js';
import { checks, setupOk, show } from '../harness/index.js';

const { check } = checks();

type Item = Record<string, unknown> & { id: string };
const json = (x: Exchange) => (x.json ?? {}) as Record<string, unknown>;
const succeeded = (x: Exchange) => x.status >= 200 && x.status < 300;
const itemsOf = (x: Exchange): Item[] => (Array.isArray(json(x).results) ? (json(x).results as Item[]) : []);

check(
  'a search without a query succeeds with results, total (the number returned) and request_id, and no next_page',
  {
    rules: ['collections.search.query-optional'],
    oracle: [
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
  },
);

check(
  'a rare word of a title finds the collection; items carry note_count and total counts only what is returned',
  {
    rules: ['collections.search.finds-by-title', 'collections.search.parameter-names'],
    oracle: ['collections.search.item-fields', 'collections.search.total-is-count'],
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
    await t.verify('collections.search.finds-by-title', () => {
      expect(
        itemsOf(x).find((i) => i.id === found.id),
        `searching "${word}" finds the collection titled "Garden ${word}": ${show(x)}`,
      ).toBeDefined();
    });
    // Items for the oracle to judge when the title was not found: a search without a query.
    if (itemsOf(x).length === 0) await t.api.searchCollections({});
  },
);

check(
  'search bounds keep only collections inside them, bounds included; a bound needs an offset',
  {
    rules: ['collections.search.parameter-names'],
    oracle: ['collections.search.bounds-filter', 'collections.search.bounds-offset-required'],
  },
  async (t) => {
    const w = t.data.window();
    // One rare word in every title: a search for it that finds one inside the bounds must keep those on them.
    const word = t.data.word();
    for (const [created, updated] of [
      [1_000, 12_000],
      [2_000, 10_000],
      [3_000, 11_000],
      [1_500, 11_500],
    ] as const)
      await t.data.collection(`Bounded ${word}`, { created_at: w.at(created), updated_at: w.at(updated) });
    const search = (body: SearchCollectionsBody) => t.api.searchCollections(body);
    await t.indexed();
    const answers = [
      await search({ created_after: w.at(1_000), created_before: w.at(2_000) }),
      await search({ updated_after: w.at(11_000), updated_before: w.at(12_000) }),
      await search({ query: word, created_after: w.at(1_000), created_before: w.at(2_000) }),
      await search({ query: word, updated_after: w.at(11_000), updated_before: w.at(12_000) }),
    ];
    await t.verify('collections.search.parameter-names', () => {
      for (const x of answers)
        expect(
          succeeded(x),
          `the bounds, sent under the profile's names.collections_search, are honoured: ${show(x)}`,
        ).toBe(true);
    });
    for (const x of answers) setupOk(x, 'search with bounds');
    // One creation-time and one update-time bound: the budget of a remote run does not stretch to all four.
    for (const bound of ['created_before', 'updated_after'] as const) await search({ [bound]: '2010-05-06T07:08:09' });
  },
);
