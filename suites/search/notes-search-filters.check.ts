import { expect } from 'vitest';
import { type CheckContext, type Exchange, KitError, checks, show } from '../harness/index.js';
import type { SearchNotesBody } from '../harness/api.js';

const { check } = checks();

type Item = Record<string, unknown>;

const items = (x: Exchange): Item[] => {
  const results = (x.json as { results?: unknown } | undefined)?.results;
  return Array.isArray(results) ? (results as Item[]) : [];
};
const idsOf = (x: Exchange): string[] => items(x).map((i) => i.id as string);
const refused = (x: Exchange) => x.status >= 400 && x.status < 500;
const x200 = (x: Exchange) => x.status === 200;
const ms = (value: unknown) => Date.parse(String(value));

function withOffset(at: number, minutes: number): string {
  const wall = new Date(at + minutes * 60_000).toISOString().slice(0, 23);
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(Math.floor(n)).padStart(2, '0');
  return `${wall}${minutes < 0 ? '-' : '+'}${pad(abs / 60)}:${pad(abs % 60)}`;
}

/**
 * Whether a search finds notes is advisory (notes.search.finds-matching-note): before failing a
 * filter for leaving a note out, make sure the unfiltered search finds it at all.
 */
async function requireFound(t: CheckContext, word: string, wanted: readonly string[]): Promise<void> {
  const x = await t.api.searchNotes({ limit: 50 }, { query: word });
  const missing = wanted.filter((id) => !idsOf(x).includes(id));
  if (x.status !== 200 || missing.length > 0) {
    throw new KitError(`the unfiltered search for a word these notes hold misses ${missing.length} of ${wanted.length}, so a filter cannot be judged (see notes.search.finds-matching-note): ${show(x)}`);
  }
}

const notHonoured = (what: string, x: Exchange) => new KitError(`${what} is refused, so the profile's name is not honoured (see notes.search.parameter-names): ${show(x)}`);

check('search time bounds keep only the notes inside them, those exactly on a bound included', {
  rules: ['notes.search.bounds-filter', 'notes.search.bounds-inclusive'],
}, async (t) => {
  const word = t.data.word();
  const w = t.data.window();
  // created_at 0..3 s into the window; updated_at in another order (ranks), 10 s later.
  const rank = [2, 0, 3, 1];
  const notes: string[] = [];
  for (let i = 0; i < 4; i++) notes.push((await t.data.note(t.data.content(`Bounded ${i} ${word}`), { created_at: w.at(i * 1000), updated_at: w.at(10_000 + rank[i]! * 1000) })).id);
  const cases = [
    { what: 'created_at bounds', field: 'created_at', low: w.ms(1000), high: w.ms(2000), onBound: [notes[1]!, notes[2]!], outside: [notes[0]!, notes[3]!],
      body: { created_after: withOffset(w.ms(1000), 60), created_before: w.at(2000) } },
    { what: 'updated_at bounds', field: 'updated_at', low: w.ms(11_000), high: w.ms(12_000), onBound: [notes[3]!, notes[0]!], outside: [notes[1]!, notes[2]!],
      body: { updated_after: w.at(11_000), updated_before: withOffset(w.ms(12_000), -300) } },
  ];
  let checkedFound = false;
  for (const c of cases) {
    const x = await t.api.searchNotes({ limit: 50 }, { query: word, ...c.body });
    await t.verify('notes.search.bounds-filter', () => {
      expect(x.status, `${c.what}: ${show(x)}`).toBe(200);
      const stray = items(x).filter((i) => !(ms(i[c.field]) >= c.low && ms(i[c.field]) <= c.high)).map((i) => `${String(i.id)} ${String(i[c.field])}`);
      expect(stray, `${c.what} keep only notes inside them`).toEqual([]);
      expect(idsOf(x).filter((id) => c.outside.includes(id)), `${c.what} drop the notes outside`).toEqual([]);
    });
    if (x.status === 200 && !c.onBound.every((id) => idsOf(x).includes(id)) && !checkedFound) {
      await requireFound(t, word, notes);
      checkedFound = true;
    }
    await t.verify('notes.search.bounds-inclusive', () => {
      expect(x.status, `${c.what}: ${show(x)}`).toBe(200);
      expect(idsOf(x), `${c.what} keep the notes exactly on them`).toEqual(expect.arrayContaining(c.onBound));
    });
  }
});

check('the search collection filter keeps notes in any listed collection; the declared names take effect', {
  rules: ['notes.search.collection-filter', 'notes.search.parameter-names'],
}, async (t) => {
  const word = t.data.word();
  const [one, two] = [await t.data.collection(), await t.data.collection()];
  const inOne = (await t.data.note(t.data.content(`In one ${word}`), { collection_ids: [one.id] })).id;
  const inTwo = (await t.data.note(t.data.content(`In two ${word}`), { collection_ids: [two.id] })).id;
  const inNone = (await t.data.note(t.data.content(`In none ${word}`))).id;
  const names = t.profile.names?.notes_search ?? {};
  // The response-shape fields are not shown: an empty object is all the kit can send.
  const all = await t.api.searchNotes({ limit: 50 }, { query: word, response_shape: {} });
  const filtered = await t.api.searchNotes({ limit: 50 }, { query: word, collections: [one.id, two.id] });
  await t.verify('notes.search.parameter-names', () => {
    expect(all.status, `the response-shape object under ${names.response_shape}: ${show(all)}`).toBe(200);
    expect(filtered.status, `the collection filter under ${names.collections}: ${show(filtered)}`).toBe(200);
    expect(idsOf(filtered), `the collection filter under ${names.collections} takes effect`).not.toContain(inNone);
  });
  if (refused(filtered)) throw notHonoured('a search with the collection filter', filtered);
  if (x200(filtered) && ![inOne, inTwo].every((id) => idsOf(filtered).includes(id))) await requireFound(t, word, [inOne, inTwo]);
  await t.verify('notes.search.collection-filter', () => {
    expect(filtered.status, show(filtered)).toBe(200);
    expect(idsOf(filtered), 'a note in either listed collection is kept').toEqual(expect.arrayContaining([inOne, inTwo]));
    const stray = items(filtered).filter((i) => !((i.collection_ids as string[] | undefined) ?? []).some((c) => c === one.id || c === two.id));
    expect(stray.map((i) => i.id), 'notes in neither collection are dropped').toEqual([]);
  });
});

check('each search contains filter keeps the notes with that kind of content; several combine with OR', {
  rules: ['notes.search.contains-filters', 'notes.search.contains-or', 'notes.search.parameter-names'],
}, async (t) => {
  const m = t.profile.content_markers!;
  const word = t.data.word();
  const make = async (title: string, body: string) => (await t.data.note(t.data.content(`${title} ${word}`, body))).id;
  const open = await make('Open', m.open_task!);
  const done = await make('Done', m.done_task!);
  const image = await make('Image', m.image!);
  const file = await make('File', m.file!);
  const plain = await make('Plain', 'nothing to filter for');
  const all = [open, done, image, file, plain];
  await requireFound(t, word, all);
  const names = t.profile.names?.notes_search ?? {};
  // Whether an image also counts as file-like (or the reverse) is not shown: neither is asserted.
  const cases: Array<{ rule: string; what: string; body: SearchNotesBody; keep: string[]; drop: string[]; name: string }> = [
    { rule: 'notes.search.contains-filters', what: 'the open-task filter', body: { open_tasks: true }, keep: [open], drop: [done, image, file, plain], name: `${names.contains_open_tasks}` },
    { rule: 'notes.search.contains-filters', what: 'the any-task filter', body: { tasks: true }, keep: [open, done], drop: [image, file, plain], name: `${names.contains_tasks}` },
    { rule: 'notes.search.contains-filters', what: 'the image filter', body: { images: true }, keep: [image], drop: [open, done, plain], name: `${names.contains_images}` },
    { rule: 'notes.search.contains-filters', what: 'the file filter', body: { files: true }, keep: [file], drop: [open, done, plain], name: `${names.contains_files}` },
    { rule: 'notes.search.contains-or', what: 'the open-task and image filters together', body: { open_tasks: true, images: true }, keep: [open, image], drop: [done, file, plain], name: `${names.contains_open_tasks} and ${names.contains_images}` },
  ];
  let refusal: Exchange | undefined;
  for (const c of cases) {
    const x = await t.api.searchNotes({ limit: 50 }, { query: word, ...c.body });
    await t.verify('notes.search.parameter-names', () => {
      expect(x.status, `${c.what} (${c.name}): ${show(x)}`).toBe(200);
      expect(idsOf(x).filter((id) => all.includes(id)).length, `${c.what} (${c.name}) takes effect`).toBeLessThan(all.length);
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
  if (refusal) throw notHonoured('a search with a contains filter', refusal);
});
