import { expect } from 'vitest';
import { checks, instant, setupOk } from '../harness/index.js';

const { check } = checks();

check(
  'after set-created-at, the note list orders by the new created_at and its created-at bounds select by it',
  {
    rules: ['notes.set-created-at.lists-follow'],
  },
  async (t) => {
    // Created without created_at (the original creation is now), then backdated into a window only
    // they use, in an order that differs from their creation order.
    const w = t.data.window();
    const names = ['first created', 'second created', 'third created'];
    const offsets = [20_000, 0, 10_000];
    const notes: Array<{ id: string; at: number }> = [];
    for (const [i, name] of names.entries()) {
      const note = await t.data.note(t.data.content(`Backdated ${name} ${t.data.word()}`));
      setupOk(await t.api.setCreatedAt(note.id, { created_at: w.at(offsets[i]!) }), `backdate the ${name} note`);
      notes.push({ id: note.id, at: w.ms(offsets[i]!) });
    }
    const ours = new Set(notes.map((n) => n.id));
    type Item = { id: string; created_at?: unknown };
    const list = async (after: number, before: number, what: string) => {
      const body = setupOk(
        await t.api.listNotes({
          order_by: 'created_at',
          created_after: w.at(after),
          created_before: w.at(before),
          limit: 100,
        }),
        what,
      );
      return ((body.results as Item[] | undefined) ?? []).filter((r) => ours.has(r.id));
    };
    const all = await list(-60_000, 60_000, 'list the window ordered by created_at');
    const middle = await list(5_000, 15_000, 'list the middle of the window');
    await t.verify('notes.set-created-at.lists-follow', () => {
      expect(
        all.map((r) => r.id).sort(),
        'the created-at bounds around the new creation times select all three notes',
      ).toEqual([...ours].sort());
      const listed = all.map((r) => instant(r.created_at, `created_at of list item ${r.id}`));
      const byNew = [...notes].sort((a, b) => a.at - b.at).map((n) => n.id);
      const order = all.map((r) => r.id);
      expect(
        [byNew, [...byNew].reverse()],
        `order_by=created_at orders by the new created_at (listed ${listed.map((ms) => new Date(ms).toISOString()).join(', ')})`,
      ).toContainEqual(order);
      expect(
        middle.map((r) => r.id),
        'bounds around the second backdated time select only that note',
      ).toEqual([notes[2]!.id]);
    });
  },
);
