import { expect } from 'vitest';
import { checks, type Exchange, expectRefused, searchIndexLagMs, setupOk, show } from '../harness/index.js';
import { idsOf, items } from './search-helpers.js';

const { check } = checks();

check(
  'related notes: limit 1..20, at most 10 by default, and the documented response and item fields',
  {
    rules: [
      'notes.related.limit-range',
      'notes.related.limit-default-10',
      'notes.related.response-fields',
      'notes.related.item-fields',
    ],
    // The base note and eleven notes on its subject: more than the default page can hold.
    needs: [{ notes: 12 }],
  },
  async (t) => {
    const words = [t.data.word(), t.data.word(), t.data.word()];
    const c = await t.data.collection();
    const base = await t.data.note(t.data.content(`Base ${words.join(' ')}`, words.join(' ')));
    // The note in a collection shares the most with the base, so its collection summary shows up.
    await t.data.note(t.data.content(`Closest ${words.join(' ')}`, words.join(' ')), { collection_ids: [c.id] });
    for (let i = 0; i < 10; i++)
      await t.data.note(t.data.content(`Kin ${i} ${words[i % 3]}`, `${words[(i + 1) % 3]} ${t.data.word()}`));

    // Related notes are found through the target's index: give it up to search_index_lag_ms to hold the
    // kin. The document promises no related result for made-up words, so none is not a failure.
    const { value: byDefault } = await t.poll(
      () => t.api.relatedNotes(base.id),
      (x) => x.status !== 200 || items(x).length > 0,
    );
    setupOk(byDefault, 'ask for related notes');
    await t.verify('notes.related.limit-default-10', () => {
      expect(
        items(byDefault).length,
        `without limit at most 10 of the 11 related notes: ${show(byDefault)}`,
      ).toBeLessThanOrEqual(10);
    });
    const problems = t.schemaProblems(byDefault, 'RelatedNotesResponse');
    await t.verify('notes.related.response-fields', () => {
      expect(
        problems.filter((p) => !p.startsWith('/results/')),
        `the related-notes response has results, a numeric total and request_id: ${show(byDefault)}`,
      ).toEqual([]);
    });
    if (items(byDefault).length === 0) {
      t.skipRule(
        'notes.related.item-fields',
        `related notes returned no item within search_index_lag_ms (${searchIndexLagMs(t.ctx)} ms), so item fields cannot be judged (the document promises no related result for made-up words)`,
      );
    } else {
      await t.verify('notes.related.item-fields', () => {
        expect(
          problems.filter((p) => p.startsWith('/results/')),
          'related items and their collection summaries have the documented fields',
        ).toEqual([]);
      });
    }

    const one = await t.api.relatedNotes(base.id, { limit: 1 });
    const twenty = await t.api.relatedNotes(base.id, { limit: 20 });
    await t.verify('notes.related.limit-range', async () => {
      expect(one.status, `limit 1 is accepted: ${show(one)}`).toBe(200);
      expect(items(one).length, 'limit 1 gives at most one').toBeLessThanOrEqual(1);
      expect(twenty.status, `limit 20 is accepted: ${show(twenty)}`).toBe(200);
      expect(items(twenty).length, 'limit 20 gives at most twenty').toBeLessThanOrEqual(20);
      for (const limit of [0, 21])
        expectRefused(await t.api.relatedNotes(base.id, { limit }), `related-notes limit ${limit}`);
    });
  },
);

check(
  "related notes follow the note's current content",
  {
    rules: ['notes.related.current-content'],
  },
  async (t) => {
    const old = [t.data.word(), t.data.word(), t.data.word()].join(' ');
    const fresh = [t.data.word(), t.data.word(), t.data.word()].join(' ');
    const note = await t.data.note(t.data.content(`Subject ${old}`, old));
    const aboutOld = (await t.data.note(t.data.content(`Kin ${old}`, old))).id;
    const aboutNew = (await t.data.note(t.data.content(`Kin ${fresh}`, fresh))).id;
    const rank = (x: Exchange, id: string) => (idsOf(x).includes(id) ? idsOf(x).indexOf(id) : Number.POSITIVE_INFINITY);
    // Polled until the index holds the kin (bounded by search_index_lag_ms); the last reading is judged.
    const { value: before } = await t.poll(
      () => t.api.relatedNotes(note.id),
      (x) => x.status !== 200 || rank(x, aboutOld) < rank(x, aboutNew),
    );
    setupOk(before, 'ask for related notes');
    await t.verify('notes.related.current-content', () => {
      expect(
        rank(before, aboutOld),
        `before the edit, the note on the same words ranks first: ${show(before)}`,
      ).toBeLessThan(rank(before, aboutNew));
    });
    setupOk(
      await t.api.updateNote(note.id, { content: t.data.content(`Subject ${fresh}`, fresh), version: note.version }),
      "change the note's subject",
    );
    const { value: after } = await t.poll(
      () => t.api.relatedNotes(note.id),
      (x) => x.status !== 200 || rank(x, aboutNew) < rank(x, aboutOld),
    );
    setupOk(after, 'ask for related notes again');
    await t.verify('notes.related.current-content', () => {
      expect(
        rank(after, aboutNew),
        `after the edit, the note on the new words ranks above the one on the old: ${show(after)}`,
      ).toBeLessThan(rank(after, aboutOld));
    });
  },
);

check(
  "another user's unshared note is not in the caller's list, search or related notes, and its related notes are refused",
  {
    rules: ['auth.scope.notes-list-isolated', 'auth.scope.related-notes-isolated', 'notes.related.requires-access'],
  },
  async (t) => {
    const other = t.secondary();
    const w = t.data.window();
    const word = t.data.word();
    const subject = `${word} ${t.data.word()} ${t.data.word()}`;
    const mine = await t.data.note(t.data.content(`Mine ${subject}`, subject), { created_at: w.at(0) });
    const theirs = await t.data.note(t.data.content(`Theirs ${subject}`, subject), { created_at: w.at(1000) }, other);
    const listed = await t.api.listNotes({ created_after: w.at(-1), created_before: w.at(2000) });
    const found = await t.api.searchNotes({ limit: 50 }, { query: word });
    for (const x of [listed, found]) setupOk(x, 'list and search as the caller');
    await t.verify('auth.scope.notes-list-isolated', () => {
      expect(idsOf(listed), "the caller's own note in the window is listed").toContain(mine.id);
      expect(idsOf(listed), "the other user's note in the same window is not listed").not.toContain(theirs.id);
      expect(idsOf(found), "the other user's note with the same words is not found").not.toContain(theirs.id);
    });
    const related = await t.api.relatedNotes(mine.id, { limit: 20 });
    setupOk(related, "ask for related notes of the caller's note");
    await t.verify('auth.scope.related-notes-isolated', () => {
      expect(idsOf(related), "the other user's note on the same words is not related to the caller's").not.toContain(
        theirs.id,
      );
    });
    const theirsRelated = await t.api.relatedNotes(theirs.id);
    await t.verify('notes.related.requires-access', () =>
      expectRefused(theirsRelated, "related notes of another user's unshared note"),
    );
  },
);
