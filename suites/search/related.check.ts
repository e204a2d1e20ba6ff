import { expect } from 'vitest';
import type { CollectionRef, NoteRef, TimeWindow } from '../harness/data.js';
import { checks, type Exchange, expectRefused, KitError, searchIndexLagMs, setupOk, show } from '../harness/index.js';
import { perFile } from '../harness/shared.js';
import { idsOf, items } from './search-helpers.js';

const { check } = checks();

const sorted = (values: unknown) => [...((values as string[] | undefined) ?? [])].sort();

/**
 * The notes the file's checks find related notes among (made when first asked for, only read after;
 * the cost of a run). All share words of the subject's three, each to its own degree:
 * - `base`, on all three, created at the start of `w` (a window no other data uses);
 * - `closest`, on all three too, created in `first` and linked to `later` afterwards, so its collection
 *   summaries must follow a link made after the create;
 * - `kin`, on one of them, whose body holds three words of its own (`own`): a subject moved to
 *   those words finds `kin` above `closest`.
 */
interface Corpus {
  w: TimeWindow;
  words: [string, string, string];
  base: NoteRef;
  closest: NoteRef;
  first: CollectionRef;
  later: CollectionRef;
  /** The answer to adding `closest` to `later`. */
  linked: Exchange;
  kin: NoteRef;
  own: string;
}

const corpus = perFile(async (t): Promise<Corpus> => {
  const words: Corpus['words'] = [t.data.word(), t.data.word(), t.data.word()];
  const subject = words.join(' ');
  const own = [t.data.word(), t.data.word(), t.data.word()].join(' ');
  const w = t.data.window();
  const first = await t.data.collection(`First ${t.data.word()}`);
  const later = await t.data.collection(`Later ${t.data.word()}`);
  const base = await t.data.note(t.data.content(`Base ${subject}`, subject), { created_at: w.at(0) });
  const closest = await t.data.note(t.data.content(`Closest ${subject}`, subject), { collection_ids: [first.id] });
  // Judged (as a setup step) only by the check that needs the link: a failed add errs no other rule.
  const linked = await t.api.addToCollection(later.id, closest.id);
  const kin = await t.data.note(t.data.content(`Kin ${words[0]}`, own));
  return { w, words, base, closest, first, later, linked, kin, own };
});

/** Nine more notes on two of the subject's words: with `closest` and `kin`, eleven notes related to `base`. */
const moreKin = perFile(async (t): Promise<string[]> => {
  const { words } = await corpus(t);
  const ids: string[] = [];
  for (let i = 1; i < 10; i++)
    ids.push(
      (await t.data.note(t.data.content(`Kin ${i} ${words[i % 3]}`, `${words[(i + 1) % 3]} ${t.data.word()}`))).id,
    );
  return ids;
});

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
    const { base } = await corpus(t);
    await moreKin(t);

    // Related notes are found through the target's index: give it up to search_index_lag_ms to hold more
    // than ten of the kin (read with limit 20), then ask without limit. The document promises no related
    // result for made-up words, so fewer is not a failure: the default of 10 then cannot be told from none.
    const { value: twenty } = await t.poll(
      () => t.api.relatedNotes(base.id, { limit: 20 }),
      (x) => x.status !== 200 || items(x).length > 10,
    );
    const byDefault = await t.api.relatedNotes(base.id);
    setupOk(byDefault, 'ask for related notes');
    if (twenty.status === 200 && items(twenty).length > 10) {
      await t.verify('notes.related.limit-default-10', () => {
        expect(
          items(byDefault).length,
          `without limit at most 10, where limit 20 gave ${items(twenty).length}: ${show(byDefault)}`,
        ).toBeLessThanOrEqual(10);
      });
    } else {
      t.skipRule(
        'notes.related.limit-default-10',
        `with limit 20 the target returned ${items(twenty).length} related notes within search_index_lag_ms ` +
          `(${searchIndexLagMs(t.ctx)} ms), not more than 10, so a default of 10 cannot be told from no limit`,
      );
    }
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
        `related notes returned no item within search_index_lag_ms (${searchIndexLagMs(t.ctx)} ms), ` +
          'so item fields cannot be judged (the document promises no related result for made-up words)',
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
    await t.verify('notes.related.limit-range', async () => {
      expect(one.status, `limit 1 is accepted: ${show(one)}`).toBe(200);
      expect(items(one).length, 'limit 1 gives at most one').toBeLessThanOrEqual(1);
      expect(twenty.status, `limit 20 is accepted: ${show(twenty)}`).toBe(200);
      expect(items(twenty).length, 'limit 20 gives at most twenty').toBeLessThanOrEqual(20);
      for (const limit of [0, 21, 1.5])
        expectRefused(await t.api.relatedNotes(base.id, { limit }), `related-notes limit ${limit}`);
    });
  },
);

check(
  "related notes follow the note's current content; a related note's collection summaries name exactly the collections in its collection_ids",
  {
    rules: ['notes.related.current-content', 'notes.related.collections-match'],
  },
  async (t) => {
    const { words, closest, kin, own, first, later, linked } = await corpus(t);
    // A note of its own (it is edited): first on the corpus's subject, which `closest` shares whole, then on
    // the words only `kin` holds. Limit 20, so both stay within reach whatever else the corpus holds.
    const old = words.join(' ');
    const note = await t.data.note(t.data.content(`Subject ${old}`, old));
    const rank = (x: Exchange, id: string) => (idsOf(x).includes(id) ? idsOf(x).indexOf(id) : Number.POSITIVE_INFINITY);
    const related = () => t.api.relatedNotes(note.id, { limit: 20 });
    // Polled until the index holds the notes (bounded by search_index_lag_ms); the last reading is judged.
    const { value: before } = await t.poll(related, (x) => x.status !== 200 || rank(x, closest.id) < rank(x, kin.id));
    setupOk(before, 'ask for related notes');
    await t.verify('notes.related.current-content', () => {
      expect(
        rank(before, closest.id),
        `before the edit, the note on the same words ranks above the one sharing one of them: ${show(before)}`,
      ).toBeLessThan(rank(before, kin.id));
    });
    // The same reading shows `closest`, created in one collection and linked to a second afterwards: its
    // summaries must follow the link. (Judged here rather than on a reading of its own: the cost of a run.)
    const item = items(before).find((r) => r.id === closest.id);
    if (item) {
      setupOk(linked, 'add the closest note to a second collection');
      const titles = { [first.id]: first.json.title, [later.id]: later.json.title };
      await t.verify('notes.related.collections-match', () => {
        // Only the note this file made is judged: a note shared by someone else may sit in collections
        // the caller cannot see, and what its summaries show then is not the document's to say.
        const summaries = Array.isArray(item.collections) ? (item.collections as Array<{ id?: unknown }>) : [];
        expect(
          sorted(summaries.map((c) => c.id)),
          "the related note's collections summarise its collection_ids",
        ).toEqual(sorted(item.collection_ids));
        expect(
          sorted(item.collection_ids),
          'the related note lists both its collections, the one it was created in and the one it was added to',
        ).toEqual(sorted([first.id, later.id]));
        const named = Object.fromEntries(
          (summaries as Array<{ id: string; title?: unknown }>).map((c) => [c.id, c.title]),
        );
        expect(named, "the summaries carry the collections' titles").toEqual(titles);
      });
    }
    setupOk(
      await t.api.updateNote(note.id, { content: t.data.content(`Subject ${own}`, own), version: note.version }),
      "change the note's subject",
    );
    const { value: after } = await t.poll(related, (x) => x.status !== 200 || rank(x, kin.id) < rank(x, closest.id));
    setupOk(after, 'ask for related notes again');
    await t.verify('notes.related.current-content', () => {
      expect(
        rank(after, kin.id),
        `after the edit, the note on the new words ranks above the one on the old: ${show(after)}`,
      ).toBeLessThan(rank(after, closest.id));
    });
    if (!item)
      throw new KitError(
        `related notes of a note sharing all its words with ${closest.id} did not return it within ` +
          `search_index_lag_ms (${searchIndexLagMs(t.ctx)} ms), so its collection summaries cannot be judged: ${show(before)}`,
      );
  },
);

check(
  "another user's unshared note is not in the caller's list, search or related notes, and its related notes are refused",
  {
    rules: ['auth.scope.notes-list-isolated', 'auth.scope.related-notes-isolated', 'notes.related.requires-access'],
  },
  async (t) => {
    const other = t.secondary();
    // The caller's note is the corpus's base, created at the start of its window; theirs shares all its words.
    const { w, words, base: mine } = await corpus(t);
    const subject = words.join(' ');
    const theirs = await t.data.note(t.data.content(`Theirs ${subject}`, subject), { created_at: w.at(1000) }, other);
    const listed = await t.api.listNotes({ created_after: w.at(-1), created_before: w.at(2000) });
    const found = await t.api.searchNotes({ limit: 50 }, { query: words[0] });
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
