import { expect } from 'vitest';
import { primaryName } from '../../spec/profile.js';
import type { OkBody } from '../harness/bodies.js';
import { containsCases, judgeContainsCase } from '../harness/contains-cases.js';
import type { TimeWindow } from '../harness/data.js';
import { type CheckContext, checks, type Exchange, KitError, setupOk, show } from '../harness/index.js';
import { perFile } from '../harness/shared.js';
import {
  idsOf,
  items,
  notFound,
  notHonoured,
  refused,
  requireFound,
  searchFinding,
  withOffset,
} from './search-helpers.js';

const { check } = checks();

type Page = OkBody<'searchNotes'>;

// Search engines may rank by meaning: these checks compare pages of one snapshot with each other, never
// with an expected ranking, and find notes by words that exist only in this run.

/**
 * One data set for the file (the cost of a run), made by the first check that needs it and only read
 * afterwards, so every check still runs alone: five notes holding a word of this run, created 0..4 s
 * into a fresh window and updated in another order, each with one kind of content; where the profile
 * names the collection filter (so that its check runs), the open-task note in one fresh collection and
 * the done-task note in another. Three of them hold the word as the paging check ranks them: in a short
 * body, as a passing mention at the end of a long body, and as the whole title.
 */
interface Corpus {
  word: string;
  w: TimeWindow;
  ids: string[];
  kinds: { open: string; done: string; image: string; file: string; plain: string };
  shapes: { short: string; mention: string; titled: string };
  /** Only when the collection filter's check can run (the cost of a run: two collections made and deleted). */
  collections?: [string, string];
  /**
   * That the index holds all five, as the filters are judged on what it holds: seen on the paging check's
   * first page, or else waited for once (bounded by search_index_lag_ms) by the first filter check.
   */
  indexed?: Promise<void>;
  /** When the last of the five was written (the oracle judges a search sent search_index_lag_ms later). */
  madeAt: number;
  /** Made once, when a filter leaves out a note it should keep: does the unfiltered search find them all? */
  found?: Promise<void>;
}

const UPDATED_RANK = [3, 0, 4, 1, 2];
/**
 * The paging check's own note: created before the mention (1 s) and updated before it (10 s), so an order
 * by recency of either puts the mention above it; outside the filters' bounds (1..3 s, 11..13 s).
 */
const STRONG_CREATED_AT = 500;
const STRONG_UPDATED_AT = 9_000;
/** The corpus's five and the paging check's own note, read from offset 1 as one full last page. */
const REST = 5;
/** The declaration the collection filter's check needs (its rule's `needs`): without it, no collections. */
const COLLECTION_FILTER_NAME = 'names.notes_search.collections';

const corpus = perFile(async (t: CheckContext): Promise<Corpus> => {
  const m = t.profile.content_markers ?? {};
  const word = t.data.word();
  const w = t.data.window();
  const collections: [string, string] | undefined = t.declares(COLLECTION_FILTER_NAME)
    ? [(await t.data.collection()).id, (await t.data.collection()).id]
    : undefined;
  const texts: Array<[string, string]> = [
    [`Short note ${t.data.word()}`, `${word} in a few words`],
    [`Long note ${t.data.word()}`, `${'Unrelated prose about gardens and weather. '.repeat(40)}${word}`],
    [word, 'a body about something else entirely'],
    [`Filtered 3 ${word}`, ''],
    [`Filtered 4 ${word}`, 'nothing to filter for'],
  ];
  const markers = [m.open_task, m.done_task, m.image, m.file, undefined];
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const [title, text] = texts[i]!;
    const body = [text, markers[i]].filter(Boolean).join('\n') || 'nothing to filter for';
    ids.push(
      (
        await t.data.note(t.data.content(title, body), {
          created_at: w.at(i * 1000),
          updated_at: w.at(10_000 + UPDATED_RANK[i]! * 1000),
          ...(collections && i < 2 ? { collection_ids: [collections[i]] } : {}),
        })
      ).id,
    );
  }
  const [open, done, image, file, plain] = ids as [string, string, string, string, string];
  return {
    word,
    w,
    ids,
    kinds: { open, done, image, file, plain },
    shapes: { short: open, mention: done, titled: image },
    madeAt: Date.now(),
    ...(collections ? { collections } : {}),
  };
});

/** The corpus once the index holds all five (see Corpus.indexed). */
async function indexedCorpus(t: CheckContext): Promise<Corpus> {
  const f = await corpus(t);
  await (f.indexed ??= searchFinding(t, f.word, f.ids).then(() => undefined));
  return f;
}

/** When a filter leaves out a note it should keep, first make sure the search finds the notes at all. */
async function beforeJudgingKept(t: CheckContext, f: Corpus, x: Exchange, keep: readonly string[]): Promise<void> {
  if (x.status === 200 && keep.some((id) => !idsOf(x).includes(id))) await (f.found ??= requireFound(t, f.word, f.ids));
}

check(
  'pages of one snapshot: zero-based offsets, limit and offset echoed, frozen against later writes; relevance',
  {
    rules: ['notes.search.paging-in-query', 'notes.search.finds-matching-note', 'notes.search.relevance-ranked'],
    oracle: [
      'notes.search.snapshot-pages',
      'notes.search.snapshot-frozen',
      'notes.search.offset-zero-based',
      'notes.search.offset-default-0',
      'notes.search.limit-default-20',
      'notes.search.limit-offset-echoed',
      'notes.search.has-next-page',
      'notes.search.limit-range',
      'notes.search.offset-min-0',
      'notes.search.response-fields',
      'notes.search.item-fields',
    ],
  },
  async (t) => {
    const f = await corpus(t);
    const { word } = f;
    // Four notes hold the word: all query, a passing mention in a long body, only the title, and a short body;
    // the last three are the corpus's, the first is the check's own (it is edited below). Its instants are in
    // the corpus's window before the mention's (so an order by recency of creation or update would put the
    // passing mention above it) and outside every bound the filters judge.
    const strong = await t.data.note(t.data.content(word, word), {
      created_at: f.w.at(STRONG_CREATED_AT),
      updated_at: f.w.at(STRONG_UPDATED_AT),
    });
    const { mention, titled, short } = f.shapes;

    // The whole window (up to 20) as the first page of the snapshot: the reference for every later page,
    // read once the index holds all six notes (polled up to search_index_lag_ms; title-only matches are
    // advisory, so a target that never finds them is judged on the last reading). A page holding the
    // corpus's five also spares the filter checks their wait for the index.
    const { value: first } = await t.poll(
      () => t.api.searchNotes({}, { query: word }),
      (x) => notFound(x, [strong.id, ...f.ids]) === undefined,
    );
    if (notFound(first, f.ids) === undefined) f.indexed ??= Promise.resolve();
    const head: Page = setupOk(first, 'search a word the corpus and the check hold');
    const window = idsOf(first);
    await t.verify('notes.search.finds-matching-note', () =>
      expect(window, 'the note whose title is the rare word').toContain(titled),
    );
    await t.verify('notes.search.relevance-ranked', () => {
      expect(window.indexOf(strong.id), 'the note that is all query ranks above the passing mention').toBeLessThan(
        window.indexOf(mention),
      );
    });
    // A title-only match is advisory; the paging below needs the three notes with the word in their body.
    const missing = notFound(first, [strong.id, mention, short]);
    if (missing) throw missing;
    const snapshot = head.snapshot_id;
    if (typeof snapshot !== 'string')
      throw new KitError(
        `the first page has no snapshot_id to page with (see notes.search.response-fields): ${show(first)}`,
      );

    // After the first page, the check's note of the window is edited to no longer match: the oracle holds
    // the snapshot's later pages to the places the first page showed. (That a note created after the first
    // page stays out of the snapshot is the snapshot property's case, judged in every tier.)
    setupOk(
      await t.api.updateNote(strong.id, {
        content: t.data.content(`Edited ${t.data.word()}`),
        version: strong.version,
      }),
      'edit a note of the window',
    );

    // Paged through the snapshot: the first result alone (limit 1 of several), then the rest of the six-note window
    // as one full last page (limit 5 from offset 1), then a page of the largest limit where nothing is left
    // (offset = total); then limits out of range.
    const start = await t.api.searchNotes({ limit: 1, offset: 0, snapshot_id: snapshot }, { query: word });
    const later = await t.api.searchNotes({ limit: REST, offset: 1, snapshot_id: snapshot }, { query: word });
    await t.api.searchNotes({ limit: 50, offset: Number(head.total), snapshot_id: snapshot }, { query: word });
    for (const limit of [0, 51, 1.5]) await t.api.searchNotes({ limit }, { query: word });
    await t.api.searchNotes({ offset: 0 }, { query: word });
    for (const x of [start, later]) setupOk(x, 'search a later page of the snapshot');
    await t.verify('notes.search.paging-in-query', () => {
      // Both pages: when the edited note (most likely the window's first) has left a fresh search, a fresh
      // search from offset 0 gives what the window holds from offset 1, so the later page alone may not tell.
      expect(items(start).length, `limit=1 in the query string holds the page to 1: ${show(start)}`).toBe(1);
      expect(
        idsOf(start)[0],
        `offset=0 and snapshot_id in the query string start the page at the window's first result: ${show(start)}`,
      ).toBe(window[0]);
      expect(
        items(later).length,
        `limit=${REST} in the query string holds the page to ${REST}: ${show(later)}`,
      ).toBeLessThanOrEqual(REST);
      expect(
        idsOf(later)[0],
        `offset=1 and snapshot_id in the query string start the page at the 2nd result: ${show(later)}`,
      ).toBe(window[1]);
    });
  },
);

check(
  'search time bounds keep only the notes inside them, those exactly on a bound included',
  {
    rules: ['notes.search.bounds-inclusive'],
    oracle: ['notes.search.bounds-filter'],
  },
  async (t) => {
    const f = await indexedCorpus(t);
    const { w, ids } = f;
    await t.indexed(f.madeAt);
    const pick = (keep: (i: number, rank: number) => boolean) => ids.filter((_, i) => keep(i, UPDATED_RANK[i]!));
    // created_at bounds on notes 1 and 3 exactly (one written at +01:00); updated_at bounds on ranks 1 and 3 (one at -05:00).
    const cases = [
      {
        what: 'created_at bounds',
        onBound: pick((i) => i === 1 || i === 3),
        body: { created_after: withOffset(w.ms(1000), 60), created_before: w.at(3000) },
      },
      {
        what: 'updated_at bounds',
        onBound: pick((_, r) => r === 1 || r === 3),
        body: { updated_after: w.at(11_000), updated_before: withOffset(w.ms(13_000), -300) },
      },
    ];
    let later: { snapshot: string; body: Record<string, unknown> } | undefined;
    for (const c of cases) {
      const x = await t.api.searchNotes({ limit: 50 }, { query: f.word, ...c.body });
      const snapshot = (x.json as { snapshot_id?: unknown } | undefined)?.snapshot_id;
      if (x.status === 200 && typeof snapshot === 'string') later = { snapshot, body: c.body };
      await beforeJudgingKept(t, f, x, c.onBound);
      await t.verify('notes.search.bounds-inclusive', () => {
        expect(x.status, `${c.what}: ${show(x)}`).toBe(200);
        expect(idsOf(x), `${c.what} keep the notes exactly on them`).toEqual(expect.arrayContaining(c.onBound));
      });
    }
    // A later page of the last bounded snapshot, the bounds sent again: the oracle holds it to the first
    // page (a paging boundary the explorer visits otherwise, docs/judging.md).
    if (later)
      await t.api.searchNotes({ limit: 1, offset: 1, snapshot_id: later.snapshot }, { query: f.word, ...later.body });
  },
);

check(
  'the search collection filter keeps notes in any listed collection; the declared names take effect',
  {
    // The oracle judges every item kept (each in a listed collection); the check, that none is lost.
    rules: ['notes.search.collection-filter', 'notes.search.parameter-names'],
  },
  async (t) => {
    const f = await indexedCorpus(t);
    const { kinds, collections } = f;
    if (!collections)
      throw new KitError(
        `the file's notes were made without collections, as ${COLLECTION_FILTER_NAME} was not declared`,
      );
    const names = t.profile.names?.notes_search ?? {};
    // The response-shape fields are not shown: the kit sends the include-content field the profile
    // names, else an empty object.
    const includeContent = primaryName(names.response_shape_fields?.include_content);
    const shape = includeContent === undefined ? {} : { include_content: true };
    const shaped = await t.api.searchNotes({ limit: 1 }, { query: f.word, response_shape: shape });
    const filtered = await t.api.searchNotes({ limit: 50 }, { query: f.word, collections });
    await t.verify('notes.search.parameter-names', () => {
      expect(shaped.status, `the response-shape object under ${names.response_shape}: ${show(shaped)}`).toBe(200);
      if (includeContent !== undefined)
        expect(
          items(shaped).length > 0 && items(shaped).every((i) => typeof i.content === 'string'),
          `the response-shape field ${includeContent} true adds each item's content: ${show(shaped)}`,
        ).toBe(true);
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
    });
  },
);

check(
  'each search contains filter keeps the notes with that kind of content; several combine with OR',
  {
    rules: ['notes.search.contains-filters', 'notes.search.contains-or', 'notes.search.parameter-names'],
  },
  async (t) => {
    const f = await indexedCorpus(t);
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
      await judgeContainsCase(t, c, x, idsOf, ids);
    }
    if (refusal) throw notHonoured('a search with a contains filter', refusal);
  },
);
