import { expect } from 'vitest';
import { checks, expectRefused, expectSameInstant, setupOk } from '../harness/index.js';
import { noteState } from '../harness/patterns.js';

const { check } = checks();

check(
  'a content update leaves created_at where it was',
  { rules: ['notes.update.created-at-unchanged'] },
  async (t) => {
    // Backdated by years, so "left alone" and "set to the time of the update" cannot look alike.
    const w = t.data.window();
    const note = await t.data.note(undefined, { created_at: w.at(0) });
    const createdAt = setupOk(await t.api.getNote(note.id), 'read the note').created_at as unknown;
    const x = await t.api.updateNote(note.id, {
      content: t.data.content('Updated title', 'new body'),
      version: note.version,
    });
    const updated = setupOk(x, 'update the note');
    await t.verify('notes.update.created-at-unchanged', async () => {
      expectSameInstant(updated.created_at, String(createdAt), 'created_at in the update response', t.precisionMs);
      expectSameInstant(
        (await noteState(t.api, note.id)).created_at,
        String(createdAt),
        'created_at on a read after the update',
        t.precisionMs,
      );
    });
  },
);

check(
  'an update without content is refused and changes nothing',
  { rules: ['notes.update.content-required'] },
  async (t) => {
    const note = await t.data.note();
    const before = await noteState(t.api, note.id);
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['an update with only the version', { version: note.version }],
      [
        'an update with the version and updated_at but no content',
        { version: note.version, updated_at: new Date(before.updated_at).toISOString() },
      ],
    ];
    for (const [what, body] of attempts) {
      const x = await t.api.updateNote(note.id, body);
      await t.verify('notes.update.content-required', async () => {
        expectRefused(x, what);
        expect(await noteState(t.api, note.id), `${what} must change nothing`).toEqual(before);
      });
    }
  },
);
