import { expect } from 'vitest';
import type { ListNotesQuery } from '../../kit/core/api.js';
import { containsCases, judgeContainsCase } from '../harness/contains-cases.js';
import type { TimeWindow } from '../harness/data.js';
import {
  type CheckContext,
  checks,
  type Exchange,
  expectDeclaredStatus,
  expectRefused,
  KitError,
  setupOk,
  show,
} from '../harness/index.js';
import { perFile } from '../harness/shared.js';
import {
  allPages,
  around,
  direction,
  idsOf,
  items,
  ms,
  nextPage,
  notHonoured,
  refused,
  sorted,
  withOffset,
} from './list-helpers.js';

const { check } = checks();

/**
 * One data set for the file, made by the first check that needs it and only read afterwards,
 * so every check still runs alone: five notes in a fresh time window, created 0..4 s into it
 * and updated in another order (an order by one field is visibly not an order by the other),
 * each with one kind of content, the open-task note in a fresh collection.
 */
interface WindowOfFive {
  w: TimeWindow;
  ids: string[];
  content: Map<string, unknown>;
  kinds: { open: string; done: string; image: string; file: string; plain: string };
  collection: string;
}

const UPDATED_RANK = [3, 0, 4, 1, 2];
const createdAt = (w: TimeWindow, i: number) => w.at(i * 1000);
const updatedAt = (w: TimeWindow, rank: number) => w.at(10_000 + rank * 1000);
const windowOfFive = perFile(async (t: CheckContext): Promise<WindowOfFive> => {
  const m = t.profile.content_markers ?? {};
  const w = t.data.window();
  const collection = (await t.data.collection()).id;
  const bodies = [m.open_task, m.done_task, m.image, m.file, undefined];
  const ids: string[] = [];
  const content = new Map<string, unknown>();
  for (let i = 0; i < 5; i++) {
    const note = await t.data.note(
      t.data.content(`Listed ${i} ${t.data.word()}`, bodies[i] ?? 'nothing to filter for'),
      {
        created_at: createdAt(w, i),
        updated_at: updatedAt(w, UPDATED_RANK[i]!),
        ...(i === 0 ? { collection_ids: [collection] } : {}),
      },
    );
    ids.push(note.id);
    content.set(note.id, note.json.content);
  }
  const [open, done, image, file, plain] = ids as [string, string, string, string, string];
  return { w, ids, content, kinds: { open, done, image, file, plain }, collection };
});

check(
  'next_page visits every note of a time window once, in the order_by order, with the same total on every page',
  {
    rules: [
      'notes.list.cursor-pages',
      'notes.list.total-before-pagination',
      'notes.list.order-by-honoured',
      'notes.list.next-page-omitted-at-end',
    ],
  },
  async (t) => {
    const { w, ids } = await windowOfFive(t);
    for (const [orderBy, limit] of [
      ['created_at', 2],
      ['updated_at', 3],
    ] as const) {
      const { pages, ended } = await allPages(t, { ...around(w), order_by: orderBy, limit }, Math.ceil(5 / limit) + 1);
      const seen = pages.flatMap(idsOf);
      await t.verify('notes.list.cursor-pages', () => {
        expect(ended, `paging by ${orderBy} (limit ${limit}) ends`).toBe(true);
        expect(seen.length, `pages by ${orderBy} (limit ${limit}) hold each note once: ${seen.join(', ')}`).toBe(
          new Set(seen).size,
        );
        expect(
          sorted(seen),
          `pages by ${orderBy} (limit ${limit}) together hold exactly the notes of the window`,
        ).toEqual(sorted(ids));
      });
      await t.verify('notes.list.total-before-pagination', () => {
        for (const x of pages)
          expect(
            (x.json as { total?: unknown }).total,
            `total on every page by ${orderBy} counts all 5 matches: ${show(x)}`,
          ).toBe(5);
      });
      await t.verify('notes.list.order-by-honoured', () => {
        const values = pages.flatMap(items).map((i) => ms(i[orderBy]));
        expect(
          direction(values),
          `${orderBy} across the pages runs one way: ${values.map((v) => new Date(v).toISOString()).join(', ')}`,
        ).toMatch(/^(asc|desc)$/);
      });
      await t.verify('notes.list.next-page-omitted-at-end', () => {
        for (const x of pages.slice(0, -1)) {
          expect(typeof nextPage(x), `a page before the last carries next_page: ${show(x)}`).toBe('string');
        }
        const last = pages[pages.length - 1]!;
        expect('next_page' in (last.json as object), `the last page omits next_page (not null): ${show(last)}`).toBe(
          false,
        );
      });
    }
  },
);

check(
  'one page of a time window: default order, fields, limit and order_by values, time bounds',
  {
    rules: [
      'notes.list.order-by-default-updated-at',
      'notes.list.order-by-values',
      'notes.list.limit-range',
      'notes.list.next-page-omitted-at-end',
      'notes.list.content-omitted-by-default',
      'notes.list.item-fields',
      'notes.list.response-fields',
      'notes.list.bounds-filter',
      'notes.list.bounds-inclusive',
      'notes.list.bounds-offset-required',
    ],
  },
  async (t) => {
    const { w, ids } = await windowOfFive(t);
    const byDefault = await t.api.listNotes({ ...around(w), limit: 10 });
    const page = setupOk(byDefault, 'list the window');
    await t.verify('notes.list.order-by-default-updated-at', () => {
      const values = items(byDefault).map((i) => ms(i.updated_at));
      expect(items(byDefault).length, 'the window holds the 5 notes').toBe(5);
      expect(
        direction(values),
        `without order_by the list runs by updated_at: ${values.map((v) => new Date(v).toISOString()).join(', ')}`,
      ).toMatch(/^(asc|desc)$/);
    });
    await t.verify('notes.list.next-page-omitted-at-end', () => {
      expect('next_page' in page, `a page that holds every match omits next_page: ${show(byDefault)}`).toBe(false);
    });
    await t.verify('notes.list.content-omitted-by-default', () => {
      expect(
        items(byDefault)
          .filter((i) => 'content' in i)
          .map((i) => i.id),
        'items carry no content unless asked',
      ).toEqual([]);
    });
    const problems = t.schemaProblems(byDefault, 'NoteListResponse');
    await t.verify('notes.list.item-fields', () => {
      expect(
        problems.filter((p) => p.startsWith('/results/')),
        'list items have the documented fields',
      ).toEqual([]);
    });
    await t.verify('notes.list.response-fields', () => {
      expect(
        problems.filter((p) => !p.startsWith('/results/')),
        'the list response has the documented fields',
      ).toEqual([]);
    });

    const byCreated = await t.api.listNotes({ ...around(w), order_by: 'created_at', limit: 100 });
    const one = await t.api.listNotes({ ...around(w), order_by: 'updated_at', limit: 1 });
    const byTitle = await t.api.listNotes({ ...around(w), order_by: 'title' });
    await t.verify('notes.list.order-by-values', () => {
      expect(byCreated.status, `order_by=created_at is accepted: ${show(byCreated)}`).toBe(200);
      expect(one.status, `order_by=updated_at is accepted: ${show(one)}`).toBe(200);
      expectRefused(byTitle, 'order_by=title');
    });
    await t.verify('notes.list.limit-range', async () => {
      expect(byCreated.status, `limit 100 is accepted: ${show(byCreated)}`).toBe(200);
      expect(items(byCreated).length, 'limit 100 in a window of 5').toBe(5);
      expect(one.status, `limit 1 is accepted: ${show(one)}`).toBe(200);
      expect(items(one).length, `limit 1 gives one note of the 5: ${show(one)}`).toBe(1);
      for (const limit of [0, 101, '1.5']) expectRefused(await t.api.listNotes({ limit }), `limit ${limit}`);
    });
    await t.verify('notes.list.next-page-omitted-at-end', () => {
      expect(typeof nextPage(one), `next_page is a string while more notes remain: ${show(one)}`).toBe('string');
    });

    // created_at bounds on notes 1 and 3 exactly (one written at +01:00); updated_at bounds on ranks 1 and 3 (one at -05:00).
    const byCreatedBounds = await t.api.listNotes({
      created_after: withOffset(w.ms(1000), 60),
      created_before: createdAt(w, 3),
    });
    const byUpdatedBounds = await t.api.listNotes({
      updated_after: withOffset(w.ms(11_000), -300),
      updated_before: updatedAt(w, 3),
    });
    const pick = (keep: (i: number, rank: number) => boolean) => ids.filter((_, i) => keep(i, UPDATED_RANK[i]!));
    const cases = [
      {
        what: 'created_at bounds',
        x: byCreatedBounds,
        inside: pick((i) => i === 2),
        onBound: pick((i) => i === 1 || i === 3),
        outside: pick((i) => i === 0 || i === 4),
      },
      {
        what: 'updated_at bounds',
        x: byUpdatedBounds,
        inside: pick((_, r) => r === 2),
        onBound: pick((_, r) => r === 1 || r === 3),
        outside: pick((_, r) => r === 0 || r === 4),
      },
    ];
    for (const c of cases) {
      await t.verify('notes.list.bounds-filter', () => {
        expect(c.x.status, `${c.what}: ${show(c.x)}`).toBe(200);
        expect(idsOf(c.x), `${c.what} keep the note strictly inside`).toEqual(expect.arrayContaining(c.inside));
        expect(
          idsOf(c.x).filter((id) => c.outside.includes(id)),
          `${c.what} drop the notes outside`,
        ).toEqual([]);
      });
      await t.verify('notes.list.bounds-inclusive', () => {
        expect(c.x.status, `${c.what}: ${show(c.x)}`).toBe(200);
        expect(idsOf(c.x), `${c.what} keep the notes exactly on them`).toEqual(expect.arrayContaining(c.onBound));
      });
    }
    const noOffset = await t.api.listNotes({ created_after: new Date(w.ms(0)).toISOString().slice(0, 19) });
    await t.verify('notes.list.bounds-offset-required', () =>
      expectRefused(noOffset, 'a created_after bound without an offset'),
    );
  },
);

check(
  'the list runs in the direction the profile declares',
  {
    rules: ['notes.list.order-direction'],
    needs: ['profile:list_order'],
  },
  async (t) => {
    const { w } = await windowOfFive(t);
    const want = t.profile.list_order === 'newest_first' ? 'desc' : 'asc';
    for (const orderBy of ['updated_at', 'created_at'] as const) {
      const x = await t.api.listNotes({ ...around(w), order_by: orderBy });
      setupOk(x, 'list the window');
      await t.verify('notes.list.order-direction', () => {
        expect(
          direction(items(x).map((i) => ms(i[orderBy]))),
          `the profile declares ${t.profile.list_order} (by ${orderBy}): ${show(x)}`,
        ).toBe(want);
      });
    }
  },
);

check(
  'a cursor reused with another order_by or other filters is refused with the declared status',
  {
    rules: ['notes.list.cursor-filter-mismatch'],
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
    const declared = t.profile.statuses!.cursor_mismatch!;
    const otherOrder = await t.api.listNotes({ ...around(w), order_by: 'updated_at', limit: 1, cursor });
    const otherFilter = await t.api.listNotes({
      created_after: w.at(-1),
      created_before: w.at(2500),
      order_by: 'created_at',
      limit: 1,
      cursor,
    });
    await t.verify('notes.list.cursor-filter-mismatch', () => {
      expectDeclaredStatus(otherOrder, 'cursor_mismatch', declared, 'a cursor reused with another order_by');
      expectDeclaredStatus(otherFilter, 'cursor_mismatch', declared, 'a cursor reused with another created_before');
    });
  },
);

check(
  "the collection filter keeps exactly the collection's notes, under the declared name",
  {
    rules: ['notes.list.collection-filter', 'notes.list.parameter-names'],
  },
  async (t) => {
    const { collection, kinds } = await windowOfFive(t);
    const filtered = await t.api.listNotes({ collection });
    await t.verify('notes.list.parameter-names', () => {
      expect(
        filtered.status,
        `the collection filter name ${t.profile.names?.notes_list?.collection}: ${show(filtered)}`,
      ).toBe(200);
      expect(idsOf(filtered), 'the collection filter name takes effect').not.toContain(kinds.plain);
    });
    if (refused(filtered)) throw notHonoured('a list with the collection filter', filtered);
    await t.verify('notes.list.collection-filter', () => {
      expect(filtered.status, show(filtered)).toBe(200);
      expect(idsOf(filtered), 'a fresh collection filter lists exactly the note the collection holds').toEqual([
        kinds.open,
      ]);
    });
  },
);

check(
  "include-content adds each note's full content; the declared cursor and include-content names take effect",
  {
    rules: ['notes.list.include-content', 'notes.list.parameter-names'],
  },
  async (t) => {
    const { w, content } = await windowOfFive(t);
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
    await t.verify('notes.list.include-content', () => {
      const pages: Exchange[] = [first, ...(second && !refused(second) ? [second] : [])];
      for (const x of pages) expect(x.status, show(x)).toBe(200);
      for (const item of pages.flatMap(items))
        expect(item.content, `item ${String(item.id)} carries the note's full content`).toBe(
          content.get(item.id as string),
        );
    });
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
  {
    rules: ['notes.list.limit-default-50'],
    needs: [{ notes: 51 }],
  },
  async (t) => {
    const w = t.data.window();
    for (let i = 0; i < 51; i++) await t.data.note(undefined, { created_at: w.at(i * 10) });
    const x = await t.api.listNotes({ ...around(w) });
    await t.verify('notes.list.limit-default-50', () => {
      expect(x.status, show(x)).toBe(200);
      expect(items(x).length, 'a default page of 51 matching notes').toBe(50);
    });
  },
);
