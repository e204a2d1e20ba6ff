import { checks } from '../harness/index.js';
import { pastIso } from '../harness/patterns.js';

const { check } = checks();

/**
 * The second user tries everything on the first user's note and collection, never shared: the
 * oracle judges each refusal (and that it shows nothing of the resource), the owner's reads after
 * (unchanged), and the second user's collection search (the first user's collection not in it).
 */
check(
  'another user cannot read, change, trash, date or delete an unshared note',
  { smoke: true, oracle: ['auth.scope.notes-isolated'] },
  async (t) => {
    const other = t.secondary();
    const note = await t.data.note();
    await other.getNote(note.id);
    await other.updateNote(note.id, { content: 'taken over', version: note.version });
    await other.setCreatedAt(note.id, { created_at: pastIso(t, 86_400_000) });
    await other.trashNote(note.id);
    await other.deleteNote(note.id);
    await t.api.getNote(note.id);
  },
);

check(
  'another user cannot read, change or delete an unshared collection, nor find it',
  { oracle: ['auth.scope.collections-isolated'] },
  async (t) => {
    const other = t.secondary();
    const word = t.data.word();
    const coll = await t.data.collection(`Private ${word}`);
    await other.getCollection(coll.id);
    await other.updateCollection(coll.id, { title: 'taken over' });
    await other.deleteCollection(coll.id);
    await t.api.getCollection(coll.id);
    if (t.declares('names.collections_search.query')) await other.searchCollections({ query: word });
  },
);

// Adding another user's inaccessible note to one's own collection (membership.add.requires-note-access)
// is judged in membership/membership.check.ts.
