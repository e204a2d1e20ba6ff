import { checks, expectSameInstant, expectServerTime, setupOk } from '../harness/index.js';
import { noteState, pastIso } from '../harness/patterns.js';

const { check } = checks();

check(
  'updated_at on update: a supplied instant is kept, without one it is server time; created_at stays where it was',
  {
    rules: [
      'notes.update.updated-at-honoured',
      'notes.update.updated-at-defaults-to-server-time',
      'notes.update.created-at-unchanged',
    ],
  },
  async (t) => {
    // Created years back and updated days back, so "left alone" and "set to the time of the update"
    // cannot look alike for either.
    const w = t.data.window();
    const note = await t.data.note(undefined, { created_at: w.at(0), updated_at: pastIso(t, 3 * 86_400_000) });
    // What the create answered (not the value sent, which a coarser clock may store truncated).
    const createdAt = String(note.json.created_at);
    const supplied = pastIso(t, 86_400_000);
    const x = await t.api.updateNote(note.id, {
      content: t.data.content('Supplied'),
      version: note.version,
      updated_at: supplied,
    });
    const a = setupOk(x, 'update with updated_at');
    const read = await noteState(t.api, note.id);
    await t.verify('notes.update.updated-at-honoured', () => {
      expectSameInstant(a.updated_at, supplied, 'the update response updated_at', t.precisionMs);
      expectSameInstant(read.updated_at, supplied, 'updated_at on a read after the update', t.precisionMs);
    });
    const sentAt = Date.now();
    const y = await t.api.updateNote(note.id, { content: t.data.content('Server time'), version: a.version });
    const b = setupOk(y, 'update without updated_at');
    await t.verify('notes.update.updated-at-defaults-to-server-time', () => {
      expectServerTime(b.updated_at, y, sentAt, t.ctx.clockToleranceMs, 'updated_at after an update without one');
    });
    await t.verify('notes.update.created-at-unchanged', () => {
      expectSameInstant(
        a.created_at,
        createdAt,
        'created_at in the response to an update with updated_at',
        t.precisionMs,
      );
      expectSameInstant(read.created_at, createdAt, 'created_at on a read after the update', t.precisionMs);
      expectSameInstant(b.created_at, createdAt, 'created_at in the response to an update without it', t.precisionMs);
    });
  },
);
