import { expect } from 'vitest';
import { checks, expectSameInstant, setupOk } from '../harness/index.js';
import { noteState } from '../harness/patterns.js';

const { check } = checks();

check('a content update leaves created_at where it was', { rules: ['notes.update.created-at-unchanged'] }, async (t) => {
  // Backdated by years, so "left alone" and "set to the time of the update" cannot look alike.
  const w = t.data.window();
  const note = await t.data.note(undefined, { created_at: w.at(0) });
  const createdAt = setupOk(await t.api.getNote(note.id), 'read the note').created_at as unknown;
  const x = await t.api.updateNote(note.id, { content: t.data.content('Updated title', 'new body'), version: note.version });
  const updated = setupOk(x, 'update the note');
  await t.verify('notes.update.created-at-unchanged', async () => {
    expectSameInstant(updated.created_at, String(createdAt), 'created_at in the update response');
    expect((await noteState(t.api, note.id)).created_at, 'created_at on a read after the update').toBe(Date.parse(String(createdAt)));
  });
});
