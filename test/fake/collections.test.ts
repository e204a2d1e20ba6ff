import { describe, expect, it } from 'vitest';
import {
  createCollection,
  deleteCollection,
  getCollection,
  trashCollection,
  updateCollection,
} from '../../fake/service/collections.js';
import { listCollections, searchCollections } from '../../fake/service/collections-query.js';
import { addNoteToCollection, moveNote, removeNoteFromCollection } from '../../fake/service/membership.js';
import { getNote } from '../../fake/service/notes-lifecycle.js';
import { createNote } from '../../fake/service/notes-write.js';
import type { View } from '../../fake/service/views.js';
import { harness, iso, refused, T0 } from './helpers.js';

describe('collections', () => {
  it('creates with limits in characters and bytes, nulls and timestamp defaults', () => {
    const { ctx, alice } = harness();
    const created = createCollection(ctx, alice, {
      title: 't'.repeat(1000),
      description: 'd'.repeat(10_000),
      id: null,
      created_at: null,
      updated_at: null,
    });
    expect(created).not.toHaveProperty('note_count');
    expect(created).toMatchObject({ created_at: iso(T0), updated_at: iso(T0) });
    for (const body of [
      {},
      { title: 't'.repeat(1001) },
      { title: 'é'.repeat(501) },
      { title: 't', description: 'd'.repeat(10_001) },
      { title: 't', description: 'é'.repeat(5001) },
      { title: 7 },
    ]) {
      refused('validation', () => createCollection(ctx, alice, body));
    }
    const past = iso(T0 - 10_000);
    expect(createCollection(ctx, alice, { title: 'a', created_at: past })).toMatchObject({
      created_at: past,
      updated_at: past,
    });
    expect(createCollection(ctx, alice, { title: 'b', updated_at: past })).toMatchObject({
      created_at: past,
      updated_at: past,
    });
    refused('validation', () => createCollection(ctx, alice, { title: 'c', updated_at: iso(T0 + 5) }));
    refused('validation', () => createCollection(ctx, alice, { title: 'c', created_at: '2026-01-01T10:00' }));
  });

  it("answers 409 for an existing id, including a trashed one and another user's", () => {
    const { ctx, alice, bob } = harness();
    const id = '5a0c1f3e-8d2b-4c6a-9e7f-0a1b2c3d4e5f';
    createCollection(ctx, alice, { id, title: 'mine' });
    refused('conflict', () => createCollection(ctx, bob, { id, title: 'theirs' }));
    trashCollection(ctx, alice, id);
    refused('not_found', () => getCollection(ctx, alice, id));
    refused('conflict', () => createCollection(ctx, alice, { id, title: 'again' }));
    refused('validation', () => createCollection(ctx, alice, { id: 'x', title: 'x' }));
  });

  it('lets only the owner purge a trashed collection with DELETE, freeing its id', () => {
    const { ctx, alice, bob } = harness();
    const id = createCollection(ctx, alice, { title: 'binned' }).id as string;
    trashCollection(ctx, alice, id);
    refused('not_found', () => deleteCollection(ctx, bob, id));
    expect(deleteCollection(ctx, alice, id)).toEqual({});
    expect(ctx.store.collections.has(id)).toBe(false);
    refused('not_found', () => deleteCollection(ctx, alice, id));
    expect(createCollection(ctx, alice, { id, title: 'again' }).id).toBe(id);
  });

  it('updates only the provided fields and keeps a supplied updated_at', () => {
    const { ctx, alice, clock } = harness();
    const id = createCollection(ctx, alice, { title: 'T', description: 'D' }).id as string;
    clock.advance(1000);
    expect(updateCollection(ctx, alice, id, { title: 'T2' })).toMatchObject({
      title: 'T2',
      description: 'D',
      updated_at: iso(T0 + 1000),
    });
    expect(updateCollection(ctx, alice, id, { description: null })).toMatchObject({ title: 'T2', description: null });
    const past = iso(T0 - 99_000);
    expect(updateCollection(ctx, alice, id, { updated_at: past }).updated_at).toBe(past);
    expect(getCollection(ctx, alice, id)).toMatchObject({ updated_at: past, note_count: 0 });
    refused('validation', () => updateCollection(ctx, alice, id, { title: 'x'.repeat(1001) }));
  });

  it('deletes the collection and removes it from its notes', () => {
    const { ctx, alice } = harness();
    const id = createCollection(ctx, alice, { title: 'gone' }).id as string;
    const note = createNote(ctx, alice, { content: 'n', collection_ids: [id] }).id as string;
    deleteCollection(ctx, alice, id);
    refused('not_found', () => getCollection(ctx, alice, id));
    expect(getNote(ctx, alice, note).collection_ids).toEqual([]);
  });

  it('lists with null next_page at the end, and searches without paging', () => {
    const { ctx, alice, bob } = harness();
    for (let i = 0; i < 7; i++)
      createCollection(ctx, alice, { title: `c${i} kitchen`, created_at: iso(T0 - i * 1000) });
    createCollection(ctx, bob, { title: 'bob kitchen' });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: View = listCollections(ctx, alice, { limit: '3', ...(cursor ? { cursor } : {}) });
      expect(page.total).toBe(7);
      seen.push(...(page.results as View[]).map((r) => r.id as string));
      cursor = page.next_page as string | null;
      expect(page).toHaveProperty('next_page');
    } while (cursor !== null);
    expect(new Set(seen).size).toBe(7);
    const found = searchCollections(ctx, alice, { query: 'c3' });
    expect(found).toMatchObject({ total: 1 });
    expect(found).not.toHaveProperty('next_page');
    expect(searchCollections(ctx, alice, {}).total).toBe(7);
    expect(searchCollections(ctx, alice, { created_after: iso(T0 - 2000), created_before: iso(T0 - 1000) }).total).toBe(
      2,
    );
  });
});

describe('membership', () => {
  it('adds, moves (target first, then source) and removes, keeping collection_ids and note_count true', () => {
    const { ctx, alice } = harness();
    const a = createCollection(ctx, alice, { title: 'a' }).id as string;
    const b = createCollection(ctx, alice, { title: 'b' }).id as string;
    const n = createNote(ctx, alice, { content: 'note' }).id as string;
    addNoteToCollection(ctx, alice, a, n);
    addNoteToCollection(ctx, alice, b, n);
    expect([...(getNote(ctx, alice, n).collection_ids as string[])].sort()).toEqual([a, b].sort());
    removeNoteFromCollection(ctx, alice, b, n);
    const c = createCollection(ctx, alice, { title: 'c' }).id as string;
    moveNote(ctx, alice, a, n, { target_collection_id: c });
    expect(getNote(ctx, alice, n)).toMatchObject({ collection_ids: [c], content: 'note', version: 1 });
    expect(getCollection(ctx, alice, a).note_count).toBe(0);
    expect(getCollection(ctx, alice, c).note_count).toBe(1);
    refused('not_found', () =>
      moveNote(ctx, alice, c, n, { target_collection_id: '11111111-2222-4333-8444-555555555555' }),
    );
    expect(getNote(ctx, alice, n).collection_ids).toEqual([c]);
    refused('validation', () => moveNote(ctx, alice, c, n, {}));
    refused('not_found', () => addNoteToCollection(ctx, alice, c, '11111111-2222-4333-8444-555555555555'));
  });
});
