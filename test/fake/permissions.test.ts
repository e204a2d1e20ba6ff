import { describe, expect, it } from 'vitest';
import { createCollection, deleteCollection, getCollection, updateCollection } from '../../fake/service/collections.js';
import { grant } from '../../fake/service/fixtures.js';
import { addNoteToCollection, moveNote } from '../../fake/service/membership.js';
import { deleteNote, getNote, trashNote } from '../../fake/service/notes-lifecycle.js';
import { relatedNotes } from '../../fake/service/notes-related.js';
import { createNote, setNoteCreatedAt, updateNote } from '../../fake/service/notes-write.js';
import { harness, iso, refused, T0 } from './helpers.js';

describe("permissions (the fake's sharing model through grants)", () => {
  it('hides unshared notes and collections entirely', () => {
    const { ctx, alice, bob } = harness();
    const n = createNote(ctx, alice, { content: 'secret' }).id as string;
    const c = createCollection(ctx, alice, { title: 'private' }).id as string;
    for (const fn of [
      () => getNote(ctx, bob, n),
      () => updateNote(ctx, bob, n, { content: 'x', version: 1 }),
      () => deleteNote(ctx, bob, n),
      () => trashNote(ctx, bob, n),
      () => relatedNotes(ctx, bob, n, {}),
      () => getCollection(ctx, bob, c),
      () => deleteCollection(ctx, bob, c),
    ]) {
      refused('not_found', fn);
    }
  });

  it('grants access, edit and own on notes by level', () => {
    const { ctx, alice, bob } = harness();
    const n = createNote(ctx, alice, { content: 'shared' }).id as string;
    grant(ctx, { resource: 'note', id: n, user_id: bob.id, level: 'access' });
    expect(getNote(ctx, bob, n).content).toBe('shared');
    refused('forbidden', () => updateNote(ctx, bob, n, { content: 'x', version: 1 }));
    refused('forbidden', () => deleteNote(ctx, bob, n));
    grant(ctx, { resource: 'note', id: n, user_id: bob.id, level: 'edit' });
    expect(updateNote(ctx, bob, n, { content: 'edited', version: 1 }).version).toBe(2);
    refused('forbidden', () => setNoteCreatedAt(ctx, bob, n, { created_at: iso(T0 - 1) }));
    grant(ctx, { resource: 'note', id: n, user_id: bob.id, level: 'own' });
    expect(setNoteCreatedAt(ctx, bob, n, { created_at: iso(T0 - 1) }).created_at).toBe(iso(T0 - 1));
    deleteNote(ctx, bob, n);
  });

  it('needs contribute to add to a shared collection, edit to update or delete it', () => {
    const { ctx, alice, bob } = harness();
    const c = createCollection(ctx, alice, { title: 'team' }).id as string;
    const mine = createNote(ctx, bob, { content: 'bob note' }).id as string;
    grant(ctx, { resource: 'collection', id: c, user_id: bob.id, level: 'access' });
    expect(getCollection(ctx, bob, c).title).toBe('team');
    refused('forbidden', () => addNoteToCollection(ctx, bob, c, mine));
    refused('forbidden', () => updateCollection(ctx, bob, c, { title: 'x' }));
    grant(ctx, { resource: 'collection', id: c, user_id: bob.id, level: 'contribute' });
    addNoteToCollection(ctx, bob, c, mine);
    const other = createCollection(ctx, bob, { title: 'bob' }).id as string;
    refused('forbidden', () => moveNote(ctx, bob, c, mine, { target_collection_id: other }));
    grant(ctx, { resource: 'collection', id: c, user_id: bob.id, level: 'edit' });
    moveNote(ctx, bob, c, mine, { target_collection_id: other });
    updateCollection(ctx, bob, c, { title: 'renamed' });
    deleteCollection(ctx, bob, c);
    // Alice cannot add a note she cannot see to her own collection.
    const hers = createCollection(ctx, alice, { title: 'hers' }).id as string;
    refused('not_found', () => addNoteToCollection(ctx, alice, hers, mine));
  });
});
