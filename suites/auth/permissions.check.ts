import { expect } from 'vitest';
import { NOT_IN_SMOKE } from '../harness/check.js';
import { checks, expectDeclaredStatus, expectRefused, setupOk, show } from '../harness/index.js';
import { collectionState, noteState, pastIso } from '../harness/patterns.js';

const { check } = checks();

// The owner is the main test user; the grantee is a fresh user of the fixture API, given a level
// on one note or collection (how sharing works is not shown in the document; the fixture API is
// the kit's protocol for it).

check(
  'access lets a user read a note but not update, trash or delete it',
  {
    rules: [
      'permissions.access.read',
      'notes.update.requires-edit',
      'notes.trash.requires-edit',
      'notes.delete.requires-edit',
      'errors.status.forbidden',
    ],
    needs: ['fixtures:users', 'fixtures:grants'],
    smoke: true,
  },
  async (t) => {
    const note = await t.data.note();
    const { user, api: grantee } = await t.fixtureUser();
    await t.fixtures().grant('note', note.id, user.user_id, 'access');
    const read = await grantee.getNote(note.id);
    await t.verify('permissions.access.read', () =>
      expect(read.status, `a user with access reads the note: ${show(read)}`).toBe(200),
    );
    // The smoke tier judges the grant's read; the refused writes (and their reads) are the full tier's.
    if (t.ctx.tier === 'smoke')
      return t.skipRule(
        [
          'notes.update.requires-edit',
          'notes.trash.requires-edit',
          'notes.delete.requires-edit',
          'errors.status.forbidden',
        ],
        NOT_IN_SMOKE,
      );
    const before = await noteState(t.api, note.id);
    const update = await grantee.updateNote(note.id, { content: t.data.content('Not allowed'), version: note.version });
    await t.verify('notes.update.requires-edit', async () => {
      expectRefused(update, 'an update with access permission only');
      expect(await noteState(t.api, note.id)).toEqual(before);
    });
    const trash = await grantee.trashNote(note.id);
    await t.verify('notes.trash.requires-edit', async () => {
      expectRefused(trash, 'a trash with access permission only');
      expect((await noteState(t.api, note.id)).trashed_at, 'the note stays active').toBeNull();
    });
    const del = await grantee.deleteNote(note.id);
    await t.verify('notes.delete.requires-edit', async () => {
      expectRefused(del, 'a delete with access permission only');
      expect((await t.api.getNote(note.id)).status, 'the note survives').toBe(200);
    });
    const declared = t.profile.statuses?.forbidden;
    if (declared !== undefined) {
      await t.verify('errors.status.forbidden', () =>
        expectDeclaredStatus(update, 'forbidden', declared, 'an update without edit permission'),
      );
    } else {
      t.skipRule('errors.status.forbidden', 'the profile declares no statuses.forbidden');
    }
  },
);

check(
  'edit lets a user update and delete a note but not set its created_at; own does',
  {
    rules: ['permissions.edit.update-delete', 'notes.set-created-at.requires-owner', 'permissions.own.set-created-at'],
    needs: ['fixtures:users', 'fixtures:grants'],
  },
  async (t) => {
    const note = await t.data.note();
    const { user, api: grantee } = await t.fixtureUser();
    await t.fixtures().grant('note', note.id, user.user_id, 'edit');
    const update = await grantee.updateNote(note.id, {
      content: t.data.content('Edited by a collaborator'),
      version: note.version,
    });
    await t.verify('permissions.edit.update-delete', () =>
      expect(update.status, `a user with edit updates the note: ${show(update)}`).toBe(200),
    );
    const before = await noteState(t.api, note.id);
    const dated = await grantee.setCreatedAt(note.id, { created_at: pastIso(t, 86_400_000) });
    await t.verify('notes.set-created-at.requires-owner', async () => {
      expectRefused(dated, 'set-created-at by an editor who does not own the note');
      expect(await noteState(t.api, note.id)).toEqual(before);
    });
    await t.fixtures().grant('note', note.id, user.user_id, 'own');
    const owned = await grantee.setCreatedAt(note.id, { created_at: pastIso(t, 86_400_000) });
    await t.verify('permissions.own.set-created-at', () =>
      expect(owned.status, `a user with own sets created_at: ${show(owned)}`).toBe(200),
    );
    // Delete with edit only (the first note now has own, which would prove less).
    const second = await t.data.note();
    await t.fixtures().grant('note', second.id, user.user_id, 'edit');
    const del = await grantee.deleteNote(second.id);
    await t.verify('permissions.edit.update-delete', async () => {
      expect(del.status, `a user with edit deletes the note: ${show(del)}`).toBe(200);
      expectRefused(await t.api.getNote(second.id), 'reading the deleted note');
    });
  },
);

check(
  'on a collection: access reads, contribute adds notes, edit updates and deletes',
  {
    rules: ['permissions.collection.access-edit', 'permissions.contribute.add', 'membership.add.requires-contribute'],
    needs: ['fixtures:users', 'fixtures:grants'],
  },
  async (t) => {
    const coll = await t.data.collection();
    const { user, api: grantee } = await t.fixtureUser();
    const theirNote = await t.data.note(undefined, {}, grantee);
    await t.fixtures().grant('collection', coll.id, user.user_id, 'access');
    const read = await grantee.getCollection(coll.id);
    await t.verify('permissions.collection.access-edit', () =>
      expect(read.status, `a user with access reads the collection: ${show(read)}`).toBe(200),
    );
    const before = await collectionState(t.api, coll.id);
    const add = await grantee.addToCollection(coll.id, theirNote.id);
    await t.verify('membership.add.requires-contribute', async () => {
      expectRefused(add, 'adding a note with access permission only');
      expect((await collectionState(t.api, coll.id)).note_count).toBe(before.note_count);
    });
    // A PATCH and a DELETE with access only are collections/read-update-delete.check.ts's.
    await t.fixtures().grant('collection', coll.id, user.user_id, 'contribute');
    const contributed = await grantee.addToCollection(coll.id, theirNote.id);
    await t.verify(['permissions.contribute.add', 'membership.add.requires-contribute'], async () => {
      expect(contributed.status, `a user with contribute adds a note: ${show(contributed)}`).toBe(200);
      expect((await collectionState(t.api, coll.id)).note_count).toBe((before.note_count as number) + 1);
    });
    await t.fixtures().grant('collection', coll.id, user.user_id, 'edit');
    const edited = await grantee.updateCollection(coll.id, { title: `Renamed ${t.data.word()}` });
    const deleted = await grantee.deleteCollection(coll.id);
    await t.verify('permissions.collection.access-edit', () => {
      expect(edited.status, `a user with edit updates the collection: ${show(edited)}`).toBe(200);
      expect(deleted.status, `a user with edit deletes the collection: ${show(deleted)}`).toBe(200);
    });
  },
);

check(
  'a move needs more than access on the target, and more than access on the source',
  {
    rules: ['membership.move.requires-permissions'],
    needs: ['fixtures:users', 'fixtures:grants'],
  },
  async (t) => {
    const { user, api: grantee } = await t.fixtureUser();
    const theirNote = await t.data.note(undefined, {}, grantee);
    const theirs = await t.data.collection(undefined, {}, grantee);
    setupOk(await grantee.addToCollection(theirs.id, theirNote.id), 'the grantee adds its note to its collection');
    const target = await t.data.collection();
    await t.fixtures().grant('collection', target.id, user.user_id, 'access');
    const into = await grantee.moveNote(theirs.id, theirNote.id, { target_collection_id: target.id });
    await t.verify('membership.move.requires-permissions', async () => {
      expectRefused(into, 'a move into a collection the caller can only access');
      expect((await noteState(grantee, theirNote.id)).collection_ids, 'the note stays in its source').toEqual([
        theirs.id,
      ]);
    });
    // The other way round: the source is the owner's, the grantee may only access it.
    const source = await t.data.collection();
    const ownersNote = await t.data.note();
    setupOk(await t.api.addToCollection(source.id, ownersNote.id), "add the owner's note to the source");
    await t.fixtures().grant('collection', source.id, user.user_id, 'access');
    await t.fixtures().grant('note', ownersNote.id, user.user_id, 'access');
    const out = await grantee.moveNote(source.id, ownersNote.id, { target_collection_id: theirs.id });
    await t.verify('membership.move.requires-permissions', async () => {
      expectRefused(out, 'a move out of a collection the caller can only access');
      expect((await noteState(t.api, ownersNote.id)).collection_ids, 'the note stays in the source').toEqual([
        source.id,
      ]);
    });
  },
);

check(
  "a note shared at access level appears in the grantee's note list",
  {
    rules: ['auth.scope.shared-visible'],
    needs: ['fixtures:users', 'fixtures:grants'],
  },
  async (t) => {
    // A unique backdated window, so the grantee's list holds this note and nothing else of ours.
    const w = t.data.window();
    const shared = await t.data.note(undefined, { created_at: w.at(0) });
    const unshared = await t.data.note(undefined, { created_at: w.at(1_000) });
    const { user, api: grantee } = await t.fixtureUser();
    await t.fixtures().grant('note', shared.id, user.user_id, 'access');
    const list = setupOk(
      await grantee.listNotes({ created_after: w.at(0), created_before: w.at(1_000) }),
      'list the window as the grantee',
    );
    await t.verify('auth.scope.shared-visible', () => {
      const ids = (list.results as Array<{ id: string }>).map((r) => r.id);
      expect(ids, 'the shared note is visible to the grantee in the list').toContain(shared.id);
      expect(ids, 'a note not shared stays invisible').not.toContain(unshared.id);
    });
  },
);
