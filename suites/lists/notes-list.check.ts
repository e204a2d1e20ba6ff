import { expect } from 'vitest';
import { type CheckContext, type Exchange, KitError, checks, expectDeclaredStatus, expectRefused, setupOk, show } from '../harness/index.js';
import type { ListNotesQuery } from '../harness/api.js';
import type { NoteRef, TimeWindow } from '../harness/data.js';

const { check } = checks();

type Item = Record<string, unknown>;

const items = (x: Exchange): Item[] => {
  const results = (x.json as { results?: unknown } | undefined)?.results;
  return Array.isArray(results) ? (results as Item[]) : [];
};
const idsOf = (x: Exchange): string[] => items(x).map((i) => i.id as string);
const sorted = (values: readonly string[]) => [...values].sort();
const ms = (value: unknown) => Date.parse(String(value));

/** The same instant written with another offset (the kit must compare instants, and so must the target). */
function withOffset(at: number, minutes: number): string {
  const wall = new Date(at + minutes * 60_000).toISOString().slice(0, 23);
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(Math.floor(n)).padStart(2, '0');
  return `${wall}${minutes < 0 ? '-' : '+'}${pad(abs / 60)}:${pad(abs % 60)}`;
}

/** Strictly one way: 'asc' or 'desc'; 'mixed' when the values go both ways, 'flat' when all are equal. */
function direction(values: readonly number[]): 'asc' | 'desc' | 'flat' | 'mixed' {
  let up = false;
  let down = false;
  for (let i = 1; i < values.length; i++) {
    if (values[i]! > values[i - 1]!) up = true;
    if (values[i]! < values[i - 1]!) down = true;
  }
  return up && down ? 'mixed' : up ? 'asc' : down ? 'desc' : 'flat';
}

// Five notes: created_at 0..4 s into a fresh window, updated_at in another order, so that an
// order by one field is visibly not an order by the other.
const UPDATED_RANK = [3, 0, 4, 1, 2];
const created = (w: TimeWindow, i: number) => w.at(i * 1000);
const updated = (w: TimeWindow, rank: number) => w.at(10_000 + rank * 1000);
/** Bounds that hold the whole data set without depending on inclusiveness. */
const around = (w: TimeWindow): ListNotesQuery => ({ created_after: w.at(-1), created_before: w.at(20_001) });

async function fiveNotes(t: CheckContext, w: TimeWindow, count = 5): Promise<NoteRef[]> {
  const notes: NoteRef[] = [];
  for (let i = 0; i < count; i++) {
    notes.push(await t.data.note(t.data.content(`Listed ${i} ${t.data.word()}`), { created_at: created(w, i), updated_at: updated(w, UPDATED_RANK[i]!) }));
  }
  return notes;
}

/** Follows next_page from the first page; a cursor that yields the first page again is a name the target ignores. */
async function allPages(t: CheckContext, query: ListNotesQuery, expectedPages: number): Promise<Exchange[]> {
  const pages = [await t.api.listNotes(query)];
  setupOk(pages[0]!, 'list the first page');
  for (let next = (pages[0]!.json as { next_page?: unknown }).next_page; typeof next === 'string' && pages.length <= expectedPages + 1;) {
    const x = await t.api.listNotes({ ...query, cursor: next });
    if (x.status >= 400 && x.status < 500) throw new KitError(`a page asked for with the profile's cursor name is refused (see notes.list.parameter-names): ${show(x)}`);
    setupOk(x, 'list the next page');
    if (idsOf(x).length > 0 && idsOf(x).join() === idsOf(pages[0]!).join()) {
      throw new KitError('the next page repeats the first: the profile\'s cursor name is not honoured (see notes.list.parameter-names)');
    }
    pages.push(x);
    next = (x.json as { next_page?: unknown }).next_page;
  }
  return pages;
}

check('next_page visits every note of a time window once, in the order_by order, with the same total on every page', {
  rules: ['notes.list.cursor-pages', 'notes.list.total-before-pagination', 'notes.list.order-by-honoured', 'notes.list.next-page-omitted-at-end'],
}, async (t) => {
  const w = t.data.window();
  const notes = await fiveNotes(t, w);
  const mine = sorted(notes.map((n) => n.id));
  for (const [orderBy, limit] of [['created_at', 2], ['updated_at', 3]] as const) {
    const pages = await allPages(t, { ...around(w), order_by: orderBy, limit }, Math.ceil(5 / limit));
    const seen = pages.flatMap(idsOf);
    await t.verify('notes.list.cursor-pages', () => {
      expect(seen.length, `pages by ${orderBy} (limit ${limit}) hold each note once: ${seen.join(', ')}`).toBe(new Set(seen).size);
      expect(sorted(seen), `pages by ${orderBy} (limit ${limit}) together hold exactly the notes of the window`).toEqual(mine);
    });
    await t.verify('notes.list.total-before-pagination', () => {
      for (const x of pages) expect((x.json as { total?: unknown }).total, `total on every page by ${orderBy} counts all 5 matches: ${show(x)}`).toBe(5);
    });
    await t.verify('notes.list.order-by-honoured', () => {
      const values = pages.flatMap(items).map((i) => ms(i[orderBy]));
      expect(direction(values), `${orderBy} across the pages runs one way: ${values.map((v) => new Date(v).toISOString()).join(', ')}`).toMatch(/^(asc|desc)$/);
    });
    await t.verify('notes.list.next-page-omitted-at-end', () => {
      pages.slice(0, -1).forEach((x) => expect(typeof (x.json as { next_page?: unknown }).next_page, `a page before the last carries next_page: ${show(x)}`).toBe('string'));
      const last = pages[pages.length - 1]!;
      expect('next_page' in (last.json as object), `the last page omits next_page (not null): ${show(last)}`).toBe(false);
    });
  }
});

check('one page of a time window: default order, fields, limit and order_by values, time bounds', {
  rules: ['notes.list.order-by-default-updated-at', 'notes.list.order-by-values', 'notes.list.limit-range', 'notes.list.next-page-omitted-at-end',
    'notes.list.content-omitted-by-default', 'notes.list.item-fields', 'notes.list.response-fields',
    'notes.list.bounds-filter', 'notes.list.bounds-inclusive', 'notes.list.bounds-offset-required'],
}, async (t) => {
  const w = t.data.window();
  const notes = await fiveNotes(t, w);
  const byDefault = await t.api.listNotes({ ...around(w), limit: 10 });
  const page = setupOk(byDefault, 'list the window');
  await t.verify('notes.list.order-by-default-updated-at', () => {
    const values = items(byDefault).map((i) => ms(i.updated_at));
    expect(items(byDefault).length, 'the window holds the 5 notes').toBe(5);
    expect(direction(values), `without order_by the list runs by updated_at: ${values.map((v) => new Date(v).toISOString()).join(', ')}`).toMatch(/^(asc|desc)$/);
  });
  await t.verify('notes.list.next-page-omitted-at-end', () => {
    expect('next_page' in page, `a page that holds every match omits next_page: ${show(byDefault)}`).toBe(false);
  });
  await t.verify('notes.list.content-omitted-by-default', () => {
    expect(items(byDefault).filter((i) => 'content' in i).map((i) => i.id), 'items carry no content unless asked').toEqual([]);
  });
  const problems = t.schemaProblems(byDefault, 'NoteListResponse');
  await t.verify('notes.list.item-fields', () => {
    expect(problems.filter((p) => p.startsWith('/results/')), 'list items have the documented fields').toEqual([]);
  });
  await t.verify('notes.list.response-fields', () => {
    expect(problems.filter((p) => !p.startsWith('/results/')), 'the list response has the documented fields').toEqual([]);
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
    expect(typeof (one.json as { next_page?: unknown }).next_page, `next_page is a string while more notes remain: ${show(one)}`).toBe('string');
  });

  // created_at bounds on notes 1 and 3 exactly (one written at +01:00); updated_at bounds on ranks 1 and 3 (one at -05:00).
  const byCreatedBounds = await t.api.listNotes({ created_after: withOffset(w.ms(1000), 60), created_before: created(w, 3) });
  const byUpdatedBounds = await t.api.listNotes({ updated_after: withOffset(w.ms(11_000), -300), updated_before: updated(w, 3) });
  const rankOf = (i: number) => UPDATED_RANK[i]!;
  const pick = (keep: (i: number) => boolean) => notes.filter((_, i) => keep(i)).map((n) => n.id);
  const cases = [
    { what: 'created_at bounds', x: byCreatedBounds, inside: pick((i) => i === 2), onBound: pick((i) => i === 1 || i === 3), outside: pick((i) => i === 0 || i === 4) },
    { what: 'updated_at bounds', x: byUpdatedBounds, inside: pick((i) => rankOf(i) === 2), onBound: pick((i) => rankOf(i) === 1 || rankOf(i) === 3), outside: pick((i) => rankOf(i) === 0 || rankOf(i) === 4) },
  ];
  for (const c of cases) {
    await t.verify('notes.list.bounds-filter', () => {
      expect(c.x.status, `${c.what}: ${show(c.x)}`).toBe(200);
      expect(idsOf(c.x), `${c.what} keep the note strictly inside`).toEqual(expect.arrayContaining(c.inside));
      expect(idsOf(c.x).filter((id) => c.outside.includes(id)), `${c.what} drop the notes outside`).toEqual([]);
    });
    await t.verify('notes.list.bounds-inclusive', () => {
      expect(c.x.status, `${c.what}: ${show(c.x)}`).toBe(200);
      expect(idsOf(c.x), `${c.what} keep the notes exactly on them`).toEqual(expect.arrayContaining(c.onBound));
    });
  }
  const noOffset = await t.api.listNotes({ created_after: new Date(w.ms(0)).toISOString().slice(0, 19) });
  await t.verify('notes.list.bounds-offset-required', () => expectRefused(noOffset, 'a created_after bound without an offset'));
});

check('the list runs in the direction the profile declares', {
  rules: ['notes.list.order-direction'],
  needs: ['profile:list_order'],
}, async (t) => {
  const w = t.data.window();
  await fiveNotes(t, w, 3);
  const want = t.profile.list_order === 'newest_first' ? 'desc' : 'asc';
  for (const orderBy of [undefined, 'created_at'] as const) {
    const x = await t.api.listNotes({ ...around(w), ...(orderBy ? { order_by: orderBy } : {}) });
    setupOk(x, 'list the window');
    const field = orderBy ?? 'updated_at';
    await t.verify('notes.list.order-direction', () => {
      expect(direction(items(x).map((i) => ms(i[field]))), `the profile declares ${t.profile.list_order} (by ${field}): ${show(x)}`).toBe(want);
    });
  }
});

check('a cursor reused with another order_by or other filters is refused with the declared status', {
  rules: ['notes.list.cursor-filter-mismatch'],
  needs: ['profile:statuses.cursor_mismatch', 'profile:names.notes_list.cursor'],
}, async (t) => {
  const w = t.data.window();
  for (const i of [0, 1]) await t.data.note(undefined, { created_at: created(w, i) });
  const first = setupOk(await t.api.listNotes({ ...around(w), order_by: 'created_at', limit: 1 }), 'list the first page');
  if (typeof first.next_page !== 'string') throw new KitError('the first page of two notes with limit 1 has no next_page (see notes.list.next-page-omitted-at-end)');
  const declared = t.profile.statuses!.cursor_mismatch!;
  const otherOrder = await t.api.listNotes({ ...around(w), order_by: 'updated_at', limit: 1, cursor: first.next_page });
  const otherFilter = await t.api.listNotes({ created_after: w.at(-1), created_before: w.at(1500), order_by: 'created_at', limit: 1, cursor: first.next_page });
  await t.verify('notes.list.cursor-filter-mismatch', () => {
    expectDeclaredStatus(otherOrder, 'cursor_mismatch', declared, 'a cursor reused with another order_by');
    expectDeclaredStatus(otherFilter, 'cursor_mismatch', declared, 'a cursor reused with another created_before');
  });
});

check('without limit a page holds 50 notes when more match', {
  rules: ['notes.list.limit-default-50'],
  needs: [{ notes: 51 }],
}, async (t) => {
  const w = t.data.window();
  for (let i = 0; i < 51; i++) await t.data.note(undefined, { created_at: w.at(i * 10) });
  const x = await t.api.listNotes({ ...around(w) });
  await t.verify('notes.list.limit-default-50', () => {
    expect(x.status, show(x)).toBe(200);
    expect(items(x).length, 'a default page of 51 matching notes').toBe(50);
  });
});
