import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { OkBody } from '../harness/bodies.js';
import { checks, expectDeclaredStatus, expectRefused, KitError, setupOk, show } from '../harness/index.js';
import { field, idsOf, items, moreReachable, notFound, searchFinding } from './search-helpers.js';

const { check } = checks();

type Page = OkBody<'searchNotes'>;

// Search engines may rank by meaning: these checks compare pages of one snapshot with each
// other, never with an expected ranking, and find notes by words that exist only in this run.

check(
  'pages of one snapshot: zero-based offsets, limit and offset echoed, frozen against later writes; relevance',
  {
    rules: [
      'notes.search.snapshot-pages',
      'notes.search.snapshot-frozen',
      'notes.search.offset-zero-based',
      'notes.search.offset-default-0',
      'notes.search.limit-default-20',
      'notes.search.limit-offset-echoed',
      'notes.search.paging-in-query',
      'notes.search.has-next-page',
      'notes.search.limit-range',
      'notes.search.response-fields',
      'notes.search.item-fields',
      'notes.search.finds-matching-note',
      'notes.search.relevance-ranked',
    ],
  },
  async (t) => {
    const word = t.data.word();
    // Four notes hold the word: all query, a passing mention in a long body, only the title, and a short body.
    // Created oldest first, so an order by recency would put the passing mention above the note that is all query.
    const strong = await t.data.note(t.data.content(word, word));
    const mention = await t.data.note(
      t.data.content(
        `Long note ${t.data.word()}`,
        `${'Unrelated prose about gardens and weather. '.repeat(40)}${word}`,
      ),
    );
    const titled = await t.data.note(t.data.content(word, 'a body about something else entirely'));
    const short = await t.data.note(t.data.content(`Short note ${t.data.word()}`, `${word} in a few words`));
    const notes = [strong, mention, titled, short];

    // The whole window (up to 20) as the first page of the snapshot: the reference for every later page,
    // read once the index holds all four notes (polled up to search_index_lag_ms; the title-only match is
    // advisory, so a target that never finds it is judged on the last reading).
    const { value: first } = await t.poll(
      () => t.api.searchNotes({}, { query: word }),
      (x) =>
        notFound(
          x,
          notes.map((n) => n.id),
        ) === undefined,
    );
    const head: Page = setupOk(first, 'search a word four notes hold');
    const window = idsOf(first);
    await t.verify('notes.search.finds-matching-note', () =>
      expect(window, 'the note whose title is the rare word').toContain(titled.id),
    );
    await t.verify('notes.search.relevance-ranked', () => {
      expect(window.indexOf(strong.id), 'the note that is all query ranks above the passing mention').toBeLessThan(
        window.indexOf(mention.id),
      );
    });
    // A title-only match is advisory; the paging below needs the three notes with the word in their body.
    const missing = notFound(first, [strong.id, mention.id, short.id]);
    if (missing) throw missing;
    const problems = t.schemaProblems(first, 'NoteSearchResponse');
    await t.verify('notes.search.response-fields', () => {
      expect(
        problems.filter((p) => !p.startsWith('/results/')),
        `the search response has the documented fields: ${show(first)}`,
      ).toEqual([]);
    });
    await t.verify('notes.search.item-fields', () => {
      expect(
        problems.filter((p) => p.startsWith('/results/')),
        'search items have the documented fields',
      ).toEqual([]);
    });
    await t.verify('notes.search.limit-default-20', () => {
      expect(head.limit, 'without limit the response reports limit 20').toBe(20);
      expect(window.length, 'without limit a page holds at most 20').toBeLessThanOrEqual(20);
    });
    await t.verify('notes.search.offset-default-0', () =>
      expect(head.offset, 'without offset the response reports offset 0').toBe(0),
    );
    const snapshot = head.snapshot_id;
    if (typeof snapshot !== 'string')
      throw new KitError(
        `the first page has no snapshot_id to page with (see notes.search.response-fields): ${show(first)}`,
      );

    // After the first page: a new note that matches strongly, and a note of the window edited to no longer match.
    const edited = notes.find((n) => window.indexOf(n.id) >= 2) ?? short;
    const added = await t.data.note(t.data.content(`${word} ${word}`, `${word} ${word} ${word}`));
    setupOk(
      await t.api.updateNote(edited.id, {
        content: t.data.content(`Edited ${t.data.word()}`),
        version: edited.version,
      }),
      'edit a note of the window',
    );

    // Paged through the snapshot: the first result alone (limit 1 of several), then the rest of a four-note window as one
    // full last page (limit 3 from offset 1), then a page of the largest limit where nothing is left (offset = total).
    const start = await t.api.searchNotes({ limit: 1, offset: 0, snapshot_id: snapshot }, { query: word });
    const later = await t.api.searchNotes({ limit: 3, offset: 1, snapshot_id: snapshot }, { query: word });
    const end = Number(head.total);
    const beyond = await t.api.searchNotes({ limit: 50, offset: end, snapshot_id: snapshot }, { query: word });
    await t.verify('notes.search.limit-range', async () => {
      expect(start.status, `limit 1 is accepted: ${show(start)}`).toBe(200);
      expect(items(start).length, 'limit 1 gives one result of several').toBe(1);
      expect(beyond.status, `limit 50 is accepted: ${show(beyond)}`).toBe(200);
      expect(items(beyond).length).toBeLessThanOrEqual(50);
      for (const limit of [0, 51])
        expectRefused(await t.api.searchNotes({ limit }, { query: word }), `search limit ${limit}`);
    });
    for (const x of [start, later, beyond]) setupOk(x, 'search a later page of the snapshot');

    await t.verify('notes.search.offset-default-0', () => {
      expect(idsOf(start)[0], 'a page at offset 0 starts where the page without offset starts').toBe(window[0]);
    });
    await t.verify('notes.search.limit-offset-echoed', () => {
      expect([field(start, 'limit'), field(start, 'offset')], 'limit 1, offset 0 are reported back').toEqual([1, 0]);
      expect([field(later, 'limit'), field(later, 'offset')], 'limit 3, offset 1 are reported back').toEqual([3, 1]);
    });
    await t.verify('notes.search.paging-in-query', () => {
      expect(
        items(later).length,
        `limit=3 in the query string holds the page to 3: ${show(later)}`,
      ).toBeLessThanOrEqual(3);
      expect(
        idsOf(later)[0],
        `offset=1 and snapshot_id in the query string start the page at the 2nd result: ${show(later)}`,
      ).toBe(window[1]);
    });
    await t.verify('notes.search.offset-zero-based', () => {
      expect(idsOf(later)[0], 'the page at offset 1 starts with the 2nd result of the window').toBe(window[1]);
    });
    await t.verify('notes.search.snapshot-pages', () => {
      const both = [...idsOf(start), ...idsOf(later)];
      expect(both, 'offset 0 with limit 1 and offset 1 with limit 3 concatenate to the first four results').toEqual(
        window.slice(0, 4),
      );
      expect(new Set(both).size, 'no note twice').toBe(both.length);
      expect(items(beyond), `nothing is reachable at offset = total (${end}): ${show(beyond)}`).toEqual([]);
    });
    await t.verify('notes.search.snapshot-frozen', () => {
      for (const x of [start, later])
        expect(field(x, 'total'), `later pages keep the first page's total: ${show(x)}`).toBe(head.total);
      const seen = [...idsOf(start), ...idsOf(later)];
      expect(seen, 'a note created after the first page is not in the snapshot').not.toContain(added.id);
      expect(seen, 'a note edited after the first page keeps its place in the snapshot').toContain(edited.id);
    });
    await t.verify('notes.search.has-next-page', () => {
      // With all four notes in the window, the page from offset 1 is its full last page: nothing comes after it.
      for (const x of [first, start, later, beyond]) {
        expect(
          field(x, 'has_next_page'),
          `has_next_page says whether more is reachable (offset + results < total): ${show(x)}`,
        ).toBe(moreReachable(x));
      }
      expect(field(start, 'has_next_page'), `limit 1 of several: ${show(start)}`).toBe(true);
    });
  },
);

check(
  'a search without a usable query, with a negative offset, a later page without snapshot_id or a bound without offset is refused',
  {
    rules: [
      'notes.search.query-required',
      'notes.search.query-non-whitespace',
      'notes.search.offset-min-0',
      'notes.search.snapshot-required',
      'notes.search.bounds-offset-required',
    ],
  },
  async (t) => {
    const word = t.data.word();
    const attempts: Array<[string, Parameters<typeof t.api.searchNotes>, string]> = [
      ['notes.search.query-required', [{}, {}], 'a search without query'],
      ['notes.search.query-required', [{}, { query: 42 }], 'a search whose query is a number'],
      ['notes.search.query-non-whitespace', [{}, { query: '' }], 'an empty query'],
      ['notes.search.query-non-whitespace', [{}, { query: ' \t\n ' }], 'a query of whitespace'],
      ['notes.search.offset-min-0', [{ offset: -1 }, { query: word }], 'offset -1'],
      ['notes.search.snapshot-required', [{ limit: 2, offset: 2 }, { query: word }], 'offset 2 without snapshot_id'],
      [
        'notes.search.bounds-offset-required',
        [{}, { query: word, created_after: '2004-05-06T07:08:09' }],
        'a created_after bound without an offset',
      ],
    ];
    for (const [rule, args, what] of attempts) {
      const x = await t.api.searchNotes(...args);
      await t.verify(rule, () => expectRefused(x, what));
    }
  },
);

check(
  'a snapshot_id the target never issued is refused with the declared status',
  {
    rules: ['notes.search.snapshot-unknown'],
    needs: ['profile:statuses.unknown_snapshot'],
  },
  async (t) => {
    const x = await t.api.searchNotes({ limit: 2, offset: 2, snapshot_id: randomUUID() }, { query: t.data.word() });
    await t.verify('notes.search.snapshot-unknown', () => {
      expectDeclaredStatus(x, 'unknown_snapshot', t.profile.statuses!.unknown_snapshot!, 'a snapshot_id never issued');
    });
  },
);

check(
  'with more than 100 matches total is 100 and has_next_page ends at the window',
  {
    rules: ['notes.search.total-capped-100', 'notes.search.has-next-page'],
    needs: [{ notes: 101 }],
  },
  async (t) => {
    const word = t.data.word();
    const marker = t.data.word();
    let newest = '';
    for (let i = 0; i < 101; i++)
      newest = (await t.data.note(t.data.content(`Many ${i} ${word}`, i === 100 ? marker : ''))).id;
    // A capped total cannot tell whether the index holds all 101 yet: wait until it holds the last note
    // written (an error naming the lag if it never does), then give the total the rest of the lag to
    // reach 100, and judge the last reading: a total that stays short is the target's.
    await searchFinding(t, marker, [newest], { limit: 1 });
    const { value: first } = await t.poll(
      () => t.api.searchNotes({ limit: 50 }, { query: word }),
      (x) => x.status !== 200 || Number(field(x, 'total')) >= 100,
    );
    const head: Page = setupOk(first, 'search a word 101 notes hold');
    await t.verify('notes.search.total-capped-100', () => expect(head.total, 'total with 101 matches').toBe(100));
    const last = await t.api.searchNotes({ limit: 50, offset: 50, snapshot_id: head.snapshot_id }, { query: word });
    setupOk(last, 'search the second page of the window');
    await t.verify('notes.search.has-next-page', () => {
      expect(head.has_next_page, 'the first 50 of a window of 100').toBe(true);
      expect(items(last).length, 'the second 50 of the window').toBe(50);
      expect(field(last, 'has_next_page'), 'nothing beyond the 100-result window is reachable').toBe(false);
    });
  },
);
