import { expect } from 'vitest';
import { type CheckContext, checks, expectRefused, show } from '../harness/index.js';
import { refusedCreates } from '../harness/patterns.js';
import { sized, text, twoByteAround } from './sizes.js';

const { check } = checks();

const EMOJI = '\u{1F600}'; // one character, four UTF-8 bytes, two UTF-16 units

/** Exactly 200,000 UTF-8 bytes: an ASCII head padded to a multiple of four bytes, then emoji. */
function emojiContent(t: CheckContext): string {
  let head = `${t.data.content(`Emoji ${t.data.word()}`)}\n`;
  head += 'a'.repeat((4 - (head.length % 4)) % 4);
  return head + EMOJI.repeat((200_000 - head.length) / 4);
}

// Not checked: an update of more than 200,000 UTF-16 units of emoji. It is under the character
// limit, but necessarily over 200,000 bytes, and the document states no byte limit on update
// either way (a server that applies one there is not judged).

/**
 * Notes at the content limits, in characters and UTF-8 bytes (two-byte letters and emoji too), and
 * one past each, the refused creates then looked for in one list read (or under each id); an update at 200,000 characters and
 * one past it (no byte limit is documented on update): the oracle judges every answer
 * (kit/core/behaviour/inputs.ts) and the reads.
 */
check(
  'note content: 200,000 characters and bytes accepted on create (two-byte letters and emoji too), 200,000 characters on update; one more refused',
  { oracle: ['notes.create.content-max-chars', 'notes.create.content-max-bytes', 'notes.update.content-max-chars'] },
  async (t) => {
    await t.api.createNote({ content: sized(t, 200_000, 'a').content });
    const { within, over } = twoByteAround(t, 200_000);
    const fits = await t.api.createNote({ content: within });
    // An emoji counts four bytes (not two UTF-16 units, not six as modified UTF-8 would).
    const emoji = emojiContent(t);
    await t.api.createNote({ content: emoji });
    await refusedCreates(
      t.api,
      'note',
      [sized(t, 200_001, 'a').content, over, emoji + EMOJI].map((content) => ({ content })),
    );
    // On update: one of the notes above (a new one if the target refused it).
    const made = fits.json as { id?: unknown; version?: unknown } | undefined;
    const note =
      fits.status === 200 && typeof made?.id === 'string'
        ? { id: made.id, version: made.version }
        : await t.data.note();
    const u = await t.api.updateNote(note.id, { content: sized(t, 200_000, 'a').content, version: note.version });
    const version = (u.json as { version?: unknown } | undefined)?.version;
    if (u.status !== 200) return;
    await t.api.updateNote(note.id, { content: sized(t, 200_001, 'a').content, version });
    await t.api.getNote(note.id);
  },
);

check(
  'collection_titles entries: 1,000 characters and bytes accepted, one more refused',
  { smoke: true, oracle: ['notes.create.collection-titles-max-chars', 'notes.create.collection-titles-max-bytes'] },
  async (t) => {
    const content = t.data.content('Titles');
    await t.api.createNote({ content, collection_titles: [text(t, 1000), 'é'.repeat(500)] });
    await refusedCreates(
      t.api,
      'note',
      [text(t, 1001), 'é'.repeat(501)].map((entry) => ({ content, collection_titles: [entry] })),
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
