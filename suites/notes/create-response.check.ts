import { expect } from 'vitest';
import { checks, expectOk, show } from '../harness/index.js';

const { check } = checks();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Text a byte- or UTF-16-minded store gets wrong: two- and three-byte letters, right-to-left script,
 * and astral characters (four UTF-8 bytes, a UTF-16 surrogate pair), one a zero-width-joined emoji
 * sequence. All of it is already NFC, so a server that normalises is not judged here.
 */
const MIXED = ['Grüße, naïve café', '中文 日本語 한국어', 'שלום عربى', '😀 🎉 𝄞 👩‍👩‍👧', '\u{1F600}'.repeat(5)].join(
  '\n',
);

check(
  'a created note has the documented fields, a new UUID and the content sent, non-ASCII text included',
  {
    rules: [
      'notes.create.response-fields',
      'notes.create.response-omits-trashed-at',
      'conventions.ids.uuid',
      'notes.create.id-generated',
      'notes.create.content-stored',
      'notes.create.version-positive',
      'notes.read-only-fields.absent-from-writes',
    ],
  },
  async (t) => {
    // Trailing spaces and newline are part of the markdown and must survive, and so must non-ASCII text.
    const content = `Shape 😀 ${t.data.word()}\n\nBody line with *markdown*  \n- item\n${MIXED}\n${t.data.marker}\n`;
    const x = await t.api.createNote({ content });
    const note = expectOk(x, 'create a note');
    await t.verify('notes.create.response-fields', () => {
      expect(
        t.schemaProblems(x, 'NoteCore'),
        `the create response lacks documented fields or has wrong types: ${show(x)}`,
      ).toEqual([]);
    });
    await t.verify('notes.create.response-omits-trashed-at', () => {
      expect(note, 'the create response shows no trashed_at').not.toHaveProperty('trashed_at');
    });
    await t.verify('notes.read-only-fields.absent-from-writes', () => {
      expect(note, 'audio_recording_ids is in the read response only').not.toHaveProperty('audio_recording_ids');
      expect(note, 'attachment_metadata is in the read response only').not.toHaveProperty('attachment_metadata');
    });
    await t.verify('notes.create.version-positive', () => {
      expect(
        Number.isInteger(note.version) && (note.version as number) >= 1,
        `version must be an integer >= 1, got ${JSON.stringify(note.version)}`,
      ).toBe(true);
    });
    const second = expectOk(await t.api.createNote({ content: t.data.content('Second') }), 'create a second note');
    await t.verify(['conventions.ids.uuid', 'notes.create.id-generated'], () => {
      expect(note.id, 'a generated note id is a UUID').toMatch(UUID);
      expect(second.id, 'a generated note id is a UUID').toMatch(UUID);
      expect(second.id, 'each created note gets a new id').not.toBe(note.id);
    });
    const read = await t.api.getNote(note.id as string);
    await t.verify('notes.create.content-stored', () => {
      expect(note.content, 'the create response returns the content sent').toBe(content);
      expect(read.status, show(read)).toBe(200);
      expect((read.json as { content?: unknown }).content, 'a read returns the content sent').toBe(content);
    });
  },
);
