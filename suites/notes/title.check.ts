import { expect } from 'vitest';
import { checks, setupOk } from '../harness/index.js';

const { check } = checks();

check('the title is the first line of the content, on create, read and update', { rules: ['notes.title.first-line'] }, async (t) => {
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
  const updated = setupOk(await t.api.updateNote(note.id, { content: `${after}\nnew body`, version: note.version }), 'update the note');
  await t.verify('notes.title.first-line', () => {
    expect(String(updated.title).trim(), 'after an update the title is the new first line').toBe(after);
  });
});

check('a markdown heading as first line gives the title the profile declares', {
  rules: ['notes.title.heading-markers'],
  needs: ['profile:title.derivation'],
}, async (t) => {
  const text = `Heading ${t.data.word()}`;
  const created = setupOk(await t.api.createNote({ content: `## ${text}\nbody\n${t.data.marker}` }), 'create a note with a heading');
  const expected = t.profile.title?.derivation === 'strip_heading_markers' ? text : `## ${text}`;
  await t.verify('notes.title.heading-markers', () => {
    expect(String(created.title).trim(), `the profile declares title derivation ${t.profile.title?.derivation}`).toBe(expected);
  });
});
