import { describe, expect, it } from 'vitest';
import { createCollection, getCollection } from '../../fake/service/collections.js';
import { addNoteToCollection } from '../../fake/service/membership.js';
import { deleteNote, getNote, restoreNote, trashNote } from '../../fake/service/notes-lifecycle.js';
import { createNote, setNoteCreatedAt, updateNote } from '../../fake/service/notes-write.js';
import { harness, iso, refused, T0 } from './helpers.js';

describe('trash, restore and delete', () => {
  it('trash sets trashed_at, keeps the note readable, and restore makes it editable again', () => {
    const { ctx, alice, clock } = harness();
    const { id } = createNote(ctx, alice, { content: 'a' }) as { id: string };
    clock.advance(500);
    trashNote(ctx, alice, id);
    expect(getNote(ctx, alice, id)).toMatchObject({ id, trashed_at: iso(T0 + 500) });
    restoreNote(ctx, alice, id);
    expect(getNote(ctx, alice, id).trashed_at).toBeNull();
    expect(updateNote(ctx, alice, id, { content: 'b', version: 1 }).version).toBe(2);
    expect(setNoteCreatedAt(ctx, alice, id, { created_at: iso(T0 - 1) }).created_at).toBe(iso(T0 - 1));
  });

  it('deletes active and trashed notes permanently, unlinking them', () => {
    const { ctx, alice } = harness();
    const coll = createCollection(ctx, alice, { title: 'c' }).id as string;
    const a = createNote(ctx, alice, { content: 'a', collection_ids: [coll] }).id as string;
    const b = createNote(ctx, alice, { content: 'b' }).id as string;
    trashNote(ctx, alice, b);
    deleteNote(ctx, alice, a);
    deleteNote(ctx, alice, b);
    refused('not_found', () => getNote(ctx, alice, a));
    refused('not_found', () => getNote(ctx, alice, b));
    refused('not_found', () => restoreNote(ctx, alice, b));
    expect(getCollection(ctx, alice, coll).note_count).toBe(0);
    refused('not_found', () => deleteNote(ctx, alice, a));
  });

  it('counts only active notes in note_count', () => {
    const { ctx, alice } = harness();
    const coll = createCollection(ctx, alice, { title: 'c' }).id as string;
    const a = createNote(ctx, alice, { content: 'a' }).id as string;
    addNoteToCollection(ctx, alice, coll, a);
    expect(getCollection(ctx, alice, coll).note_count).toBe(1);
    trashNote(ctx, alice, a);
    expect(getCollection(ctx, alice, coll).note_count).toBe(0);
  });

  it('returns attachments and audio recordings on read only', () => {
    const { ctx, alice, core } = harness();
    const id = createNote(ctx, alice, { content: 'a' }).id as string;
    const fx = core.handle({
      method: 'POST',
      url: `/_fixtures/notes/${id}/attachments`,
      headers: { authorization: `Bearer ${core.config.adminToken}` },
      body: JSON.stringify({ attachment_kind: 'pdf', page_count: 3, summary: 'S' }),
    });
    expect(fx.status).toBe(200);
    const read = getNote(ctx, alice, id);
    expect(read.attachment_metadata).toEqual([
      expect.objectContaining({
        attachment_kind: 'pdf',
        page_count: 3,
        summary: 'S',
        image_type: null,
        ocr_text: null,
      }),
    ]);
    expect(updateNote(ctx, alice, id, { content: 'b', version: 1 })).not.toHaveProperty('attachment_metadata');
  });
});
