import type fc from 'fast-check';
import type { OpOf } from '../../../kit/core/model-operations.js';
import { activeCount, type Model, pickCollection, pickNote } from '../model.js';
import { type Real, readNote, sameSet, violation } from '../real.js';

/** GET /v2/notes/{id}: content, version, trash state and collection_ids as the model says. */
export class ReadNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'readNote'>) {}
  check(model: Model): boolean {
    return pickNote(model, this.op.note) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const id = pickNote(model, this.op.note)!;
    const note = model.notes.get(id)!;
    this.shown = `ReadNote(${id})`;
    real.steps.push(this.shown);
    // An active note that does not read breaks the promise of its last write; a trashed one, the trash rule.
    const read = await readNote(real, id, note.trashed ? 'notes.trash.readable-by-id' : note.contentRule);
    violation(
      note.contentRule,
      read.content === note.content,
      'the note reads with the content of its last successful write',
    );
    violation(
      'notes.update.version-changes',
      read.version === note.version,
      `the note reads with version ${note.version} (the last write's), got ${read.version}`,
    );
    violation(
      'notes.trash.readable-by-id',
      (read.trashed_at !== null) === note.trashed,
      `trashed_at must be ${note.trashed ? 'set' : 'null'}, got ${JSON.stringify(read.trashed_at)}`,
    );
    violation(
      'membership.collection-ids.current',
      sameSet(read.collection_ids ?? [], note.collections),
      `collection_ids must be [${[...note.collections].join(', ')}], got ${JSON.stringify(read.collection_ids)}`,
    );
  }
  toString(): string {
    return this.shown || `ReadNote(#${this.op.note})`;
  }
}

/** GET /v2/collections/{id}: note_count counts the active notes it holds (when none is trashed). */
export class ReadCollection implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'readCollection'>) {}
  check(model: Model): boolean {
    return pickCollection(model, this.op.coll) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const id = pickCollection(model, this.op.coll)!;
    this.shown = `ReadCollection(${id})`;
    real.steps.push(this.shown);
    const x = await real.api.getCollection(id);
    violation(
      'collections.read.note-count',
      x.status === 200,
      `reading collection ${id} must succeed, got ${x.status}`,
    );
    const { active, anyTrashed } = activeCount(model, id);
    const count = (x.json as { note_count?: unknown }).note_count;
    // Whether trashed notes count is not shown: judge only collections without any.
    if (!anyTrashed)
      violation(
        'collections.read.note-count',
        count === active,
        `note_count must be ${active}, got ${JSON.stringify(count)}`,
      );
  }
  toString(): string {
    return this.shown || `ReadCollection(#${this.op.coll})`;
  }
}
