import { expect } from 'vitest';
import { type Exchange, KitError, checks, show } from '../harness/index.js';
import type { ListNotesQuery } from '../harness/api.js';
import type { TimeWindow } from '../harness/data.js';

const { check } = checks();

type Item = Record<string, unknown>;

const items = (x: Exchange): Item[] => {
  const results = (x.json as { results?: unknown } | undefined)?.results;
  return Array.isArray(results) ? (results as Item[]) : [];
};
const idsOf = (x: Exchange): string[] => items(x).map((i) => i.id as string);
const sorted = (values: readonly string[]) => [...values].sort();
const refused = (x: Exchange) => x.status >= 400 && x.status < 500;
const around = (w: TimeWindow): ListNotesQuery => ({ created_after: w.at(-1), created_before: w.at(20_001) });

// A request that carries a name from the profile and is refused says the name is wrong: the
// profile rule fails, and the documented rule it stood in for cannot be judged (error, not fail).
const notHonoured = (what: string, x: Exchange) => new KitError(`${what} is refused, so the profile's name is not honoured (see notes.list.parameter-names): ${show(x)}`);

check('the collection filter keeps exactly the collection\'s notes; include-content adds each note\'s content; the declared names take effect', {
  rules: ['notes.list.collection-filter', 'notes.list.include-content', 'notes.list.parameter-names'],
}, async (t) => {
  const w = t.data.window();
  const c = await t.data.collection();
  const inside = await t.data.note(undefined, { created_at: w.at(0), collection_ids: [c.id] });
  const others = [await t.data.note(undefined, { created_at: w.at(1000) }), await t.data.note(undefined, { created_at: w.at(2000) })];
  const all = [inside, ...others];
  const contentOf = new Map(all.map((n) => [n.id, n.json.content]));

  const first = await t.api.listNotes({ ...around(w), limit: 2, include_content: true });
  const next = (first.json as { next_page?: unknown } | undefined)?.next_page;
  const second = typeof next === 'string' ? await t.api.listNotes({ ...around(w), limit: 2, include_content: true, cursor: next }) : undefined;
  const filtered = await t.api.listNotes({ collection: c.id });

  await t.verify('notes.list.parameter-names', () => {
    expect(first.status, `the include-content name ${t.profile.names?.notes_list?.include_content}: ${show(first)}`).toBe(200);
    expect(items(first).every((i) => typeof i.content === 'string'), `the include-content name takes effect: ${show(first)}`).toBe(true);
    expect(second, `two pages of three notes with limit 2 (the first page has no next_page): ${show(first)}`).toBeDefined();
    expect(second!.status, `the cursor name ${t.profile.names?.notes_list?.cursor}: ${show(second!)}`).toBe(200);
    expect(idsOf(second!).filter((id) => idsOf(first).includes(id)), 'the cursor name takes effect: the next page holds other notes').toEqual([]);
    expect(idsOf(second!).length, 'the next page holds the third note').toBeGreaterThan(0);
    expect(filtered.status, `the collection filter name ${t.profile.names?.notes_list?.collection}: ${show(filtered)}`).toBe(200);
    expect(idsOf(filtered), 'the collection filter name takes effect').not.toContain(others[0]!.id);
  });
  await t.verify('notes.list.include-content', () => {
    const pages = [first, ...(second ? [second] : [])].filter((x) => !refused(x));
    for (const x of pages) expect(x.status, show(x)).toBe(200);
    for (const item of pages.flatMap(items)) {
      expect(item.content, `item ${String(item.id)} carries the note's full content`).toBe(contentOf.get(item.id as string));
    }
  });
  await t.verify('notes.list.collection-filter', () => {
    if (refused(filtered)) return;
    expect(filtered.status, show(filtered)).toBe(200);
    expect(idsOf(filtered), 'a fresh collection filter lists exactly the note the collection holds').toEqual([inside.id]);
  });
  if (refused(first)) throw notHonoured('a list with include-content', first);
  if (refused(filtered)) throw notHonoured('a list with the collection filter', filtered);
});

check('each contains filter keeps the notes with that kind of content; several combine with OR', {
  rules: ['notes.list.contains-filters', 'notes.list.contains-or', 'notes.list.parameter-names'],
}, async (t) => {
  const m = t.profile.content_markers!;
  const w = t.data.window();
  const make = async (i: number, title: string, body: string) => (await t.data.note(t.data.content(`${title} ${t.data.word()}`, body), { created_at: w.at(i * 1000) })).id;
  const open = await make(0, 'Open', m.open_task!);
  const done = await make(1, 'Done', m.done_task!);
  const image = await make(2, 'Image', m.image!);
  const file = await make(3, 'File', m.file!);
  const plain = await make(4, 'Plain', 'nothing to filter for');
  const all = [open, done, image, file, plain];
  const names = t.profile.names?.notes_list ?? {};

  // Whether an image also counts as file-like (or the reverse) is not shown: neither is asserted.
  const cases: Array<{ rule: string; what: string; q: ListNotesQuery; keep: string[]; drop: string[]; name: string }> = [
    { rule: 'notes.list.contains-filters', what: 'the open-task filter', q: { open_tasks: true }, keep: [open], drop: [done, image, file, plain], name: `${names.contains_open_tasks}` },
    { rule: 'notes.list.contains-filters', what: 'the any-task filter', q: { tasks: true }, keep: [open, done], drop: [image, file, plain], name: `${names.contains_tasks}` },
    { rule: 'notes.list.contains-filters', what: 'the image filter', q: { images: true }, keep: [image], drop: [open, done, plain], name: `${names.contains_images}` },
    { rule: 'notes.list.contains-filters', what: 'the file filter', q: { files: true }, keep: [file], drop: [open, done, plain], name: `${names.contains_files}` },
    { rule: 'notes.list.contains-or', what: 'the image and file filters together', q: { images: true, files: true }, keep: [image, file], drop: [open, done, plain], name: `${names.contains_images} and ${names.contains_files}` },
  ];
  let refusal: Exchange | undefined;
  for (const c of cases) {
    const x = await t.api.listNotes({ ...around(w), ...c.q });
    await t.verify('notes.list.parameter-names', () => {
      expect(x.status, `${c.what} (${c.name}): ${show(x)}`).toBe(200);
      expect(sorted(idsOf(x)), `${c.what} (${c.name}) takes effect`).not.toEqual(sorted(all));
    });
    if (refused(x)) {
      refusal ??= x;
      continue;
    }
    await t.verify(c.rule, () => {
      expect(x.status, `${c.what}: ${show(x)}`).toBe(200);
      expect(idsOf(x), `${c.what} keeps the matching notes`).toEqual(expect.arrayContaining(c.keep));
      expect(idsOf(x).filter((id) => c.drop.includes(id)), `${c.what} drops the others (open, done, image, file, plain: ${all.join(', ')})`).toEqual([]);
    });
  }
  if (refusal) throw notHonoured('a list with a contains filter', refusal);
});
