import type fc from 'fast-check';
import { learnVersion, noteDeleted, noteTrashed, noteUpdated } from '../../../kit/core/behaviour/effects.js';
import { trashDetermined } from '../../../kit/core/behaviour/outcomes.js';
import type { OpOf } from '../../../kit/core/model-operations.js';
import { currentVersion, isTrashed, type Model, noteOf, pickNote } from '../model.js';
import { ok, type Real, readNoteExchange, refused, violation } from '../real.js';

/** POST /v2/notes/{id}/trash. */
export class TrashNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'trashNote'>) {}
  check(model: Model): boolean {
    const id = pickNote(model, this.op.note);
    return id !== undefined && trashDetermined(noteOf(model, id), true);
  }
  async run(model: Model, real: Real): Promise<void> {
    const id = pickNote(model, this.op.note)!;
    this.shown = `TrashNote(${id})`;
    real.steps.push(this.shown);
    const x = await real.api.trashNote(id);
    violation(
      'notes.trash.readable-by-id',
      x.status >= 200 && x.status < 300,
      `trashing an active note must succeed, got ${x.status}`,
    );
    const note = noteOf(model, id);
    noteTrashed(model.world, note, true, x);
    const { body: read, x: readX } = await readNoteExchange(real, id, 'notes.trash.readable-by-id');
    violation(
      'notes.trash.readable-by-id',
      read.trashed_at !== null && read.trashed_at !== undefined,
      'a trashed note reads with its trashed_at',
    );
    // Whether trashing moves the version is not shown: the read tells it.
    learnVersion(note, read.version, readX);
  }
  toString(): string {
    return this.shown || `TrashNote(#${this.op.note})`;
  }
}

/** The restore operation (endpoint from the profile). */
export class RestoreNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'restoreNote'>) {}
  check(model: Model): boolean {
    const id = pickNote(model, this.op.note);
    return model.canRestore && id !== undefined && trashDetermined(noteOf(model, id), false);
  }
  async run(model: Model, real: Real): Promise<void> {
    const id = pickNote(model, this.op.note)!;
    this.shown = `RestoreNote(${id})`;
    real.steps.push(this.shown);
    const x = await real.api.restoreNote(id);
    violation(
      'notes.restore.returns-to-active',
      x.status >= 200 && x.status < 300,
      `restoring a trashed note must succeed, got ${x.status}`,
    );
    const note = noteOf(model, id);
    noteTrashed(model.world, note, false, x);
    const { body: read, x: readX } = await readNoteExchange(real, id, 'notes.restore.returns-to-active');
    violation('notes.restore.returns-to-active', read.trashed_at === null, 'a restored note has trashed_at null');
    // Edits succeed again: an update at the version the read shows (the oracle judges the answer,
    // notes.restore.edits-allowed-again); the model follows what the target did.
    learnVersion(note, read.version, readX);
    const content = real.t.data.content(`Restored ${id.slice(0, 8)}`);
    const edit = await real.api.updateNote(id, { content, version: currentVersion(note) });
    const body = edit.json as { version?: unknown; title?: unknown; updated_at?: unknown } | undefined;
    if (edit.status !== 200 || typeof body?.version !== 'number') return;
    const updated = typeof body.updated_at === 'string' ? Date.parse(body.updated_at) : Number.NaN;
    noteUpdated(
      note,
      {
        content,
        ...(typeof body.title === 'string' ? { title: body.title } : {}),
        version: body.version,
        ...(Number.isNaN(updated) ? {} : { updatedAt: updated }),
        suppliedUpdated: false,
      },
      edit,
    );
  }
  toString(): string {
    return this.shown || `RestoreNote(#${this.op.note})`;
  }
}

/** DELETE /v2/notes/{id}: permanent, active or trashed; the note leaves its collections. */
export class DeleteNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'deleteNote'>) {}
  check(model: Model): boolean {
    return pickNote(model, this.op.note) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const id = pickNote(model, this.op.note)!;
    const note = noteOf(model, id);
    this.shown = `DeleteNote(${id}${isTrashed(note) ? ', trashed' : ''})`;
    real.steps.push(this.shown);
    const x = await real.api.deleteNote(id);
    ok('notes.delete.permanent', x, 'deleting a note');
    noteDeleted(model.world, note, x);
    refused('notes.delete.permanent', await real.api.getNote(id), 'reading a deleted note');
  }
  toString(): string {
    return this.shown || `DeleteNote(#${this.op.note})`;
  }
}
