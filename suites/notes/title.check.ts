import { expect } from 'vitest';
import { checks, type Exchange, KitError, setupOk } from '../harness/index.js';
import { idsOf } from '../search/search-helpers.js';

const { check } = checks();

check(
  'the title is the first line of the content, on create, read and update',
  { rules: ['notes.title.first-line'] },
  async (t) => {
    // Each note is in a unique backdated window and holds a unique word, so list and search items can be judged too.
    const w = t.data.window();
    const word = t.data.word();
    const cases = [
      [`Shopping list ${word}`, `\nmilk\neggs ${word}\n${t.data.marker}`],
      [`A single line ${word}`, ''],
      [`Windows line ending ${word}`, `\r\nsecond line ${word}\r\n${t.data.marker}`],
    ] as const;
    const notes: Array<{ id: string; first: string; version: unknown }> = [];
    for (const [i, [first, rest]] of cases.entries()) {
      const created = setupOk(
        await t.api.createNote({ content: `${first}${rest}`, created_at: w.at(i) }),
        'create a backdated note',
      );
      const read = setupOk(await t.api.getNote(created.id), 'read the note');
      await t.verify('notes.title.first-line', () => {
        expect(String(created.title).trim(), 'the create response title is the first line').toBe(first);
        expect(String(read.title).trim(), 'the read title is the first line').toBe(first);
      });
      notes.push({ id: created.id as string, first, version: created.version });
    }
    const list = setupOk(
      await t.api.listNotes({ created_after: w.at(0), created_before: w.at(cases.length - 1) }),
      'list the window',
    );
    const found = (x: Exchange) => x.status !== 200 || notes.every((n) => idsOf(x).includes(n.id));
    const search = setupOk(
      (await t.poll(() => t.api.searchNotes({ limit: 50 }, { query: word }), found)).value,
      'search for the notes',
    );
    const find = (page: Record<string, unknown>, id: string) =>
      (page.results as Array<{ id: string; title?: unknown }>).find((r) => r.id === id);
    // Finding the notes is other rules' business (bounds, search). The list must have them; search
    // may index a new note later (the document does not say when), so its items are judged if there.
    for (const { id, first } of notes) {
      const inList = find(list, id);
      if (!inList)
        throw new KitError(
          "setup: the list of the notes' own time window did not return one of them, so its title cannot be judged",
        );
      const inSearch = find(search, id);
      const items = [['list', inList], ...(inSearch ? [['search', inSearch]] : [])] as Array<
        [string, { title?: unknown }]
      >;
      await t.verify('notes.title.first-line', () => {
        for (const [what, item] of items)
          expect(String(item.title).trim(), `a ${what} item's title is the first line`).toBe(first);
      });
    }
    // An update derives the title again: the first note gets a new first line.
    const note = notes[0]!;
    const fresh = t.data.word();
    const after = `After ${fresh}`;
    const updated = setupOk(
      await t.api.updateNote(note.id, { content: `${after}\nnew body`, version: note.version }),
      'update the note',
    );
    await t.verify('notes.title.first-line', () => {
      expect(String(updated.title).trim(), 'after an update the title is the new first line').toBe(after);
    });
    // List and search items derive it again: a view must not keep the title the note was created
    // with. Search is polled for the new word (it may lag by search_index_lag_ms) and judged if found.
    const relisted = setupOk(
      await t.api.listNotes({ created_after: w.at(0), created_before: w.at(cases.length - 1) }),
      'list the window again',
    );
    const research = setupOk(
      (
        await t.poll(
          () => t.api.searchNotes({ limit: 50 }, { query: fresh }),
          (x) => x.status !== 200 || idsOf(x).includes(note.id),
        )
      ).value,
      'search for the updated note',
    );
    const views: Array<[string, { title?: unknown }]> = [];
    for (const [what, page] of [
      ['list', relisted],
      ['search', research],
    ] as const) {
      const item = find(page, note.id);
      if (item) views.push([what, item]);
    }
    await t.verify('notes.title.first-line', () => {
      for (const [what, item] of views)
        expect(String(item.title).trim(), `after an update a ${what} item's title is the new first line`).toBe(after);
    });
  },
);

check(
  'a markdown heading as first line gives the title the profile declares',
  {
    rules: ['notes.title.heading-markers'],
    needs: ['profile:title.derivation'],
  },
  async (t) => {
    const text = `Heading ${t.data.word()}`;
    const created = setupOk(
      await t.api.createNote({ content: `## ${text}\nbody\n${t.data.marker}` }),
      'create a note with a heading',
    );
    const expected = t.profile.title?.derivation === 'strip_heading_markers' ? text : `## ${text}`;
    await t.verify('notes.title.heading-markers', () => {
      expect(String(created.title).trim(), `the profile declares title derivation ${t.profile.title?.derivation}`).toBe(
        expected,
      );
    });
  },
);
