import { expect } from 'vitest';
import { checks, setupOk } from '../harness/index.js';
import { noteState } from '../harness/patterns.js';

const { check } = checks();

/**
 * Text a byte- or UTF-16-minded store gets wrong: two- and three-byte letters, right-to-left script,
 * and astral characters (four UTF-8 bytes, a UTF-16 surrogate pair), one a zero-width-joined emoji
 * sequence. All of it is already NFC, so a server that normalises is not judged here.
 */
const MIXED = ['Grüße, naïve café', '中文 日本語 한국어', 'שלום عربى', '😀 🎉 𝄞 👩‍👩‍👧', '\u{1F600}'.repeat(5)].join('\n');

check('non-ASCII and astral characters round-trip unchanged', { rules: ['notes.create.content-stored'] }, async (t) => {
  const content = t.data.content(`Unicode 😀 ${t.data.word()}`, MIXED);
  const x = await t.api.createNote({ content });
  const created = setupOk(x, 'create a note with non-ASCII content');
  await t.verify('notes.create.content-stored', async () => {
    expect(created.content, 'the create response has exactly the content sent').toBe(content);
    expect((await noteState(t.api, created.id)).content, 'a read returns exactly the content sent').toBe(content);
  });
});
