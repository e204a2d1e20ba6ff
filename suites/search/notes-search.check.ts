import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { OkBody } from '../harness/bodies.js';
import { checks, expectDeclaredStatus, setupOk } from '../harness/index.js';
import { field, items, searchFinding } from './search-helpers.js';

const { check } = checks();

type Page = OkBody<'searchNotes'>;

// The search checks with data of their own or none: refusals, an unknown snapshot, a window capped at 100.
// Snapshot paging, relevance and the filters share one data set in notes-search-corpus.check.ts.

check(
  'a search without a usable query, with a negative offset or a bound without offset is refused',
  {
    oracle: [
      'notes.search.query-required',
      'notes.search.query-non-whitespace',
      'notes.search.offset-min-0',
      'notes.search.bounds-offset-required',
    ],
  },
  async (t) => {
    // (A later page without snapshot_id is refused: the snapshot property judges it in every tier, with the
    // offset of its pages.)
    const word = t.data.word();
    const attempts: Array<Parameters<typeof t.api.searchNotes>> = [
      [{}, {}],
      [{}, { query: 42 }],
      [{}, { query: '' }],
      [{}, { query: ' \t\n ' }],
      [{ offset: -1 }, { query: word }],
      [{ offset: 0.5 }, { query: word }],
      [{}, { query: word, created_after: '2004-05-06T07:08:09' }],
    ];
    for (const args of attempts) await t.api.searchNotes(...args);
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
