import { expect } from 'vitest';
import { checks, setupOk } from '../harness/index.js';
import { expectNoteCreateRefused, noteState } from '../harness/patterns.js';

const { check } = checks();

/**
 * Text a byte- or UTF-16-minded store gets wrong: two- and three-byte letters, right-to-left script,
 * and astral characters (four UTF-8 bytes, a UTF-16 surrogate pair), one a zero-width-joined emoji
 * sequence. All of it is already NFC, so a server that normalises is not judged here.
 */
const MIXED = ['Grüße, naïve café', '中文 日本語 한국어', 'שלום عربى', '😀 🎉 𝄞 👩‍👩‍👧', '\u{1F600}'.repeat(5)].join(
  '\n',
);

check('non-ASCII and astral characters round-trip unchanged', { rules: ['notes.create.content-stored'] }, async (t) => {
  const content = t.data.content(`Unicode 😀 ${t.data.word()}`, MIXED);
  const x = await t.api.createNote({ content });
  const created = setupOk(x, 'create a note with non-ASCII content');
  await t.verify('notes.create.content-stored', async () => {
    expect(created.content, 'the create response has exactly the content sent').toBe(content);
    expect((await noteState(t.api, created.id)).content, 'a read returns exactly the content sent').toBe(content);
  });
});

const EMOJI = '\u{1F600}'; // one character, four UTF-8 bytes, two UTF-16 units

// Not checked: an update of more than 200,000 UTF-16 units of emoji. It is under the character
// limit, but necessarily over 200,000 bytes, and the document states no byte limit on update
// either way (a server that applies one there is not judged).

check(
  'an emoji counts four bytes on create: exactly 200,000 bytes of emoji are accepted, four more refused',
  {
    rules: ['notes.create.content-max-bytes'],
  },
  async (t) => {
    // An ASCII head padded to a multiple of four bytes, then emoji up to exactly 200,000 bytes.
    let head = `${t.data.content(`Emoji ${t.data.word()}`)}\n`;
    head += 'a'.repeat((4 - (head.length % 4)) % 4);
    const exact = head + EMOJI.repeat((200_000 - head.length) / 4);
    const fits = await t.api.createNote({ content: exact });
    await t.verify('notes.create.content-max-bytes', () => {
      expect(
        fits.status >= 200 && fits.status < 300,
        `content of ${Buffer.byteLength(exact)} UTF-8 bytes (${[...exact].length} characters) must be accepted: ${fits.status} ${fits.text.slice(0, 200)}`,
      ).toBe(true);
    });
    await expectNoteCreateRefused(
      t,
      'notes.create.content-max-bytes',
      { content: exact + EMOJI },
      `content of ${Buffer.byteLength(exact) + 4} UTF-8 bytes of emoji`,
    );
  },
);
