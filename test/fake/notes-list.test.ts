import { describe, expect, it } from 'vitest';
import { createCollection } from '../../fake/service/collections.js';
import { trashNote } from '../../fake/service/notes-lifecycle.js';
import { listNotes } from '../../fake/service/notes-list.js';
import { createNote } from '../../fake/service/notes-write.js';
import type { View } from '../../fake/service/views.js';
import { harness, iso, refused, T0 } from './helpers.js';

function seed(n: number) {
  const h = harness();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(
      createNote(h.ctx, h.alice, {
        content: `note ${i}\nbody`,
        created_at: iso(T0 - (n - i) * 60_000),
        updated_at: iso(T0 - ((i * 7) % n) * 1000),
      }).id as string,
    );
  }
  return { ...h, ids };
}

describe('list notes', () => {
  it('pages with a cursor: every note once, total before pagination, next_page omitted at the end', () => {
    const { ctx, alice, ids } = seed(23);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = listNotes(ctx, alice, { limit: '5', order_by: 'created_at', ...(cursor ? { cursor } : {}) });
      expect(page.total).toBe(23);
      seen.push(...(page.results as View[]).map((r) => r.id as string));
      cursor = page.next_page as string | undefined;
      if (!cursor) expect(page).not.toHaveProperty('next_page');
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toEqual([...ids].reverse());
  });

  it('defaults to 50 per page ordered by updated_at, newest first', () => {
    const { ctx, alice } = seed(55);
    const page = listNotes(ctx, alice, {});
    const results = page.results as View[];
    expect(results).toHaveLength(50);
    const updated = results.map((r) => Date.parse(r.updated_at as string));
    expect([...updated].sort((a, b) => b - a)).toEqual(updated);
  });

  it('validates limit and order_by, and refuses a cursor reused with other filters', () => {
    const { ctx, alice } = seed(3);
    for (const limit of ['0', '101', '1.5', 'ten', '-1']) refused('validation', () => listNotes(ctx, alice, { limit }));
    refused('validation', () => listNotes(ctx, alice, { order_by: 'title' }));
    const first = listNotes(ctx, alice, { limit: '1' });
    refused('cursor_mismatch', () =>
      listNotes(ctx, alice, { limit: '1', order_by: 'created_at', cursor: first.next_page as string }),
    );
    refused('validation', () => listNotes(ctx, alice, { cursor: 'garbage' }));
  });

  it('filters by inclusive time bounds, collection and contains flags combined with OR', () => {
    const h = harness();
    const { ctx, alice } = h;
    const coll = createCollection(ctx, alice, { title: 'c' }).id as string;
    const at = (ms: number) => iso(T0 - ms);
    const open = createNote(ctx, alice, {
      content: 'open\n- [ ] task',
      created_at: at(3000),
      collection_ids: [coll],
    }).id;
    const done = createNote(ctx, alice, { content: 'done\n- [x] task', created_at: at(2000) }).id;
    const image = createNote(ctx, alice, { content: 'img\n![a](https://x/y.png)', created_at: at(1000) }).id;
    const file = createNote(ctx, alice, { content: 'file\n[r](https://x/r.pdf)', created_at: at(500) }).id;
    const plain = createNote(ctx, alice, { content: 'plain', created_at: at(100) }).id;
    const ids = (q: Record<string, string>) => (listNotes(ctx, alice, q).results as View[]).map((r) => r.id).sort();
    expect(ids({ created_after: at(2000), created_before: at(500) })).toEqual([done, image, file].sort());
    expect(ids({ collection: coll })).toEqual([open]);
    expect(ids({ open_tasks: 'true' })).toEqual([open]);
    expect(ids({ tasks: 'true' })).toEqual([open, done].sort());
    expect(ids({ images: 'true', files: 'true' })).toEqual([image, file].sort());
    expect(ids({ images: 'false' })).toHaveLength(5);
    trashNote(ctx, alice, plain as string);
    expect(ids({})).toHaveLength(4);
    refused('validation', () => listNotes(ctx, alice, { created_after: '2026-01-01T00:00:00' }));
    refused('validation', () => listNotes(ctx, alice, { images: 'yes' }));
  });

  it("includes content only when asked and never lists another user's notes", () => {
    const { ctx, alice, bob } = seed(2);
    createNote(ctx, bob, { content: 'bob' });
    const plain = listNotes(ctx, alice, {}).results as View[];
    expect(plain[0]).not.toHaveProperty('content');
    const full = listNotes(ctx, alice, { include_content: 'true' }).results as View[];
    expect(full[0]!.content).toMatch(/^note/);
    expect(listNotes(ctx, bob, {}).total).toBe(1);
  });
});
