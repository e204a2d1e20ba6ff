import { randomUUID } from 'node:crypto';
import { checks, setupOk } from '../harness/index.js';

const { check } = checks();

// The oracle judges every answer here (kit/core/behaviour/predict-notes.ts): the id honoured, 409 for
// an existing id, a trashed note's too, and the note unchanged by the refused creates (the reads).
check(
  'a supplied id is used; an existing id, even trashed, is answered 409 and the note is unchanged',
  {
    smoke: true,
    oracle: [
      'notes.create.id-honoured',
      'notes.create.id-conflict-409',
      'notes.create.id-conflict-no-upsert',
      'notes.create.id-conflict-409-trashed',
    ],
  },
  async (t) => {
    const id = randomUUID();
    setupOk(await t.api.createNote({ id, content: t.data.content(`Original ${t.data.word()}`) }), 'create a note');
    await t.api.getNote(id);
    await t.api.createNote({ id, content: t.data.content('Replacement') });
    await t.api.getNote(id);
    setupOk(await t.api.trashNote(id), 'trash the note');
    await t.api.createNote({ id, content: t.data.content('After trash') });
    await t.api.getNote(id);
  },
);

check(
  "the id of another user's note is answered 409 and that note is unchanged",
  { oracle: ['notes.create.id-conflict-409-other-user'] },
  async (t) => {
    const other = t.secondary();
    const theirs = await t.data.note(t.data.content(`Theirs ${t.data.word()}`), {}, other);
    await t.api.createNote({ id: theirs.id, content: t.data.content('Mine') });
    await other.getNote(theirs.id);
  },
);
