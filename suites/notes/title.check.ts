import { expect } from 'vitest';
import { checks, type Exchange, KitError, setupOk } from '../harness/index.js';
import { idsOf } from '../search/search-helpers.js';

const { check } = checks();

check(
  'the title is the first line of the content, on create, read and update',
  { rules: ['notes.title.first-line'] },
  async (t) => {
    const cases = [
      [`Shopping list ${t.data.word()}`, `\nmilk\neggs\n${t.data.marker}`],
      [`A single line ${t.data.word()}`, ''],
      [`Windows line ending ${t.data.word()}`, `\r\nsecond line\r\n${t.data.marker}`],
    ] as const;
    for (const [first, rest] of cases) {
      const created = setupOk(await t.api.createNote({ content: `${first}${rest}` }), 'create a note');
      const read = setupOk(await t.api.getNote(created.id), 'read the note');
      await t.verify('notes.title.first-line', () => {
        expect(String(created.title).trim(), 'the create response title is the first line').toBe(first);
        expect(String(read.title).trim(), 'the read title is the first line').toBe(first);
      });
    }
    const note = setupOk(await t.api.createNote({ content: t.data.content('Before') }), 'create a note');
    const after = `After ${t.data.word()}`;
    const updated = setupOk(
      await t.api.updateNote(note.id, { content: `${after}\nnew body`, version: note.version }),
      'update the note',
    );
    await t.verify('notes.title.first-line', () => {
      expect(String(updated.title).trim(), 'after an update the title is the new first line').toBe(after);
    });
    // List and search items carry the title too: a note in a unique backdated window, found by a unique word.
    const w = t.data.window();
    const word = t.data.word();
    const listed = setupOk(
      await t.api.createNote({
        content: `Listed ${word}
body ${word}
${t.data.marker}`,
        created_at: w.at(0),
      }),
      'create a backdated note',
    );
    const list = setupOk(await t.api.listNotes({ created_after: w.at(0), created_before: w.at(0) }), 'list the window');
    const found = (x: Exchange) => x.status !== 200 || idsOf(x).includes(listed.id as string);
    const search = setupOk(
      (await t.poll(() => t.api.searchNotes({ limit: 50 }, { query: word }), found)).value,
      'search for the note',
    );
    const find = (page: Record<string, unknown>) =>
      (page.results as Array<{ id: string; title?: unknown }>).find((r) => r.id === listed.id);
    // Finding the note is other rules' business (bounds, search). The list must have it; search
    // may index a new note later (the document does not say when), so its item is judged if there.
    const inList = find(list);
    if (!inList)
      throw new KitError(
        "setup: the list of the note's own time window did not return it, so its title cannot be judged",
      );
    const inSearch = find(search);
    const items = [['list', inList], ...(inSearch ? [['search', inSearch]] : [])] as Array<
      [string, { title?: unknown }]
    >;
    await t.verify('notes.title.first-line', () => {
      for (const [what, item] of items)
        expect(String(item.title).trim(), `a ${what} item's title is the first line`).toBe(`Listed ${word}`);
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
