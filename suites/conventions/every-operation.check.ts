import { checks, setupOk } from '../harness/index.js';

const { check } = checks();

/**
 * One success of every documented operation: the oracle judges each (kit/core/oracle/conventions.ts):
 * 200, a JSON body declared as JSON with a request_id no other request got, offset timestamps.
 */
check(
  'every operation answers a success with 200, a JSON body, a request_id and offset timestamps',
  {
    oracle: [
      'conventions.request-id.on-every-success',
      'conventions.success.status-200',
      'conventions.json.bodies',
      'conventions.json.content-type',
      'conventions.request-id.unique',
      'conventions.timestamps.response-format',
    ],
  },
  async (t) => {
    const word = t.data.word();
    const step = <T>(_op: string, x: Promise<T>) => x;
    const c1 = setupOk(
      await step('createCollection', t.api.createCollection({ title: `Conventions ${word}` })),
      'create a collection',
    );
    const c2 = setupOk(
      await step('createCollection', t.api.createCollection({ title: `Conventions target ${word}` })),
      'create a collection',
    );
    const note = setupOk(
      await step(
        'createNote',
        t.api.createNote({ content: t.data.content(`Conventions ${word}`, 'body'), collection_ids: [c1.id] }),
      ),
      'create a note',
    );
    await step('getNote', t.api.getNote(note.id));
    await step(
      'updateNote',
      t.api.updateNote(note.id, { content: t.data.content(`Conventions ${word}`, 'edited'), version: note.version }),
    );
    await step(
      'setNoteCreatedAt',
      t.api.setCreatedAt(note.id, { created_at: new Date(Date.parse(note.created_at) - 86_400_000).toISOString() }),
    );
    await step('listNotes', t.api.listNotes({ limit: 1 }));
    await step('searchNotes', t.api.searchNotes({ limit: 1 }, { query: word }));
    await step('getRelatedNotes', t.api.relatedNotes(note.id, { limit: 1 }));
    await step('getCollection', t.api.getCollection(c1.id));
    await step('updateCollection', t.api.updateCollection(c1.id, { description: 'described' }));
    await step('listCollections', t.api.listCollections({ limit: 1 }));
    await step('addNoteToCollection', t.api.addToCollection(c2.id, note.id));
    await step('moveNote', t.api.moveNote(c2.id, note.id, { target_collection_id: c1.id }));
    await step('searchCollections', t.api.searchCollections({}));
    // Trash's response shape is not shown, but "all responses are 200 on success" and every
    // successful JSON response carries request_id hold for it too.
    await step('trashNote', t.api.trashNote(note.id));
    // The note, still in a collection, read in the trash and trashed again, then read deleted and
    // deleted again: states the explorer visits otherwise (docs/judging.md), judged where determined.
    await t.api.getNote(note.id);
    await t.api.trashNote(note.id);
    await step('deleteNote', t.api.deleteNote(note.id));
    await t.api.getNote(note.id);
    await t.api.deleteNote(note.id);
    await step('deleteCollection', t.api.deleteCollection(c2.id));
    // With one collection of the two left: on an account holding no other, a page of one that is exactly
    // the last (a paging boundary the explorer visits otherwise).
    await t.api.listCollections({ limit: 1 });
  },
);
