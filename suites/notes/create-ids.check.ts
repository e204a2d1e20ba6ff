import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { checks, setupOk, show } from '../harness/index.js';
import { noteState } from '../harness/patterns.js';

const { check } = checks();

check(
  'a supplied id is used; an existing id, even trashed, is answered 409 and the note is unchanged',
  {
    smoke: true,
    rules: [
      'notes.create.id-honoured',
      'notes.create.id-conflict-409',
      'notes.create.id-conflict-no-upsert',
      'notes.create.id-conflict-409-trashed',
    ],
  },
  async (t) => {
    const id = randomUUID();
    const content = t.data.content(`Original ${t.data.word()}`);
    const created = await t.api.createNote({ id, content });
    await t.verify('notes.create.id-honoured', () => {
      expect(created.status, show(created)).toBe(200);
      expect((created.json as { id?: unknown }).id, 'the note takes the id supplied').toBe(id);
    });
    setupOk(created, 'create a note with a supplied id');
    const before = await noteState(t.api, id);
    const again = await t.api.createNote({ id, content: t.data.content('Replacement') });
    await t.verify('notes.create.id-conflict-409', () => {
      expect(again.status, `a create with an existing id must be answered 409 (no upsert): ${show(again)}`).toBe(409);
    });
    await t.verify('notes.create.id-conflict-no-upsert', async () => {
      expect(await noteState(t.api, id), 'the existing note must be unchanged by the refused create').toEqual(before);
    });
    setupOk(await t.api.trashNote(id), 'trash the note');
    const trashed = await t.api.createNote({ id, content: t.data.content('After trash') });
    await t.verify('notes.create.id-conflict-409-trashed', async () => {
      expect(trashed.status, `a trashed note still exists, so its id gives 409: ${show(trashed)}`).toBe(409);
      expect((await noteState(t.api, id)).content, 'the trashed note keeps its content').toBe(content);
    });
  },
);

check(
  "the id of another user's note is answered 409 and that note is unchanged",
  {
    rules: ['notes.create.id-conflict-409-other-user'],
  },
  async (t) => {
    const other = t.secondary();
    const theirs = await t.data.note(t.data.content(`Theirs ${t.data.word()}`), {}, other);
    const before = await noteState(other, theirs.id);
    const mine = await t.api.createNote({ id: theirs.id, content: t.data.content('Mine') });
    await t.verify('notes.create.id-conflict-409-other-user', async () => {
      expect(mine.status, `an id that already exists, whoever owns it, gives 409: ${show(mine)}`).toBe(409);
      expect(await noteState(other, theirs.id)).toEqual(before);
    });
  },
);
