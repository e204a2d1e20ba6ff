import { expect } from 'vitest';
import { checks, expectSameInstant, expectServerTime, setupOk, show } from '../harness/index.js';
import { noteState, pastIso } from '../harness/patterns.js';

const { check } = checks();

// One note takes the accepted updates (the refused ones go to the note of update.check.ts):
// each update below is judged for the rules it can show, so no rule needs a note of its own.
check(
  'an update replaces the content with a new version the next update accepts; updated_at is kept if supplied, else server time; created_at stays',
  {
    rules: [
      'notes.update.content-replaced',
      'notes.update.version-changes',
      'notes.update.version-from-read-or-write',
      'notes.update.updated-at-honoured',
      'notes.update.updated-at-defaults-to-server-time',
      'notes.update.created-at-unchanged',
    ],
  },
  async (t) => {
    // Created years back and updated days back, so "left alone" and "set to the time of the update"
    // cannot look alike for either.
    const w = t.data.window();
    const note = await t.data.note(t.data.content('First title', 'first body, to be replaced'), {
      created_at: w.at(0),
      updated_at: pastIso(t, 3 * 86_400_000),
    });
    // What the create answered (not the value sent, which a coarser clock may store truncated).
    const createdAt = String(note.json.created_at);
    const content = t.data.content('Second title', 'a new body');
    const supplied = pastIso(t, 86_400_000);
    // The version from the create response (a write), with updated_at supplied.
    const x = await t.api.updateNote(note.id, { content, version: note.version, updated_at: supplied });
    const a = setupOk(x, 'update the note at its current version, with updated_at');
    const read = await noteState(t.api, note.id);
    await t.verify('notes.update.version-changes', () => {
      expect(Number.isInteger(a.version), `the new version is an integer: ${JSON.stringify(a.version)}`).toBe(true);
      expect(a.version, 'an update changes the version').not.toBe(note.version);
    });
    await t.verify('notes.update.content-replaced', () => {
      expect(a.content, 'the update response has exactly the content sent').toBe(content);
      expect(read.content, 'a read returns exactly the content sent (no merge)').toBe(content);
    });
    await t.verify('notes.update.updated-at-honoured', () => {
      expectSameInstant(a.updated_at, supplied, 'the update response updated_at', t.precisionMs);
      expectSameInstant(read.updated_at, supplied, 'updated_at on a read after the update', t.precisionMs);
    });
    // The version from the read, without updated_at; then the version from that write response.
    const sentAt = Date.now();
    const y = await t.api.updateNote(note.id, { content: t.data.content('Third'), version: read.version });
    const b = y.status === 200 ? setupOk(y, 'update without updated_at') : undefined;
    const z = b && (await t.api.updateNote(note.id, { content: t.data.content('Fourth'), version: b.version }));
    await t.verify('notes.update.version-from-read-or-write', () => {
      expect(y.status, `the version from a read is accepted: ${show(y)}`).toBe(200);
      expect(z?.status, `the version from the latest write response is accepted: ${z && show(z)}`).toBe(200);
    });
    if (b) {
      await t.verify('notes.update.updated-at-defaults-to-server-time', () => {
        expectServerTime(b.updated_at, y, sentAt, t.ctx.clockToleranceMs, 'updated_at after an update without one');
      });
    } else {
      t.skipRule(
        'notes.update.updated-at-defaults-to-server-time',
        'the update without updated_at was refused (see notes.update.version-from-read-or-write)',
      );
    }
    await t.verify('notes.update.created-at-unchanged', () => {
      const responses = [['with updated_at', a.created_at], ...(b ? [['without it', b.created_at]] : [])] as const;
      for (const [what, value] of responses)
        expectSameInstant(value, createdAt, `created_at in the response to an update ${what}`, t.precisionMs);
      expectSameInstant(read.created_at, createdAt, 'created_at on a read after the update', t.precisionMs);
    });
  },
);
