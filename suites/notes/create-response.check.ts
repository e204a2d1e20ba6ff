import { expect } from 'vitest';
import { UUID } from '../../spec/patterns.js';
import { noteRef } from '../harness/data.js';
import { checks, expectOk, setupOk, show } from '../harness/index.js';
import { pastIso } from '../harness/patterns.js';
import { perFile } from '../harness/shared.js';

const { check } = checks();

/**
 * The second note the create check makes (it judges only its create response: a new UUID), which
 * the read check then reads, updates and re-dates. Shared although that check changes the note,
 * because nothing the create check judges can change afterwards; one note fewer per run.
 */
const secondNote = perFile((t) => t.api.createNote({ content: t.data.content('Second') }));

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
    const second = expectOk(await secondNote(t), 'create a second note');
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

check(
  'read, update and set-created-at return the full note with trashed_at null while active',
  {
    rules: [
      'notes.read.response-fields',
      'notes.trashed-at.null-when-active',
      'notes.read-only-fields.absent-from-writes',
      'notes.update.response-fields',
      'notes.set-created-at.response-fields',
    ],
  },
  async (t) => {
    const note = noteRef(await secondNote(t), 'create a note');
    const read = await t.api.getNote(note.id);
    // The version as read now, not as created: the note is shared with the create check.
    const { version } = setupOk(read, 'read the note');
    await t.verify('notes.read.response-fields', () => {
      expect(
        t.schemaProblems(read, 'NoteReadResponse'),
        `the read response does not match the full note: ${show(read)}`,
      ).toEqual([]);
      // Created with content only: the note has no recordings and no PDF or image attachments to list.
      const body = read.json as { audio_recording_ids?: unknown; attachment_metadata?: unknown };
      expect(
        body.audio_recording_ids,
        'a note created with content only reads audio_recording_ids as an empty list',
      ).toEqual([]);
      expect(
        body.attachment_metadata,
        'a note created with content only reads attachment_metadata as an empty list',
      ).toEqual([]);
    });
    const updated = await t.api.updateNote(note.id, { content: t.data.content('Updated'), version });
    const u = setupOk(updated, 'update the note');
    await t.verify('notes.update.response-fields', () => {
      expect(
        t.schemaProblems(updated, 'NoteUpdateResponse'),
        `the update response lacks documented fields: ${show(updated)}`,
      ).toEqual([]);
    });
    const dated = await t.api.setCreatedAt(note.id, { created_at: pastIso(t, 86_400_000) });
    const d = setupOk(dated, 'set created_at');
    await t.verify('notes.set-created-at.response-fields', () => {
      expect(
        t.schemaProblems(dated, 'NoteSetCreatedAtResponse'),
        `the set-created-at response lacks documented fields: ${show(dated)}`,
      ).toEqual([]);
    });
    await t.verify('notes.trashed-at.null-when-active', () => {
      for (const [what, body] of [
        ['read', read.json],
        ['update', u],
        ['set-created-at', d],
      ] as const) {
        expect(body, `the ${what} response carries trashed_at`).toHaveProperty('trashed_at');
        expect(
          (body as { trashed_at?: unknown }).trashed_at,
          `an active note has trashed_at null in the ${what} response`,
        ).toBeNull();
      }
    });
    await t.verify('notes.read-only-fields.absent-from-writes', () => {
      for (const [what, body] of [
        ['update', u],
        ['set-created-at', d],
      ] as const) {
        expect(body, `audio_recording_ids is in the read response only, not ${what}`).not.toHaveProperty(
          'audio_recording_ids',
        );
        expect(body, `attachment_metadata is in the read response only, not ${what}`).not.toHaveProperty(
          'attachment_metadata',
        );
      }
    });
  },
);
