import { expect } from 'vitest';
import { checks, setupOk, show } from '../harness/index.js';

const { check } = checks();

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

check(
  'a note_id that is not a UUID is refused with a 4xx',
  { oracle: ['notes.read.invalid-id-refused'] },
  async (t) => {
    await t.api.getNote('not-a-uuid');
    await t.api.updateNote('12345', { content: 'x', version: 1 });
    await t.api.deleteNote('x'.repeat(36));
  },
);
