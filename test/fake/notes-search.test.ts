import { describe, expect, it } from 'vitest';
import { createCollection } from '../../fake/service/collections.js';
import { relatedNotes } from '../../fake/service/notes-related.js';
import { searchNotes } from '../../fake/service/notes-search.js';
import { createNote, updateNote } from '../../fake/service/notes-write.js';
import type { View } from '../../fake/service/views.js';
import { harness, refused } from './helpers.js';

describe('search notes', () => {
  it('ranks title matches first and freezes the window in a snapshot', () => {
    const { ctx, alice } = harness();
    const strong = createNote(ctx, alice, { content: 'zebra\nzebra stripes' }).id;
    for (let i = 0; i < 30; i++)
      createNote(ctx, alice, {
        content: `animal ${i}\nlong text about many things and a zebra once ${'filler '.repeat(i)}`,
      });
    const first = searchNotes(ctx, alice, { limit: '10' }, { query: 'zebra' });
    expect(first).toMatchObject({ total: 31, limit: 10, offset: 0, has_next_page: true });
    expect((first.results as View[])[0]!.id).toBe(strong);
    // New and edited notes after the first page do not change the snapshot.
    createNote(ctx, alice, { content: 'zebra zebra zebra\nzebra' });
    updateNote(ctx, alice, strong as string, { content: 'horse', version: 1 });
    const pages = [first];
    for (let offset = 10; offset < 31; offset += 10) {
      pages.push(
        searchNotes(
          ctx,
          alice,
          { limit: '10', offset: String(offset), snapshot_id: first.snapshot_id as string },
          { query: 'zebra' },
        ),
      );
    }
    const ids = pages.flatMap((p) => (p.results as View[]).map((r) => r.id));
    expect(new Set(ids).size).toBe(31);
    expect(pages.at(-1)).toMatchObject({ total: 31, has_next_page: false });
  });

  it('caps total at the 100-result window', () => {
    const { ctx, alice } = harness();
    for (let i = 0; i < 105; i++) createNote(ctx, alice, { content: `kiwi ${i}` });
    const page = searchNotes(ctx, alice, { limit: '50', offset: '0' }, { query: 'kiwi' });
    expect(page.total).toBe(100);
    const last = searchNotes(
      ctx,
      alice,
      { limit: '50', offset: '50', snapshot_id: page.snapshot_id as string },
      { query: 'kiwi' },
    );
    expect(last).toMatchObject({ has_next_page: false });
    expect(last.results).toHaveLength(50);
  });

  it('validates the query, limit, offset and snapshot', () => {
    const { ctx, alice, bob } = harness();
    refused('validation', () => searchNotes(ctx, alice, {}, {}));
    refused('validation', () => searchNotes(ctx, alice, {}, { query: ' \t\n' }));
    refused('validation', () => searchNotes(ctx, alice, {}, { query: 7 }));
    refused('validation', () => searchNotes(ctx, alice, { limit: '51' }, { query: 'a' }));
    refused('validation', () => searchNotes(ctx, alice, { offset: '-1' }, { query: 'a' }));
    refused('validation', () => searchNotes(ctx, alice, { offset: '1' }, { query: 'a' }));
    refused('unknown_snapshot', () => searchNotes(ctx, alice, { offset: '1', snapshot_id: 'nope' }, { query: 'a' }));
    const mine = searchNotes(ctx, alice, {}, { query: 'a' });
    refused('unknown_snapshot', () =>
      searchNotes(ctx, bob, { offset: '1', snapshot_id: mine.snapshot_id as string }, { query: 'a' }),
    );
    expect(searchNotes(ctx, alice, {}, { query: '!!!' })).toMatchObject({ total: 0, limit: 20, offset: 0 });
  });

  it('filters by any listed collection and by contains flags', () => {
    const { ctx, alice } = harness();
    const c1 = createCollection(ctx, alice, { title: 'one' }).id as string;
    const c2 = createCollection(ctx, alice, { title: 'two' }).id as string;
    const a = createNote(ctx, alice, { content: 'lemon a', collection_ids: [c1] }).id;
    const b = createNote(ctx, alice, { content: 'lemon b\n- [ ] x', collection_ids: [c2] }).id;
    createNote(ctx, alice, { content: 'lemon c' });
    const ids = (body: object) =>
      (searchNotes(ctx, alice, {}, { query: 'lemon', ...body }).results as View[]).map((r) => r.id).sort();
    expect(ids({ collections: [c1, c2] })).toEqual([a, b].sort());
    expect(ids({ open_tasks: true })).toEqual([b]);
    refused('validation', () => searchNotes(ctx, alice, {}, { query: 'lemon', collections: ['x'] }));
  });
});

describe('related notes', () => {
  it("scores by shared terms of the current content, excluding the note itself and others' notes", () => {
    const { ctx, alice, bob } = harness();
    const base = createNote(ctx, alice, { content: 'sourdough bread recipe\nflour water salt starter' }).id as string;
    const close = createNote(ctx, alice, { content: 'bread baking\nflour and starter' }).id;
    createNote(ctx, alice, { content: 'car repair\noil change' });
    createNote(ctx, bob, { content: 'sourdough bread recipe flour water salt starter' });
    const related = relatedNotes(ctx, alice, base, {});
    const results = related.results as View[];
    expect(results.map((r) => r.id)).toEqual([close]);
    expect(results[0]).toMatchObject({ collections: [], collection_ids: [] });
    expect(typeof results[0]!.score).toBe('number');
    updateNote(ctx, alice, base, { content: 'car engine\noil', version: 1 });
    expect((relatedNotes(ctx, alice, base, {}).results as View[])[0]!.title).toBe('car repair');
    refused('validation', () => relatedNotes(ctx, alice, base, { limit: '21' }));
  });
});
