import type fc from 'fast-check';
import type { OpOf } from '../../../kit/core/model-operations.js';
import { learnVersion, type Model, pickNote } from '../model.js';
import { ok, type Real, readNote, refused, violation } from '../real.js';

/** POST /v2/notes/{id}/trash. */
export class TrashNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'trashNote'>) {}
  check(model: Model): boolean {
    const id = pickNote(model, this.op.note);
    return id !== undefined && !model.notes.get(id)!.trashed;
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
    model.notes.get(id)!.trashed = true;
    const read = await readNote(real, id, 'notes.trash.readable-by-id');
    violation(
      'notes.trash.readable-by-id',
      read.trashed_at !== null && read.trashed_at !== undefined,
      'a trashed note reads with its trashed_at',
    );
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
    return model.canRestore && id !== undefined && model.notes.get(id)!.trashed;
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
    const note = model.notes.get(id)!;
    note.trashed = false;
    const read = await readNote(real, id, 'notes.restore.returns-to-active');
    violation('notes.restore.returns-to-active', read.trashed_at === null, 'a restored note has trashed_at null');
    // Edits succeed again: an update at the version the read shows (the oracle judges the answer,
    // notes.restore.edits-allowed-again); the model follows what the target did.
    learnVersion(note, read.version);
    const content = real.t.data.content(`Restored ${id.slice(0, 8)}`);
    const edit = await real.api.updateNote(id, { content, version: note.version });
    const body = edit.json as { version?: unknown } | undefined;
    if (edit.status !== 200 || typeof body?.version !== 'number') return;
    learnVersion(note, body.version);
    note.content = content;
    note.contentRule = 'notes.update.content-replaced';
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
    this.shown = `DeleteNote(${id}${model.notes.get(id)!.trashed ? ', trashed' : ''})`;
    real.steps.push(this.shown);
    ok('notes.delete.permanent', await real.api.deleteNote(id), 'deleting a note');
    for (const c of model.notes.get(id)!.collections) model.collections.get(c)?.notes.delete(id);
    model.notes.delete(id);
    refused('notes.delete.permanent', await real.api.getNote(id), 'reading a deleted note');
  }
  toString(): string {
    return this.shown || `DeleteNote(#${this.op.note})`;
  }
}
