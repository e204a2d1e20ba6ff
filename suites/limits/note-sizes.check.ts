import { expect } from 'vitest';
import { checks, expectRefused, setupOk, show } from '../harness/index.js';
import { expectNoteCreateRefused, noteState } from '../harness/patterns.js';
import { sized, text, twoByteAround } from './sizes.js';

const { check } = checks();

check(
  'note content on create: 200,000 characters and bytes accepted, one more refused',
  {
    rules: ['notes.create.content-max-chars', 'notes.create.content-max-bytes'],
  },
  async (t) => {
    const exact = sized(t, 200_000, 'a');
    const x = await t.api.createNote({ content: exact.content });
    await t.verify('notes.create.content-max-chars', () => {
      expect(
        x.status,
        `content of exactly 200,000 characters must be accepted: ${x.status} ${x.text.slice(0, 200)}`,
      ).toBe(200);
    });
    await expectNoteCreateRefused(
      t,
      'notes.create.content-max-chars',
      { content: sized(t, 200_001, 'a').content },
      'content of 200,001 characters',
    );
    const { within, over } = twoByteAround(t, 200_000);
    const fits = await t.api.createNote({ content: within });
    await t.verify('notes.create.content-max-bytes', () => {
      expect(
        fits.status,
        `content of ${Buffer.byteLength(within)} UTF-8 bytes must be accepted: ${fits.status} ${fits.text.slice(0, 200)}`,
      ).toBe(200);
    });
    await expectNoteCreateRefused(
      t,
      'notes.create.content-max-bytes',
      { content: over },
      `content of ${[...over].length} characters but ${Buffer.byteLength(over)} UTF-8 bytes`,
    );
  },
);

check(
  'note content on update: 200,000 characters accepted, 200,001 refused (no byte limit is documented)',
  {
    rules: ['notes.update.content-max-chars'],
  },
  async (t) => {
    const note = await t.data.note();
    const x = await t.api.updateNote(note.id, { content: sized(t, 200_000, 'a').content, version: note.version });
    const accepted = setupOk(x, 'update with 200,000 characters');
    const before = await noteState(t.api, note.id);
    const y = await t.api.updateNote(note.id, { content: sized(t, 200_001, 'a').content, version: accepted.version });
    await t.verify('notes.update.content-max-chars', async () => {
      expectRefused(y, 'an update with 200,001 characters');
      expect(await noteState(t.api, note.id), 'a refused update changes nothing').toEqual(before);
    });
  },
);

check(
  'collection_titles entries: 1,000 characters and bytes accepted, one more refused',
  {
    smoke: true,
    rules: ['notes.create.collection-titles-max-chars', 'notes.create.collection-titles-max-bytes'],
  },
  async (t) => {
    const content = t.data.content('Titles');
    const ok = await t.api.createNote({ content, collection_titles: [text(t, 1000)] });
    await t.verify('notes.create.collection-titles-max-chars', () =>
      expect(ok.status, `a 1,000-character entry: ${show(ok)}`).toBe(200),
    );
    await expectNoteCreateRefused(
      t,
      'notes.create.collection-titles-max-chars',
      { content, collection_titles: [text(t, 1001)] },
      'a collection_titles entry of 1,001 characters',
    );
    const twoByte = await t.api.createNote({ content, collection_titles: [`${'é'.repeat(500)}`] });
    await t.verify('notes.create.collection-titles-max-bytes', () =>
      expect(twoByte.status, `an entry of 1,000 UTF-8 bytes: ${show(twoByte)}`).toBe(200),
    );
    await expectNoteCreateRefused(
      t,
      'notes.create.collection-titles-max-bytes',
      { content, collection_titles: ['é'.repeat(501)] },
      'a collection_titles entry of 501 characters but 1,002 UTF-8 bytes',
    );
  },
);

check(
  'an attachment question takes 1 to 10,000 characters',
  {
    rules: ['attachments.question.length', 'attachments.question.response-fields'],
    needs: ['fixtures:attachments'],
  },
  async (t) => {
    const note = await t.data.note();
    const attachment = await t.fixtures().addAttachment(note.id, {
      attachment_kind: 'pdf',
      page_count: 2,
      ocr_text: 'Revenue grew by ten percent. Costs fell.',
    });
    const id = attachment.attachment_id as string;
    const ask = (question: string) => t.api.askQuestion(id, { attachment_id: id, attachment_kind: 'pdf', question });
    const one = await ask('?');
    const max = await ask(text(t, 10_000));
    await t.verify('attachments.question.length', () => {
      expect(one.status, `a one-character question: ${show(one)}`).toBe(200);
      expect(max.status, `a 10,000-character question: ${show(max)}`).toBe(200);
    });
    await t.verify('attachments.question.response-fields', () => {
      expect(
        t.schemaProblems(one, 'AttachmentQuestionResponse'),
        `the answer has answer, attachment_id, attachment_kind, page_references and request_id: ${show(one)}`,
      ).toEqual([]);
    });
    for (const [question, what] of [
      ['', 'an empty question'],
      [text(t, 10_001), 'a question of 10,001 characters'],
    ] as const) {
      const x = await ask(question);
      await t.verify('attachments.question.length', () => expectRefused(x, what));
    }
  },
);
