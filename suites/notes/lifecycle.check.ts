import { expect } from 'vitest';
import type { RuleId } from '../../spec/rule-ids.js';
import { type CheckContext, NOT_IN_SMOKE } from '../harness/check.js';
import type { NoteRef, TimeWindow } from '../harness/data.js';
import { checks, expectRefused, expectServerTime, KitError, setupOk, show } from '../harness/index.js';
import { type NoteState, noteState, noteStateOf, pastIso } from '../harness/patterns.js';
import { expectRefusalsChangeNothing } from '../harness/refusals.js';

const { check } = checks();

const TRASHED_REFUSED: RuleId[] = ['notes.update.trashed-refused', 'notes.set-created-at.trashed-refused'];
const DELETE_RULES: RuleId[] = [
  'notes.delete.active-or-trashed',
  'notes.delete.permanent',
  'notes.delete.response-fields',
];

// The note trashed here is the trashed note the full tier then deletes (a note and its cleanup fewer).
check(
  'trash sets trashed_at; a trashed note stays readable, refuses update and set-created-at; DELETE removes active and trashed notes for good',
  {
    smoke: true,
    rules: [
      'notes.trash.sets-trashed-at',
      'notes.trash.readable-by-id',
      'notes.read.trashed-included',
      ...TRASHED_REFUSED,
      ...DELETE_RULES,
    ],
  },
  async (t) => {
    // A time window only this check's notes use, so the list after the deletes is short on a shared account.
    const w = t.data.window();
    const note = await t.data.note(undefined, { created_at: w.at(0) });
    const sentAt = Date.now();
    const trash = await t.api.trashNote(note.id);
    setupOk(trash, 'trash the note');
    const read = await t.api.getNote(note.id);
    await t.verify(['notes.trash.readable-by-id', 'notes.read.trashed-included'], () => {
      expect(read.status, `a trashed note is still readable by id: ${show(read)}`).toBe(200);
      expect(
        (read.json as { trashed_at?: unknown }).trashed_at,
        'a trashed note reads with a non-null trashed_at',
      ).not.toBeNull();
    });
    await t.verify('notes.trash.sets-trashed-at', () => {
      expectServerTime(
        (read.json as { trashed_at?: unknown }).trashed_at,
        trash,
        sentAt,
        t.ctx.clockToleranceMs,
        'trashed_at',
      );
    });
    if (read.status === 200) await expectTrashedRefusals(t, w, note.id, noteStateOf(read));
    // Judged above: without a read, "changes nothing" has nothing to compare (the deletes below still run).
    else
      t.skipRule(TRASHED_REFUSED, `the trashed note cannot be read (${show(read)}), so the refusals cannot be judged`);
    if (t.ctx.tier === 'smoke') return t.skipRule(DELETE_RULES, NOT_IN_SMOKE);
    await expectDeletedForGood(t, w, note);
  },
);

/** An update and a set-created-at of the trashed note `id` are refused and change nothing; `before`: its state. */
async function expectTrashedRefusals(t: CheckContext, w: TimeWindow, id: string, before: NoteState): Promise<void> {
  let latest = before;
  // Each attempt is built when sent, from the latest read and a day further back each time: when a broken
  // target took one and the helper sends them again to find which, the one taken changes the note again.
  let sent = 0;
  await expectRefusalsChangeNothing(
    t,
    [
      {
        rules: 'notes.update.trashed-refused',
        what: 'an update of a trashed note',
        send: () => t.api.updateNote(id, { content: t.data.content('Edited in the trash'), version: latest.version }),
      },
      {
        rules: 'notes.set-created-at.trashed-refused',
        what: 'set-created-at on a trashed note',
        // Before the original creation: a backdate, refused only because the note is trashed.
        send: () => t.api.setCreatedAt(id, { created_at: new Date(w.ms(0) - ++sent * 86_400_000).toISOString() }),
      },
    ],
    async () => {
      latest = await noteState(t.api, id);
      return latest;
    },
    latest,
  );
}

/** An active note and the trashed `trashed`, both created at the window's start, are deleted for good. */
async function expectDeletedForGood(t: CheckContext, w: TimeWindow, trashed: NoteRef): Promise<void> {
  const active = await t.data.note(undefined, { created_at: w.at(0) });
  const bounds = { created_after: w.at(-1_000), created_before: w.at(1_000) };
  const listedBefore = setupOk(await t.api.listNotes(bounds), 'list the notes by their creation time')
    .results as Array<{ id: string }>;
  if (listedBefore.filter((r) => r.id === active.id).length !== 1) {
    throw new KitError(
      "the note list bounded to the note's creation time did not return the active note (see the notes.list bounds rules)",
    );
  }
  const a = await t.api.deleteNote(active.id);
  const b = await t.api.deleteNote(trashed.id);
  await t.verify('notes.delete.active-or-trashed', () => {
    expect(a.status, `delete an active note: ${show(a)}`).toBe(200);
    expect(b.status, `delete a trashed note: ${show(b)}`).toBe(200);
  });
  await t.verify('notes.delete.response-fields', () => {
    expect(t.schemaProblems(a, 'RequestIdOnly'), `DELETE answers {request_id}: ${show(a)}`).toEqual([]);
  });
  await t.verify('notes.delete.permanent', async () => {
    for (const id of [active.id, trashed.id]) expectRefused(await t.api.getNote(id), 'reading a deleted note');
    const listed = setupOk(await t.api.listNotes(bounds), 'list the notes by their creation time after the deletes')
      .results as Array<{ id: string }>;
    const ghosts = listed.map((r) => r.id).filter((id) => id === active.id || id === trashed.id);
    expect(ghosts, 'GET /v2/notes no longer shows the deleted notes').toEqual([]);
    expectRefused(
      await t.api.updateNote(active.id, { content: t.data.content('Edited after delete'), version: active.version }),
      'an update of a deleted note',
    );
  });
}

check(
  'restore makes a trashed note active and editable again',
  {
    rules: ['notes.restore.returns-to-active', 'notes.restore.edits-allowed-again'],
    needs: ['profile:endpoints.restore_note'],
  },
  async (t) => {
    const note = await t.data.note();
    setupOk(await t.api.trashNote(note.id), 'trash the note');
    const restored = await t.api.restoreNote(note.id);
    await t.verify('notes.restore.returns-to-active', async () => {
      expect(restored.status, `restore: ${show(restored)}`).toBeGreaterThanOrEqual(200);
      expect(restored.status, `restore: ${show(restored)}`).toBeLessThan(300);
      expect((await noteState(t.api, note.id)).trashed_at, 'a restored note has trashed_at null').toBeNull();
    });
    const update = await t.api.updateNote(note.id, { content: t.data.content('After restore'), version: note.version });
    const dated = await t.api.setCreatedAt(note.id, { created_at: pastIso(t, 86_400_000) });
    await t.verify('notes.restore.edits-allowed-again', () => {
      expect(update.status, `update after restore: ${show(update)}`).toBe(200);
      expect(dated.status, `set-created-at after restore: ${show(dated)}`).toBe(200);
    });
  },
);

check(
  'a deleted note cannot be restored',
  { rules: ['notes.delete.not-restorable'], needs: ['profile:endpoints.restore_note'] },
  async (t) => {
    const note = await t.data.note();
    setupOk(await t.api.deleteNote(note.id), 'delete the note');
    const restore = await t.api.restoreNote(note.id);
    await t.verify('notes.delete.not-restorable', async () => {
      expectRefused(restore, 'restoring a deleted note');
      expectRefused(await t.api.getNote(note.id), 'reading the deleted note after a restore attempt');
    });
  },
);
