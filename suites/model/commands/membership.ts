import type fc from 'fast-check';
import { learnVersion, type MembershipOp, membershipChanged } from '../../../kit/core/behaviour/effects.js';
import { addDetermined, linksOf, moveDetermined, removeDetermined } from '../../../kit/core/behaviour/outcomes.js';
import type { Exchange } from '../../../kit/core/client.js';
import type { OpOf } from '../../../kit/core/model-operations.js';
import { collectionOf, type Model, noteOf, pickCollection, pickNote } from '../model.js';
import { ok, type Real, readNoteExchange, sameSet, violation } from '../real.js';

/** The interpreter's effect of an accepted membership change on the model's own note and collections. */
function apply(model: Model, op: MembershipOp, note: string, source: string, target: string | undefined, x: Exchange) {
  const to = target === undefined ? undefined : collectionOf(model, target);
  membershipChanged(model.world, op, model.owner, noteOf(model, note), collectionOf(model, source), to, x);
}

/**
 * After a membership change the note's collection_ids must be exactly the model's. The document
 * does not say what a membership change does to the version: the model learns the version the read
 * shows (effects.ts learnVersion) so the next update sends it, and no update rule judges the change.
 */
async function expectCollections(model: Model, real: Real, note: string, rule: string): Promise<void> {
  const { body: read, x } = await readNoteExchange(real, note, rule);
  const n = noteOf(model, note);
  const links = linksOf(n);
  violation(
    rule,
    sameSet(read.collection_ids ?? [], links),
    `collection_ids must be [${links.join(', ')}], got ${JSON.stringify(read.collection_ids)}`,
  );
  learnVersion(n, read.version, x);
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
    return note !== undefined && coll !== undefined && addDetermined(noteOf(model, note), collectionOf(model, coll));
  }
  async run(model: Model, real: Real): Promise<void> {
    const note = pickNote(model, this.op.note)!;
    const coll = pickCollection(model, this.op.coll)!;
    this.shown = `AddNote(${note} -> ${coll})`;
    real.steps.push(this.shown);
    const x = await real.api.addToCollection(coll, note);
    ok('membership.add.links', x, 'adding a note to a collection');
    apply(model, 'addNoteToCollection', note, coll, undefined, x);
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
    if (note === undefined || from === undefined || to === undefined) return false;
    return moveDetermined(noteOf(model, note), collectionOf(model, from), collectionOf(model, to));
  }
  async run(model: Model, real: Real): Promise<void> {
    const note = pickNote(model, this.op.note)!;
    const from = pickCollection(model, this.op.from)!;
    const to = pickCollection(model, this.op.to)!;
    this.shown = `MoveNote(${note}: ${from} -> ${to})`;
    real.steps.push(this.shown);
    const x = await real.api.moveNote(from, note, { target_collection_id: to });
    ok('membership.move.moves', x, 'moving a note');
    apply(model, 'moveNote', note, from, to, x);
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
      removeDetermined(noteOf(model, note), collectionOf(model, coll))
    );
  }
  async run(model: Model, real: Real): Promise<void> {
    const note = pickNote(model, this.op.note)!;
    const coll = pickCollection(model, this.op.coll)!;
    this.shown = `RemoveNote(${note} from ${coll})`;
    real.steps.push(this.shown);
    const x = await real.api.removeFromCollection(coll, note);
    if (x.status < 200 || x.status > 299) ok('membership.remove.unlinks', x, 'removing a note from a collection');
    apply(model, 'removeNoteFromCollection', note, coll, undefined, x);
    await expectCollections(model, real, note, 'membership.remove.unlinks');
  }
  toString(): string {
    return this.shown || `RemoveNote(#${this.op.note}, #${this.op.coll})`;
  }
}
