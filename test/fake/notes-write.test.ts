import { describe, expect, it } from 'vitest';
import { createCollection } from '../../fake/service/collections.js';
import { getNote, trashNote } from '../../fake/service/notes-lifecycle.js';
import { createNote, setNoteCreatedAt, updateNote } from '../../fake/service/notes-write.js';
import { harness, iso, refused, T0 } from './helpers.js';

describe('create note', () => {
  it('derives the title from the first line and starts at version 1 without trashed_at', () => {
    const { ctx, alice } = harness();
    const note = createNote(ctx, alice, { content: '  Groceries  \n- milk' });
    expect(note).toMatchObject({
      title: 'Groceries',
      content: '  Groceries  \n- milk',
      version: 1,
      collection_ids: [],
    });
    expect(note).not.toHaveProperty('trashed_at');
    expect(note).not.toHaveProperty('audio_recording_ids');
  });

  it('strips heading markers when the profile says so', () => {
    const { ctx, alice } = harness({ profile: 'fake-divergent' });
    expect(createNote(ctx, alice, { content: '## Plan ##\nbody' }).title).toBe('Plan');
    const plain = harness();
    expect(createNote(plain.ctx, plain.alice, { content: '## Plan ##\nbody' }).title).toBe('## Plan ##');
  });

  it('limits content to 200,000 characters and 200,000 UTF-8 bytes', () => {
    const { ctx, alice } = harness();
    expect(createNote(ctx, alice, { content: 'x'.repeat(200_000) }).id).toBeDefined();
    refused('validation', () => createNote(ctx, alice, { content: 'x'.repeat(200_001) }));
    expect(createNote(ctx, alice, { content: 'é'.repeat(100_000) }).id).toBeDefined();
    refused('validation', () => createNote(ctx, alice, { content: 'é'.repeat(100_001) }));
    // Astral characters count as one character each (code points).
    expect(createNote(ctx, alice, { content: '😀'.repeat(50_000) }).id).toBeDefined();
  });

  it('refuses a missing content and wrong types, and creates nothing', () => {
    const { ctx, alice } = harness();
    for (const body of [
      {},
      { content: 5 },
      { content: 'x', collection_ids: 'a' },
      { content: 'x', collection_titles: [1] },
      { content: 'x', created_at: 12 },
      [],
      null,
    ]) {
      refused('validation', () => createNote(ctx, alice, body));
    }
    expect(ctx.store.notes.size).toBe(0);
  });

  it('applies the timestamp defaults: created_at from updated_at, updated_at from server time', () => {
    const { ctx, alice } = harness();
    const past = iso(T0 - 86_400_000);
    expect(createNote(ctx, alice, { content: 'a' })).toMatchObject({ created_at: iso(T0), updated_at: iso(T0) });
    expect(createNote(ctx, alice, { content: 'b', updated_at: past })).toMatchObject({
      created_at: past,
      updated_at: past,
    });
    expect(createNote(ctx, alice, { content: 'c', created_at: past })).toMatchObject({
      created_at: past,
      updated_at: iso(T0),
    });
  });

  it('requires offsets, refuses the future, and compares instants', () => {
    const { ctx, alice } = harness();
    refused('validation', () => createNote(ctx, alice, { content: 'a', created_at: '2026-05-01T00:00:00' }));
    refused('validation', () => createNote(ctx, alice, { content: 'a', updated_at: iso(T0 + 1) }));
    // The instant one hour ago, written with a +14:00 offset (its wall clock looks like tomorrow).
    const farEast = '2026-06-02T01:00:00.000+14:00';
    expect(createNote(ctx, alice, { content: 'a', created_at: farEast }).created_at).toBe(iso(T0 - 3_600_000));
    // An instant one hour ahead, written in -05:00 (its wall clock looks earlier).
    refused('validation', () => createNote(ctx, alice, { content: 'a', created_at: '2026-06-01T08:00:00.000-05:00' }));
    expect(createNote(ctx, alice, { content: 'a', created_at: iso(T0) }).created_at).toBe(iso(T0));
  });

  it("uses a supplied id and answers 409 for any existing one, trashed or another user's, changing nothing", () => {
    const { ctx, alice, bob } = harness();
    const id = '0b6f7a52-3c1e-4f0e-9d7a-1b2c3d4e5f60';
    expect(createNote(ctx, alice, { id, content: 'first' }).id).toBe(id);
    refused('conflict', () => createNote(ctx, alice, { id, content: 'second' }));
    refused('conflict', () => createNote(ctx, bob, { id, content: 'bob' }));
    trashNote(ctx, alice, id);
    refused('conflict', () => createNote(ctx, alice, { id, content: 'third' }));
    expect(getNote(ctx, alice, id)).toMatchObject({ content: 'first', version: 1 });
    refused('validation', () => createNote(ctx, alice, { id: 'note-1', content: 'x' }));
  });

  it('links accessible collections by id and by case-insensitive exact title, ignoring the rest', () => {
    const { ctx, alice, bob } = harness();
    const home = createCollection(ctx, alice, { title: 'Home' }).id as string;
    const work = createCollection(ctx, alice, { title: 'Work Stuff' }).id as string;
    const bobs = createCollection(ctx, bob, { title: 'home' }).id as string;
    const note = createNote(ctx, alice, {
      content: 'x',
      collection_ids: [home, bobs, '11111111-2222-4333-8444-555555555555'],
      collection_titles: ['WORK STUFF', 'Work', 'nothing like it', ' work stuff'],
    });
    expect([...(note.collection_ids as string[])].sort()).toEqual([home, work].sort());
    expect(ctx.store.collections.get(bobs)!.noteIds.size).toBe(0);
    // Unknown ids are ignored; a malformed one is refused (as search refuses it) and creates nothing.
    const notes = ctx.store.notes.size;
    expect(
      refused('validation', () => createNote(ctx, alice, { content: 'x', collection_ids: [home, 'not-a-uuid'] })),
    ).toBe('collection_ids[1] must be a UUID');
    expect(ctx.store.notes.size).toBe(notes);
  });

  it('limits collection_titles entries to 1,000 characters and bytes', () => {
    const { ctx, alice } = harness();
    createNote(ctx, alice, { content: 'x', collection_titles: ['t'.repeat(1000)] });
    refused('validation', () => createNote(ctx, alice, { content: 'x', collection_titles: ['t'.repeat(1001)] }));
    refused('validation', () => createNote(ctx, alice, { content: 'x', collection_titles: ['é'.repeat(501)] }));
  });
});

describe('update note', () => {
  it('replaces the content at the exact current version and changes the version', () => {
    const { ctx, alice, clock } = harness();
    const { id } = createNote(ctx, alice, { content: 'one\nold body' }) as { id: string };
    clock.advance(1000);
    const updated = updateNote(ctx, alice, id, { content: 'two', version: 1 });
    expect(updated).toMatchObject({
      title: 'two',
      content: 'two',
      version: 2,
      trashed_at: null,
      updated_at: iso(T0 + 1000),
    });
    refused('version_mismatch', () => updateNote(ctx, alice, id, { content: 'stale', version: 1 }));
    refused('version_mismatch', () => updateNote(ctx, alice, id, { content: 'ahead', version: 3 }));
    refused('validation', () => updateNote(ctx, alice, id, { content: 'zero', version: 0 }));
    refused('validation', () => updateNote(ctx, alice, id, { content: 'none' }));
    expect(getNote(ctx, alice, id)).toMatchObject({ content: 'two', version: 2 });
  });

  it('keeps a supplied updated_at, refuses one without an offset, limits content to 200,000 characters only', () => {
    const { ctx, alice } = harness();
    const { id } = createNote(ctx, alice, { content: 'a' }) as { id: string };
    const past = iso(T0 - 5000);
    expect(updateNote(ctx, alice, id, { content: 'b', version: 1, updated_at: past }).updated_at).toBe(past);
    refused('validation', () =>
      updateNote(ctx, alice, id, { content: 'c', version: 2, updated_at: '2026-01-01T00:00:00' }),
    );
    refused('validation', () => updateNote(ctx, alice, id, { content: 'x'.repeat(200_001), version: 2 }));
    expect(updateNote(ctx, alice, id, { content: 'é'.repeat(150_000), version: 2 }).version).toBe(3);
  });

  it('refuses a trashed note', () => {
    const { ctx, alice } = harness();
    const { id } = createNote(ctx, alice, { content: 'a' }) as { id: string };
    trashNote(ctx, alice, id);
    refused('trashed', () => updateNote(ctx, alice, id, { content: 'b', version: 1 }));
  });
});

describe('set created-at', () => {
  it('backdates only, bounded by the original creation, and changes only metadata', () => {
    const { ctx, alice, clock } = harness();
    const { id } = createNote(ctx, alice, { content: 'Title\nbody' }) as { id: string };
    clock.advance(60_000);
    const earlier = iso(T0 - 86_400_000);
    expect(setNoteCreatedAt(ctx, alice, id, { created_at: earlier })).toMatchObject({
      created_at: earlier,
      content: 'Title\nbody',
      version: 1,
      trashed_at: null,
    });
    // Later than the current created_at but not than the original creation: still allowed.
    expect(setNoteCreatedAt(ctx, alice, id, { created_at: iso(T0) }).created_at).toBe(iso(T0));
    refused('validation', () => setNoteCreatedAt(ctx, alice, id, { created_at: iso(T0 + 1) }));
    refused('validation', () => setNoteCreatedAt(ctx, alice, id, { created_at: iso(T0 + 120_000) }));
    refused('validation', () => setNoteCreatedAt(ctx, alice, id, { created_at: '2026-01-01T00:00:00' }));
    refused('validation', () => setNoteCreatedAt(ctx, alice, id, {}));
    trashNote(ctx, alice, id);
    refused('trashed', () => setNoteCreatedAt(ctx, alice, id, { created_at: earlier }));
  });
});
