import { noteRef } from '../harness/data.js';
import { checks, setupOk } from '../harness/index.js';
import { pastIso } from '../harness/patterns.js';
import { perFile } from '../harness/shared.js';

const { check } = checks();

/**
 * The second note the create check makes, which the read check then reads, updates and re-dates.
 * Shared although that check changes the note, because nothing the create check judges can change
 * afterwards; one note fewer per run.
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

// Every answer here is the oracle's to judge (its shape, the fields it leaves out, new UUIDs, the
// content as sent in the answer and in a read): the checks set up the notes.
check(
  'a created note has the documented fields, a new UUID and the content sent, non-ASCII text included',
  {
    oracle: [
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
    const note = setupOk(await t.api.createNote({ content }), 'create a note');
    await secondNote(t);
    await t.api.getNote(note.id);
  },
);

check(
  'read, update and set-created-at return the full note with trashed_at null while active',
  {
    oracle: [
      'notes.read.response-fields',
      'notes.trashed-at.null-when-active',
      'notes.read-only-fields.absent-from-writes',
      'notes.update.response-fields',
      'notes.set-created-at.response-fields',
    ],
  },
  async (t) => {
    const note = noteRef(await secondNote(t), 'create a note');
    // The version as read now, not as created: the note is shared with the create check.
    const { version } = setupOk(await t.api.getNote(note.id), 'read the note');
    await t.api.updateNote(note.id, { content: t.data.content('Updated'), version });
    await t.api.setCreatedAt(note.id, { created_at: pastIso(t, 86_400_000) });
  },
);
