import { expect } from 'vitest';
import { containsCases } from '../harness/contains-cases.js';
import type { TimeWindow } from '../harness/data.js';
import { type CheckContext, checks, type Exchange, KitError, show } from '../harness/index.js';
import { perFile } from '../harness/shared.js';
import { idsOf, items, notHonoured, refused, requireFound, searchFinding, withOffset } from './search-helpers.js';

const { check } = checks();

/**
 * One data set for the file, made by the first check that needs it and only read afterwards,
 * so every check still runs alone: five notes holding a word of this run, created 0..4 s into
 * a fresh window and updated in another order, each with one kind of content; where the profile
 * names the collection filter (so that its check runs), the open-task note in one fresh collection
 * and the done-task note in another.
 */
interface Fixture {
  word: string;
  w: TimeWindow;
  ids: string[];
  kinds: { open: string; done: string; image: string; file: string; plain: string };
  /** Only when the collection filter's check can run (the cost of a run: two collections made and deleted). */
  collections?: [string, string];
  /** Made once, when a filter leaves out a note it should keep: does the unfiltered search find them all? */
  found?: Promise<void>;
}

const UPDATED_RANK = [3, 0, 4, 1, 2];
/** The declaration the collection filter's check needs (its rule's `needs`): without it, no collections. */
const COLLECTION_FILTER_NAME = 'names.notes_search.collections';

const fixture = perFile(async (t: CheckContext): Promise<Fixture> => {
  const m = t.profile.content_markers ?? {};
  const word = t.data.word();
  const w = t.data.window();
  const collections: [string, string] | undefined = t.declares(COLLECTION_FILTER_NAME)
    ? [(await t.data.collection()).id, (await t.data.collection()).id]
    : undefined;
  const bodies = [m.open_task, m.done_task, m.image, m.file, undefined];
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push(
      (
        await t.data.note(t.data.content(`Filtered ${i} ${word}`, bodies[i] ?? 'nothing to filter for'), {
          created_at: w.at(i * 1000),
          updated_at: w.at(10_000 + UPDATED_RANK[i]! * 1000),
          ...(collections && i < 2 ? { collection_ids: [collections[i]] } : {}),
        })
      ).id,
    );
  }
  const [open, done, image, file, plain] = ids as [string, string, string, string, string];
  // Filters are judged on what the index holds: wait (bounded by search_index_lag_ms) until it holds all five.
  await searchFinding(t, word, ids);
  return { word, w, ids, kinds: { open, done, image, file, plain }, ...(collections ? { collections } : {}) };
});

/** When a filter leaves out a note it should keep, first make sure the search finds the notes at all. */
async function beforeJudgingKept(t: CheckContext, f: Fixture, x: Exchange, keep: readonly string[]): Promise<void> {
  if (x.status === 200 && keep.some((id) => !idsOf(x).includes(id))) await (f.found ??= requireFound(t, f.word, f.ids));
}

check(
  'search time bounds keep only the notes inside them, those exactly on a bound included',
  {
    rules: ['notes.search.bounds-filter', 'notes.search.bounds-inclusive'],
  },
  async (t) => {
    const f = await fixture(t);
    const { w, ids } = f;
    const pick = (keep: (i: number, rank: number) => boolean) => ids.filter((_, i) => keep(i, UPDATED_RANK[i]!));
    // created_at bounds on notes 1 and 3 exactly (one written at +01:00); updated_at bounds on ranks 1 and 3 (one at -05:00).
    const cases = [
      {
        what: 'created_at bounds',
        field: 'created_at',
        low: w.ms(1000),
        high: w.ms(3000),
        onBound: pick((i) => i === 1 || i === 3),
        outside: pick((i) => i === 0 || i === 4),
        body: { created_after: withOffset(w.ms(1000), 60), created_before: w.at(3000) },
      },
      {
        what: 'updated_at bounds',
        field: 'updated_at',
        low: w.ms(11_000),
        high: w.ms(13_000),
        onBound: pick((_, r) => r === 1 || r === 3),
        outside: pick((_, r) => r === 0 || r === 4),
        body: { updated_after: w.at(11_000), updated_before: withOffset(w.ms(13_000), -300) },
      },
    ];
    for (const c of cases) {
      const x = await t.api.searchNotes({ limit: 50 }, { query: f.word, ...c.body });
      await t.verify('notes.search.bounds-filter', () => {
        expect(x.status, `${c.what}: ${show(x)}`).toBe(200);
        const stray = items(x).filter(
          (i) => !(Date.parse(String(i[c.field])) >= c.low && Date.parse(String(i[c.field])) <= c.high),
        );
        expect(
          stray.map((i) => `${String(i.id)} ${String(i[c.field])}`),
          `${c.what} keep only notes inside them`,
        ).toEqual([]);
        expect(
          idsOf(x).filter((id) => c.outside.includes(id)),
          `${c.what} drop the notes outside`,
        ).toEqual([]);
      });
      await beforeJudgingKept(t, f, x, c.onBound);
      await t.verify('notes.search.bounds-inclusive', () => {
        expect(x.status, `${c.what}: ${show(x)}`).toBe(200);
        expect(idsOf(x), `${c.what} keep the notes exactly on them`).toEqual(expect.arrayContaining(c.onBound));
      });
    }
  },
);

check(
  'the search collection filter keeps notes in any listed collection; the declared names take effect',
  {
    rules: ['notes.search.collection-filter', 'notes.search.parameter-names'],
  },
  async (t) => {
    const f = await fixture(t);
    const { kinds, collections } = f;
    if (!collections)
      throw new KitError(
        `the file's notes were made without collections, as ${COLLECTION_FILTER_NAME} was not declared`,
      );
    const names = t.profile.names?.notes_search ?? {};
    // The response-shape fields are not shown: an empty object is all the kit can send.
    const shaped = await t.api.searchNotes({ limit: 1 }, { query: f.word, response_shape: {} });
    const filtered = await t.api.searchNotes({ limit: 50 }, { query: f.word, collections });
    await t.verify('notes.search.parameter-names', () => {
      expect(shaped.status, `the response-shape object under ${names.response_shape}: ${show(shaped)}`).toBe(200);
      expect(filtered.status, `the collection filter under ${names.collections}: ${show(filtered)}`).toBe(200);
      expect(idsOf(filtered), `the collection filter under ${names.collections} takes effect`).not.toContain(
        kinds.plain,
      );
    });
    if (refused(filtered)) throw notHonoured('a search with the collection filter', filtered);
    await beforeJudgingKept(t, f, filtered, [kinds.open, kinds.done]);
    await t.verify('notes.search.collection-filter', () => {
      expect(filtered.status, show(filtered)).toBe(200);
      expect(idsOf(filtered), 'a note in either listed collection is kept').toEqual(
        expect.arrayContaining([kinds.open, kinds.done]),
      );
      const stray = items(filtered).filter(
        (i) => !((i.collection_ids as string[] | undefined) ?? []).some((c) => collections.includes(c)),
      );
      expect(
        stray.map((i) => i.id),
        'notes in neither collection are dropped',
      ).toEqual([]);
    });
  },
);

check(
  'each search contains filter keeps the notes with that kind of content; several combine with OR',
  {
    rules: ['notes.search.contains-filters', 'notes.search.contains-or', 'notes.search.parameter-names'],
  },
  async (t) => {
    const f = await fixture(t);
    const {
      ids,
      kinds: { open, done, image, file, plain },
    } = f;
    const cases = containsCases(
      'notes.search',
      t.profile.names?.notes_search ?? {},
      { open, done, image, file, plain },
      'open-tasks-and-images',
    );
    let refusal: Exchange | undefined;
    for (const c of cases) {
      const x = await t.api.searchNotes({ limit: 50 }, { query: f.word, ...c.filter });
      await t.verify('notes.search.parameter-names', () => {
        expect(x.status, `${c.what}: ${show(x)}`).toBe(200);
        expect(idsOf(x).filter((id) => ids.includes(id)).length, `${c.what} takes effect`).toBeLessThan(ids.length);
      });
      if (refused(x)) {
        refusal ??= x;
        continue;
      }
      await beforeJudgingKept(t, f, x, c.keep);
      await t.verify(c.rule, () => {
        expect(x.status, `${c.what}: ${show(x)}`).toBe(200);
        expect(idsOf(x), `${c.what} keeps the matching notes`).toEqual(expect.arrayContaining(c.keep));
        expect(
          idsOf(x).filter((id) => c.drop.includes(id)),
          `${c.what} drops the others (open, done, image, file, plain: ${ids.join(', ')})`,
        ).toEqual([]);
      });
    }
    if (refusal) throw notHonoured('a search with a contains filter', refusal);
  },
);
