import { expect } from 'vitest';
import { checks, expectRefused, setupOk, show } from '../harness/index.js';
import { pastIso } from '../harness/patterns.js';

const { check } = checks();

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
    const note = await t.data.note();
    const read = await t.api.getNote(note.id);
    setupOk(read, 'read the note');
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
    const updated = await t.api.updateNote(note.id, { content: t.data.content('Updated'), version: note.version });
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

check(
  'attachment metadata in the read response has the documented fields',
  {
    rules: ['notes.read.attachment-metadata-fields'],
    needs: ['fixtures:attachments'],
  },
  async (t) => {
    const note = await t.data.note();
    await t.fixtures().addAttachment(note.id, {
      attachment_kind: 'pdf',
      page_count: 3,
      ocr_text: 'Quarterly figures',
      summary: 'A report',
    });
    await t
      .fixtures()
      .addAttachment(note.id, { attachment_kind: 'image', image_type: 'photo', visual_description: 'A cat' });
    const read = await t.api.getNote(note.id);
    const body = setupOk(read, 'read the note');
    await t.verify('notes.read.attachment-metadata-fields', () => {
      const items = body.attachment_metadata as unknown[];
      expect(
        Array.isArray(items) && items.length === 2,
        `the read response lists both attachments: ${show(read)}`,
      ).toBe(true);
      for (const item of items) {
        const problems = t.kit.schemas.validate('AttachmentMetadata', item, { strict: t.ctx.strict });
        expect(problems, `attachment metadata ${JSON.stringify(item)}`).toEqual([]);
      }
      expect(items.map((a) => (a as { attachment_kind: string }).attachment_kind).sort()).toEqual(['image', 'pdf']);
    });
  },
);

check('a note_id that is not a UUID is refused with a 4xx', { rules: ['notes.read.invalid-id-refused'] }, async (t) => {
  for (const [method, id] of [
    ['GET', 'not-a-uuid'],
    ['PATCH', '12345'],
    ['DELETE', 'x'.repeat(36)],
  ] as const) {
    const x =
      method === 'GET'
        ? await t.api.getNote(id)
        : method === 'PATCH'
          ? await t.api.updateNote(id, { content: 'x', version: 1 })
          : await t.api.deleteNote(id);
    await t.verify('notes.read.invalid-id-refused', () => expectRefused(x, `${method} /v2/notes/${id}`));
  }
});
