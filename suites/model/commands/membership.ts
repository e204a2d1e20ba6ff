import type fc from 'fast-check';
import type { OpOf } from '../../../kit/core/model-operations.js';
import { learnVersion, type Model, pickCollection, pickNote } from '../model.js';
import { ok, type Real, readNote, sameSet, violation } from '../real.js';

function link(model: Model, note: string, collection: string): void {
  model.notes.get(note)!.collections.add(collection);
  model.collections.get(collection)!.notes.add(note);
}

/**
 * After a membership change the note's collection_ids must be exactly the model's. The document
 * does not say a membership change leaves the version alone: the model learns the version the read
 * shows (see learnVersion) so the next update sends it, and no update rule judges the change.
 */
async function expectCollections(model: Model, real: Real, note: string, rule: string): Promise<void> {
  const read = await readNote(real, note, rule);
  const n = model.notes.get(note)!;
  violation(
    rule,
    sameSet(read.collection_ids ?? [], n.collections),
    `collection_ids must be [${[...n.collections].join(', ')}], got ${JSON.stringify(read.collection_ids)}`,
  );
  learnVersion(n, read.version);
}

function unlink(model: Model, note: string, collection: string): void {
  model.notes.get(note)!.collections.delete(collection);
  model.collections.get(collection)!.notes.delete(note);
}

/** PUT /v2/collections/{c}/notes/{n}. */
export class AddNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'addNote'>) {}
  // Only what the document settles: an active note not yet in the collection (re-adding an existing
  // link, and membership changes of trashed notes, are not shown).
  check(model: Model): boolean {
    const note = pickNote(model, this.op.note);
    const coll = pickCollection(model, this.op.coll);
    return (
      note !== undefined &&
      coll !== undefined &&
      !model.notes.get(note)!.trashed &&
      !model.notes.get(note)!.collections.has(coll)
    );
  }
  async run(model: Model, real: Real): Promise<void> {
    const note = pickNote(model, this.op.note)!;
    const coll = pickCollection(model, this.op.coll)!;
    this.shown = `AddNote(${note} -> ${coll})`;
    real.steps.push(this.shown);
    ok('membership.add.links', await real.api.addToCollection(coll, note), 'adding a note to a collection');
    link(model, note, coll);
    await expectCollections(model, real, note, 'membership.add.links');
  }
  toString(): string {
    return this.shown || `AddNote(#${this.op.note}, #${this.op.coll})`;
  }
}

/** POST /v2/collections/{from}/notes/{n}/move: add to the target, then remove from the source. */
export class MoveNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'moveNote'>) {}
  // Only what the document settles: an active note, from a collection holding it to another that
  // does not (a move onto itself or onto an existing link, and trashed notes, are not shown).
  check(model: Model): boolean {
    const note = pickNote(model, this.op.note);
    const from = pickCollection(model, this.op.from);
    const to = pickCollection(model, this.op.to);
    if (note === undefined || from === undefined || to === undefined || from === to) return false;
    const n = model.notes.get(note)!;
    return !n.trashed && n.collections.has(from) && !n.collections.has(to);
  }
  async run(model: Model, real: Real): Promise<void> {
    const note = pickNote(model, this.op.note)!;
    const from = pickCollection(model, this.op.from)!;
    const to = pickCollection(model, this.op.to)!;
    this.shown = `MoveNote(${note}: ${from} -> ${to})`;
    real.steps.push(this.shown);
    ok('membership.move.moves', await real.api.moveNote(from, note, { target_collection_id: to }), 'moving a note');
    link(model, note, to);
    unlink(model, note, from);
    await expectCollections(model, real, note, 'membership.move.moves');
  }
  toString(): string {
    return this.shown || `MoveNote(#${this.op.note}, #${this.op.from} -> #${this.op.to})`;
  }
}

/** Remove a note from a collection (endpoint from the profile). */
export class RemoveNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'removeNote'>) {}
  check(model: Model): boolean {
    const note = pickNote(model, this.op.note);
    const coll = pickCollection(model, this.op.coll);
    return (
      model.canRemove &&
      note !== undefined &&
      coll !== undefined &&
      !model.notes.get(note)!.trashed &&
      model.notes.get(note)!.collections.has(coll)
    );
  }
  async run(model: Model, real: Real): Promise<void> {
    const note = pickNote(model, this.op.note)!;
    const coll = pickCollection(model, this.op.coll)!;
    this.shown = `RemoveNote(${note} from ${coll})`;
    real.steps.push(this.shown);
    const x = await real.api.removeFromCollection(coll, note);
    if (x.status < 200 || x.status > 299) ok('membership.remove.unlinks', x, 'removing a note from a collection');
    unlink(model, note, coll);
    await expectCollections(model, real, note, 'membership.remove.unlinks');
  }
  toString(): string {
    return this.shown || `RemoveNote(#${this.op.note}, #${this.op.coll})`;
  }
}
