import { expect } from 'vitest';
import { type CheckContext, checks, expectRefused, show } from '../harness/index.js';
import { expectCreatesRefused, noteState } from '../harness/patterns.js';
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

check(
  'note content: 200,000 characters and bytes accepted on create (two-byte letters and emoji too), 200,000 characters on update; one more refused',
  {
    rules: ['notes.create.content-max-chars', 'notes.create.content-max-bytes', 'notes.update.content-max-chars'],
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
    const { within, over } = twoByteAround(t, 200_000);
    const fits = await t.api.createNote({ content: within });
    await t.verify('notes.create.content-max-bytes', () => {
      expect(
        fits.status,
        `content of ${Buffer.byteLength(within)} UTF-8 bytes must be accepted: ${fits.status} ${fits.text.slice(0, 200)}`,
      ).toBe(200);
    });
    // An emoji counts four bytes (not two UTF-16 units, not six as modified UTF-8 would).
    const emoji = emojiContent(t);
    const emojiFits = await t.api.createNote({ content: emoji });
    await t.verify('notes.create.content-max-bytes', () => {
      expect(
        emojiFits.status >= 200 && emojiFits.status < 300,
        `content of ${Buffer.byteLength(emoji)} UTF-8 bytes (${[...emoji].length} characters, mostly emoji) ` +
          `must be accepted: ${emojiFits.status} ${emojiFits.text.slice(0, 200)}`,
      ).toBe(true);
    });
    await expectCreatesRefused(t, 'note', [
      {
        rules: 'notes.create.content-max-chars',
        body: { content: sized(t, 200_001, 'a').content },
        what: 'content of 200,001 characters',
      },
      {
        rules: 'notes.create.content-max-bytes',
        body: { content: over },
        what: `content of ${[...over].length} characters but ${Buffer.byteLength(over)} UTF-8 bytes`,
      },
      {
        rules: 'notes.create.content-max-bytes',
        body: { content: emoji + EMOJI },
        what: `content of ${Buffer.byteLength(emoji) + 4} UTF-8 bytes of emoji`,
      },
    ]);
    // On update: one of the notes above (a new one if the target refused it) takes 200,000 characters
    // but not 200,001 (no byte limit is documented on update).
    const made = fits.json as { id?: unknown; version?: unknown } | undefined;
    const note =
      fits.status === 200 && typeof made?.id === 'string'
        ? { id: made.id, version: made.version }
        : await t.data.note();
    const u = await t.api.updateNote(note.id, { content: sized(t, 200_000, 'a').content, version: note.version });
    await t.verify('notes.update.content-max-chars', () => {
      expect(u.status, `an update with 200,000 characters must be accepted: ${u.status} ${u.text.slice(0, 200)}`).toBe(
        200,
      );
    });
    if (u.status !== 200) return;
    const before = await noteState(t.api, note.id);
    const y = await t.api.updateNote(note.id, { content: sized(t, 200_001, 'a').content, version: before.version });
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
    // Both entries at their limits go in one create; only when it is refused is each sent alone, to tell which
    // limit the target gets wrong.
    const chars = text(t, 1000);
    const bytes = 'é'.repeat(500);
    const both = await t.api.createNote({ content, collection_titles: [chars, bytes] });
    const alone = async (entry: string) => t.api.createNote({ content, collection_titles: [entry] });
    const ok = both.status === 200 ? both : await alone(chars);
    await t.verify('notes.create.collection-titles-max-chars', () =>
      expect(ok.status, `a 1,000-character entry: ${show(ok)}`).toBe(200),
    );
    const twoByte = both.status === 200 ? both : await alone(bytes);
    await t.verify('notes.create.collection-titles-max-bytes', () =>
      expect(twoByte.status, `an entry of 1,000 UTF-8 bytes: ${show(twoByte)}`).toBe(200),
    );
    await expectCreatesRefused(t, 'note', [
      {
        rules: 'notes.create.collection-titles-max-chars',
        body: { content, collection_titles: [text(t, 1001)] },
        what: 'a collection_titles entry of 1,001 characters',
      },
      {
        rules: 'notes.create.collection-titles-max-bytes',
        body: { content, collection_titles: ['é'.repeat(501)] },
        what: 'a collection_titles entry of 501 characters but 1,002 UTF-8 bytes',
      },
    ]);
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
