import { expect } from 'vitest';
import type { Exchange } from '../harness/index.js';
import { checks, expectRefused, setupOk, show } from '../harness/index.js';
import { collectionState, futureIso } from '../harness/patterns.js';
import { perFile } from '../harness/shared.js';

const { check } = checks();

const succeeded = (x: Exchange) => x.status >= 200 && x.status < 300;

/**
 * The collection this file's refusal check and delete check share (one create and one delete for
 * both): the one sends it refused PATCHes and then one at the limits, the other only links a note
 * to it.
 */
const sharedCollection = perFile((t) => t.data.collection(`Shared ${t.data.word()}`, { description: 'shared' }));

/**
 * Reads and PATCHes of a collection, each answer judged by the oracle (kit/core/behaviour/
 * predict-collections.ts, views.ts): the read's shape, note_count, no note list and no state field;
 * each PATCH's shape, without note_count, the fields sent applied and the others kept, updated_at as
 * sent or the server time; the reads after them.
 */
check(
  'a read shows metadata and note_count, no note list; PATCH changes only the fields sent, answers without note_count, keeps a supplied updated_at',
  {
    oracle: [
      'collections.read.response-fields',
      'collections.read.note-count',
      'collections.read.no-note-list',
      'collections.read.no-state-field',
      'collections.update.response-fields',
      'collections.update.response-omits-note-count',
      'collections.update.partial',
      'collections.update.fields-applied',
      'collections.update.updated-at-preserved',
      'collections.update.updated-at-defaults-to-server-time',
    ],
  },
  async (t) => {
    const w = t.data.window();
    // Backdated, so "left unchanged" and "set to server time" cannot look alike.
    const c = await t.data.collection(`Read ${t.data.word()}`, {
      description: 'kept description',
      created_at: w.at(0),
      updated_at: w.at(1_000),
    });
    for (const head of ['Held', 'Also held'])
      await t.data.note(t.data.content(`${head} ${t.data.word()}`), { collection_ids: [c.id] });
    await t.api.updateCollection(c.id, { title: `Renamed ${t.data.word()}`, updated_at: w.at(5_000) });
    await t.api.getCollection(c.id);
    await t.api.updateCollection(c.id, { description: 'new description' });
    await t.api.getCollection(c.id);
  },
);

check(
  'a collection_id that is not a UUID is refused with a 4xx',
  { oracle: ['collections.read.invalid-id-refused'] },
  async (t) => {
    await t.api.getCollection('not-a-uuid');
    await t.api.updateCollection('x'.repeat(36), { title: 'x' });
    await t.api.deleteCollection('0b6f7a52-3c1e-4f0e-9d7a-1b2c3d4e5f6');
  },
);

/**
 * PATCHes the document refuses, each writing a title or description the collection does not have,
 * then a read (a refused PATCH's value seen there breaks its rule), then one at the limits.
 */
check(
  'a PATCH with a wrong type, a bad updated_at or an oversized title or description is refused and changes nothing; the limits are allowed',
  {
    oracle: [
      'collections.update.field-types',
      'collections.update.updated-at-offset-required',
      'collections.update.updated-at-not-future',
      'collections.update.title-max-chars',
      'collections.update.title-max-bytes',
      'collections.update.description-max-chars',
      'collections.update.description-max-bytes',
    ],
  },
  async (t) => {
    const word = t.data.word();
    const c = await sharedCollection(t);
    let sent = 0;
    const changed = () => `Must not be stored ${word} ${++sent}`;
    for (const body of [
      { title: 42 },
      { description: 7 },
      { description: [changed()] },
      { title: changed(), updated_at: '2021-03-04T05:06:07' },
      { title: changed(), updated_at: futureIso(t) },
      { title: 'a'.repeat(1_001) },
      { title: `${word} ${'\u00e9'.repeat(500)}` },
      { description: 'a'.repeat(10_001) },
      { description: `${word} ${'\u00e9'.repeat(5_000)}` },
    ])
      await t.api.updateCollection(c.id, body);
    await t.api.getCollection(c.id);
    // Last, as the one accepted write to the shared collection: the other check only links a note to it.
    await t.api.updateCollection(c.id, {
      title: `${word} ${'a'.repeat(1_000)}`.slice(0, 1_000),
      description: 'b'.repeat(10_000),
    });
  },
);

check(
  'a caller with only access to a collection can neither update nor delete it',
  {
    rules: ['collections.update.requires-edit', 'collections.delete.requires-edit'],
    needs: ['fixtures:users', 'fixtures:grants'],
  },
  async (t) => {
    const c = await t.data.collection(`Shared ${t.data.word()}`, { description: 'read only for the guest' });
    const { user, api: guest } = await t.fixtureUser();
    await t.fixtures().grant('collection', c.id, user.user_id, 'access');
    setupOk(await guest.getCollection(c.id), 'the guest reads the collection shared with access');
    const before = await collectionState(t.api, c.id);
    const update = await guest.updateCollection(c.id, {
      title: `Guest edit ${t.data.word()}`,
      description: 'changed by the guest',
    });
    await t.verify('collections.update.requires-edit', async () => {
      expectRefused(update, 'a PATCH by a caller with access only');
      expect(await collectionState(t.api, c.id), 'the collection is unchanged').toEqual(before);
    });
    const del = await guest.deleteCollection(c.id);
    await t.verify('collections.delete.requires-edit', async () => {
      expectRefused(del, 'a DELETE by a caller with access only');
      const read = await t.api.getCollection(c.id);
      expect(succeeded(read), `the collection survives a refused delete: ${show(read)}`).toBe(true);
    });
  },
);

/** A collection deleted: answered {request_id}, gone, and the note it held still there without the link. */
check(
  'DELETE removes the collection for good and answers {request_id}; its notes stay, without the link',
  {
    oracle: [
      'collections.delete.response-fields',
      'collections.delete.permanent',
      'collections.delete.unlinks-notes',
      'collections.delete.notes-survive',
    ],
  },
  async (t) => {
    const gone = await t.data.collection(`Deleted ${t.data.word()}`);
    // Any collection the note stays in will do: the file's shared one.
    const kept = await sharedCollection(t);
    // A time window only this note uses: the note list is a second view of its links.
    const w = t.data.window();
    const note = await t.data.note(undefined, { collection_ids: [gone.id, kept.id], created_at: w.at(0) });
    await t.api.deleteCollection(gone.id);
    await t.api.getCollection(gone.id);
    await t.api.getNote(note.id);
    await t.api.listNotes({ created_after: w.at(-1_000), created_before: w.at(1_000) });
  },
);
