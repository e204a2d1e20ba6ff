import { expect } from 'vitest';
import type { ListNotesQuery } from '../../kit/core/api.js';
import { containsCases, judgeContainsCase } from '../harness/contains-cases.js';
import type { TimeWindow } from '../harness/data.js';
import { type CheckContext, checks, type Exchange, KitError, setupOk, show } from '../harness/index.js';
import { perFile } from '../harness/shared.js';
import { around, idsOf, items, nextPage, notHonoured, refused, sorted, withOffset } from './list-helpers.js';

const { check } = checks();

/**
 * One data set for the file, made by the first check that needs it and only read afterwards,
 * so every check still runs alone: five notes in a fresh time window, created 0..4 s into it
 * and updated in another order (an order by one field is visibly not an order by the other),
 * each with one kind of content, the open-task note in a fresh collection where the profile names
 * the collection filter (the only check that uses it; otherwise a create and a delete for nothing).
 */
interface WindowOfFive {
  w: TimeWindow;
  ids: string[];
  content: Map<string, unknown>;
  kinds: { open: string; done: string; image: string; file: string; plain: string };
  collection: string | undefined;
}

const UPDATED_RANK = [3, 0, 4, 1, 2];
const createdAt = (w: TimeWindow, i: number) => w.at(i * 1000);
const updatedAt = (w: TimeWindow, rank: number) => w.at(10_000 + rank * 1000);
const windowOfFive = perFile(async (t: CheckContext): Promise<WindowOfFive> => {
  const m = t.profile.content_markers ?? {};
  const w = t.data.window();
  const collection = t.declares('names.notes_list.collection') ? (await t.data.collection()).id : undefined;
  const bodies = [m.open_task, m.done_task, m.image, m.file, undefined];
  const ids: string[] = [];
  const content = new Map<string, unknown>();
  for (let i = 0; i < 5; i++) {
    const note = await t.data.note(
      t.data.content(`Listed ${i} ${t.data.word()}`, bodies[i] ?? 'nothing to filter for'),
      {
        created_at: createdAt(w, i),
        updated_at: updatedAt(w, UPDATED_RANK[i]!),
        ...(i === 0 && collection ? { collection_ids: [collection] } : {}),
      },
    );
    ids.push(note.id);
    content.set(note.id, note.json.content);
  }
  const [open, done, image, file, plain] = ids as [string, string, string, string, string];
  return { w, ids, content, kinds: { open, done, image, file, plain }, collection };
});

/** Follows next_page from a first page, at most `most` pages (the oracle judges the walk as it goes). */
async function walk(t: CheckContext, query: ListNotesQuery, most: number): Promise<void> {
  let x = await t.api.listNotes(query);
  for (let n = 1; n < most && x.status === 200 && nextPage(x) !== undefined; n++)
    x = await t.api.listNotes({ ...query, cursor: nextPage(x) });
}

check(
  'next_page visits every note of a time window once, in the order_by order, with the same total on every page',
  {
    oracle: [
      'notes.list.cursor-pages',
      'notes.list.total-before-pagination',
      'notes.list.order-by-honoured',
      'notes.list.next-page-omitted-at-end',
    ],
  },
  async (t) => {
    const { w } = await windowOfFive(t);
    await walk(t, { ...around(w), order_by: 'created_at', limit: 2 }, 4);
    await walk(t, { ...around(w), order_by: 'updated_at', limit: 3 }, 3);
  },
);

check(
  'one page of a time window: default order, fields, limit and order_by values, time bounds',
  {
    oracle: [
      'notes.list.order-by-default-updated-at',
      'notes.list.order-by-values',
      'notes.list.limit-range',
      'notes.list.content-omitted-by-default',
      'notes.list.item-fields',
      'notes.list.response-fields',
      'notes.list.bounds-filter',
      'notes.list.bounds-inclusive',
      'notes.list.bounds-offset-required',
    ],
  },
  async (t) => {
    const { w } = await windowOfFive(t);
    await t.api.listNotes({ ...around(w), limit: 10 });
    await t.api.listNotes({ ...around(w), order_by: 'created_at', limit: 100 });
    await t.api.listNotes({ ...around(w), order_by: 'updated_at', limit: 1 });
    await t.api.listNotes({ ...around(w), order_by: 'title' });
    for (const limit of [0, 101, '1.5']) await t.api.listNotes({ limit });
    // created_at bounds on notes 1 and 3 exactly (one written at +01:00); updated_at bounds on ranks 1 and 3 (one at -05:00).
    await t.api.listNotes({ created_after: withOffset(w.ms(1000), 60), created_before: createdAt(w, 3) });
    await t.api.listNotes({ updated_after: withOffset(w.ms(11_000), -300), updated_before: updatedAt(w, 3) });
    await t.api.listNotes({ created_after: new Date(w.ms(0)).toISOString().slice(0, 19) });
  },
);

check(
  'the list runs in the direction the profile declares',
  { oracle: ['notes.list.order-direction'], needs: ['profile:list_order'] },
  async (t) => {
    const { w } = await windowOfFive(t);
    for (const orderBy of ['updated_at', 'created_at'] as const)
      await t.api.listNotes({ ...around(w), order_by: orderBy });
  },
);

check(
  'a cursor reused with another order_by or other filters is refused with the declared status',
  {
    oracle: ['notes.list.cursor-filter-mismatch'],
    needs: ['profile:statuses.cursor_mismatch', 'profile:names.notes_list.cursor'],
  },
  async (t) => {
    const { w } = await windowOfFive(t);
    const first = await t.api.listNotes({ ...around(w), order_by: 'created_at', limit: 1 });
    setupOk(first, 'list the first page');
    const cursor = nextPage(first);
    if (cursor === undefined)
      throw new KitError(
        `the first page of five notes with limit 1 has no next_page (see notes.list.next-page-omitted-at-end): ${show(first)}`,
      );
    await t.api.listNotes({ ...around(w), order_by: 'updated_at', limit: 1, cursor });
    await t.api.listNotes({
      created_after: w.at(-1),
      created_before: w.at(2500),
      order_by: 'created_at',
      limit: 1,
      cursor,
    });
  },
);

check(
  "the collection filter keeps exactly the collection's notes, under the declared name",
  { rules: ['notes.list.parameter-names'], oracle: ['notes.list.collection-filter'] },
  async (t) => {
    const { collection, kinds } = await windowOfFive(t);
    if (collection === undefined)
      throw new KitError('the data set has no collection: the profile names no collection filter');
    const filtered = await t.api.listNotes({ collection });
    await t.verify('notes.list.parameter-names', () => {
      expect(
        filtered.status,
        `the collection filter name ${t.profile.names?.notes_list?.collection}: ${show(filtered)}`,
      ).toBe(200);
      expect(idsOf(filtered), 'the collection filter name takes effect').not.toContain(kinds.plain);
    });
    if (refused(filtered)) throw notHonoured('a list with the collection filter', filtered);
  },
);

check(
  "include-content adds each note's full content; the declared cursor and include-content names take effect",
  { rules: ['notes.list.parameter-names'], oracle: ['notes.list.include-content'] },
  async (t) => {
    const { w } = await windowOfFive(t);
    const names = t.profile.names?.notes_list ?? {};
    const query: ListNotesQuery = { ...around(w), limit: 3, include_content: true };
    const first = await t.api.listNotes(query);
    const cursor = refused(first) ? undefined : nextPage(first);
    const second = cursor === undefined ? undefined : await t.api.listNotes({ ...query, cursor });
    await t.verify('notes.list.parameter-names', () => {
      expect(first.status, `the include-content name ${names.include_content}: ${show(first)}`).toBe(200);
      expect(
        items(first).every((i) => typeof i.content === 'string'),
        `the include-content name ${names.include_content} takes effect: ${show(first)}`,
      ).toBe(true);
      expect(second, `five notes with limit 3 make two pages: ${show(first)}`).toBeDefined();
      expect(second!.status, `the cursor name ${names.cursor}: ${show(second!)}`).toBe(200);
      expect(
        idsOf(second!).filter((id) => idsOf(first).includes(id)),
        `the cursor name ${names.cursor} takes effect: the next page holds other notes`,
      ).toEqual([]);
      expect(idsOf(second!).length, 'the next page holds the other two notes').toBe(2);
    });
    if (refused(first)) throw notHonoured('a list with include-content', first);
  },
);

check(
  'each contains filter keeps the notes with that kind of content; several combine with OR',
  {
    rules: ['notes.list.contains-filters', 'notes.list.contains-or', 'notes.list.parameter-names'],
  },
  async (t) => {
    const {
      w,
      ids,
      kinds: { open, done, image, file, plain },
    } = await windowOfFive(t);
    const cases = containsCases(
      'notes.list',
      t.profile.names?.notes_list ?? {},
      { open, done, image, file, plain },
      'images-and-files',
    );
    let refusal: Exchange | undefined;
    for (const c of cases) {
      const x = await t.api.listNotes({ ...around(w), ...c.filter });
      await t.verify('notes.list.parameter-names', () => {
        expect(x.status, `${c.what}: ${show(x)}`).toBe(200);
        expect(sorted(idsOf(x)), `${c.what} takes effect`).not.toEqual(sorted(ids));
      });
      if (refused(x)) {
        refusal ??= x;
        continue;
      }
      await judgeContainsCase(t, c, x, idsOf, ids);
    }
    if (refusal) throw notHonoured('a list with a contains filter', refusal);
  },
);

check(
  'without limit a page holds 50 notes when more match',
  { oracle: ['notes.list.limit-default-50'], needs: [{ notes: 51 }] },
  async (t) => {
    const w = t.data.window();
    for (let i = 0; i < 51; i++) await t.data.note(undefined, { created_at: w.at(i * 10) });
    await t.api.listNotes({ ...around(w) });
  },
);
