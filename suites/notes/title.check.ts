import { expect } from 'vitest';
import { checks, setupOk } from '../harness/index.js';
import { idsOf } from '../search/search-helpers.js';

const { check } = checks();

/**
 * Notes whose first lines are plain words (with LF and CRLF line ends), read, listed and searched,
 * then one updated and listed and searched again: the oracle judges every title shown beside its
 * content (the first line, whatever the derivation) and every view's title against the note's
 * latest write (kit/core/behaviour/views.ts). Each note is in a unique backdated window and holds a
 * unique word, so the list and the search find them.
 */
check(
  'the title is the first line of the content, on create, read and update',
  { oracle: ['notes.title.first-line'] },
  async (t) => {
    const w = t.data.window();
    const word = t.data.word();
    const contents = [
      `Shopping list ${word}\nmilk\neggs ${word}\n${t.data.marker}`,
      `A single line ${word}`,
      `Windows line ending ${word}\r\nsecond line ${word}\r\n${t.data.marker}`,
    ];
    const notes = [];
    for (const [i, content] of contents.entries()) {
      notes.push(setupOk(await t.api.createNote({ content, created_at: w.at(i) }), 'create a backdated note'));
      await t.api.getNote(notes[i]!.id);
    }
    const views = async (query: string, id: string) => {
      await t.api.listNotes({ created_after: w.at(0), created_before: w.at(contents.length - 1) });
      // Search may index a write later (search_index_lag_ms): polled until the note shows, then judged.
      await t.poll(
        () => t.api.searchNotes({ limit: 50 }, { query }),
        (x) => x.status !== 200 || idsOf(x).includes(id),
      );
    };
    await views(word, notes[2]!.id);
    // An update derives the title again: every view then shows the new first line.
    const fresh = t.data.word();
    await t.api.updateNote(notes[0]!.id, { content: `After ${fresh}\nnew body`, version: notes[0]!.version });
    await views(fresh, notes[0]!.id);
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
