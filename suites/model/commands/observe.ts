import type fc from 'fast-check';
import { learnVersion } from '../../../kit/core/behaviour/effects.js';
import { linksOf } from '../../../kit/core/behaviour/outcomes.js';
import type { OpOf } from '../../../kit/core/model-operations.js';
import { contentOf, isTrashed, type Model, noteCount, noteOf, pickCollection, pickNote } from '../model.js';
import { type Real, readNoteExchange, sameSet, violation } from '../real.js';

/** GET /v2/notes/{id}: content, version, trash state and collection_ids as the model says. */
export class ReadNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'readNote'>) {}
  check(model: Model): boolean {
    return pickNote(model, this.op.note) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const id = pickNote(model, this.op.note)!;
    const note = noteOf(model, id);
    const { content, rule } = contentOf(note);
    const trashed = isTrashed(note);
    this.shown = `ReadNote(${id})`;
    real.steps.push(this.shown);
    // An active note that does not read breaks the promise of its last write; a trashed one, the trash rule.
    const { body: read, x } = await readNoteExchange(real, id, trashed ? 'notes.trash.readable-by-id' : rule);
    violation(rule, read.content === content, 'the note reads with the content of its last successful write');
    // A version the interpreter does not know (after an operation whose effect on it is not shown) is learnt.
    const version = note.version;
    if (version)
      violation(
        version.rule === 'notes.set-created-at.version-unchanged' ? version.rule : 'notes.update.version-changes',
        read.version === version.value,
        `the note reads with version ${version.value} (the last write's), got ${read.version}`,
      );
    else learnVersion(note, read.version, x);
    violation(
      'notes.trash.readable-by-id',
      (read.trashed_at !== null) === trashed,
      `trashed_at must be ${trashed ? 'set' : 'null'}, got ${JSON.stringify(read.trashed_at)}`,
    );
    const links = linksOf(note);
    violation(
      'membership.collection-ids.current',
      sameSet(read.collection_ids ?? [], links),
      `collection_ids must be [${links.join(', ')}], got ${JSON.stringify(read.collection_ids)}`,
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
    const expected = noteCount(model, id);
    const count = (x.json as { note_count?: unknown }).note_count;
    // Whether trashed notes count is not shown: the interpreter knows no count for collections holding one.
    if (expected !== undefined)
      violation(
        'collections.read.note-count',
        count === expected,
        `note_count must be ${expected}, got ${JSON.stringify(count)}`,
      );
  }
  toString(): string {
    return this.shown || `ReadCollection(#${this.op.coll})`;
  }
}
