import { expect } from 'vitest';
import { checks, expectRefused, setupOk, show } from '../harness/index.js';
import { collectionState, noteState, pastIso } from '../harness/patterns.js';

const { check } = checks();

check(
  'another user cannot read, change, trash, date or delete an unshared note',
  {
    smoke: true,
    rules: ['auth.scope.notes-isolated'],
  },
  async (t) => {
    const other = t.secondary();
    const note = await t.data.note();
    const before = await noteState(t.api, note.id);
    const attempts = [
      ['read', await other.getNote(note.id)],
      ['update', await other.updateNote(note.id, { content: 'taken over', version: note.version })],
      ['set created_at', await other.setCreatedAt(note.id, { created_at: pastIso(t, 86_400_000) })],
      ['trash', await other.trashNote(note.id)],
      ['delete', await other.deleteNote(note.id)],
    ] as const;
    await t.verify('auth.scope.notes-isolated', async () => {
      for (const [what, x] of attempts) expectRefused(x, `another user's attempt to ${what} the note`);
      expect(await noteState(t.api, note.id), 'the note is unchanged').toEqual(before);
    });
  },
);

check(
  'another user cannot read, change or delete an unshared collection, nor find it',
  {
    rules: ['auth.scope.collections-isolated'],
  },
  async (t) => {
    const other = t.secondary();
    const word = t.data.word();
    const coll = await t.data.collection(`Private ${word}`);
    const before = await collectionState(t.api, coll.id);
    const attempts = [
      ['read', await other.getCollection(coll.id)],
      ['update', await other.updateCollection(coll.id, { title: 'taken over' })],
      ['delete', await other.deleteCollection(coll.id)],
    ] as const;
    await t.verify('auth.scope.collections-isolated', async () => {
      for (const [what, x] of attempts) expectRefused(x, `another user's attempt to ${what} the collection`);
      expect(await collectionState(t.api, coll.id), 'the collection is unchanged').toEqual(before);
    });
    if (t.declares('names.collections_search.query')) {
      const found = await other.searchCollections({ query: word });
      const results = setupOk(found, 'search collections as the other user').results as Array<{ id: string }>;
      await t.verify('auth.scope.collections-isolated', () => {
        expect(
          results.map((r) => r.id),
          `another user's search finds no private collection: ${show(found)}`,
        ).not.toContain(coll.id);
      });
    }
  },
);

// Adding another user's inaccessible note to one's own collection (membership.add.requires-note-access)
// is judged in membership/membership.check.ts.
