import type { RuleId } from '../../spec/rule-ids.js';
import { NOT_IN_SMOKE } from '../harness/check.js';
import { checks, setupOk } from '../harness/index.js';
import { pastIso } from '../harness/patterns.js';

const { check } = checks();

const TRASHED_REFUSED: RuleId[] = ['notes.update.trashed-refused', 'notes.set-created-at.trashed-refused'];
const DELETE_RULES: RuleId[] = [
  'notes.delete.active-or-trashed',
  'notes.delete.permanent',
  'notes.delete.response-fields',
];

/**
 * The lifecycle of section 3, judged by the oracle on each answer (kit/core/behaviour/predict-notes.ts):
 * the trash accepted and trashed_at its time, the trashed note readable with it, an update and a
 * set-created-at of it refused and changing nothing, deletes of an active and the trashed note
 * accepted, and the deleted notes gone from a read, a bounded list and an update. The note trashed
 * here is the one the full tier then deletes (a note and its cleanup fewer).
 */
check(
  'trash sets trashed_at; a trashed note stays readable, refuses update and set-created-at; DELETE removes active and trashed notes for good',
  {
    smoke: true,
    oracle: [
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
    setupOk(await t.api.trashNote(note.id), 'trash the note');
    await t.api.getNote(note.id);
    await t.api.updateNote(note.id, { content: t.data.content('Edited in the trash'), version: note.version });
    // Before the original creation: a backdate, refused only because the note is trashed.
    await t.api.setCreatedAt(note.id, { created_at: new Date(w.ms(0) - 86_400_000).toISOString() });
    await t.api.getNote(note.id);
    if (t.ctx.tier === 'smoke') return t.skipRule(DELETE_RULES, NOT_IN_SMOKE);
    const active = await t.data.note(undefined, { created_at: w.at(0) });
    const bounds = { created_after: w.at(-1_000), created_before: w.at(1_000) };
    await t.api.listNotes(bounds);
    // The trash and the delete once more: the document leaves the first open (the oracle stays silent)
    // and refuses the second as missing; states of a note the explorer visits otherwise (docs/judging.md).
    await t.api.trashNote(note.id);
    await t.api.deleteNote(active.id);
    await t.api.deleteNote(note.id);
    await t.api.deleteNote(note.id);
    for (const id of [active.id, note.id]) await t.api.getNote(id);
    await t.api.listNotes(bounds);
    await t.api.updateNote(active.id, { content: t.data.content('Edited after delete'), version: active.version });
  },
);

check(
  'restore makes a trashed note active and editable again',
  {
    oracle: ['notes.restore.returns-to-active', 'notes.restore.edits-allowed-again'],
    needs: ['profile:endpoints.restore_note'],
  },
  async (t) => {
    const note = await t.data.note();
    setupOk(await t.api.trashNote(note.id), 'trash the note');
    await t.api.restoreNote(note.id);
    const read = setupOk(await t.api.getNote(note.id), 'read the restored note');
    await t.api.updateNote(note.id, { content: t.data.content('After restore'), version: read.version });
    await t.api.setCreatedAt(note.id, { created_at: pastIso(t, 86_400_000) });
  },
);

check(
  'a deleted note cannot be restored',
  { oracle: ['notes.delete.not-restorable'], needs: ['profile:endpoints.restore_note'] },
  async (t) => {
    const note = await t.data.note();
    setupOk(await t.api.deleteNote(note.id), 'delete the note');
    await t.api.restoreNote(note.id);
    await t.api.getNote(note.id);
  },
);
