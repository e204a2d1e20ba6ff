import type fc from 'fast-check';
import { collectionDeleted, collectionUpdated } from '../../../kit/core/behaviour/effects.js';
import { KitError } from '../../harness/index.js';
import { collectionOf, type Model, pickCollection } from '../model.js';
import { ok, type Real } from '../real.js';

/** PATCH /v2/collections/{id} with a new title: the answer holds it (later views: the oracle). */
export class UpdateCollection implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: { kind: 'updateCollection'; coll: number; word: string }) {}
  check(model: Model): boolean {
    return pickCollection(model, this.op.coll) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const id = pickCollection(model, this.op.coll)!;
    const title = `Model collection ${this.op.word} renamed`;
    this.shown = `UpdateCollection(${id}, ${title})`;
    real.steps.push(this.shown);
    // What the answer and every later view show is the oracle's to judge (collections.update.fields-applied);
    // a refused rename is the update checks' to judge: here it only means the model cannot go on.
    const x = await real.api.updateCollection(id, { title });
    if (x.status !== 200) throw new KitError(`renaming collection ${id} answered ${x.status}: ${x.text.slice(0, 200)}`);
    const updated = Date.parse((x.json as { updated_at?: string }).updated_at ?? '');
    collectionUpdated(collectionOf(model, id), { title }, Number.isNaN(updated) ? undefined : updated, x);
  }
  toString(): string {
    return this.shown || `UpdateCollection(#${this.op.coll})`;
  }
}

/** DELETE /v2/collections/{id}: gone; its notes stay and no longer list it. */
export class DeleteCollection implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: { kind: 'deleteCollection'; coll: number }) {}
  check(model: Model): boolean {
    return pickCollection(model, this.op.coll) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const id = pickCollection(model, this.op.coll)!;
    this.shown = `DeleteCollection(${id})`;
    real.steps.push(this.shown);
    const x = await real.api.deleteCollection(id);
    ok('collections.delete.permanent', x, 'deleting a collection');
    collectionDeleted(model.world, collectionOf(model, id), x);
  }
  toString(): string {
    return this.shown || `DeleteCollection(#${this.op.coll})`;
  }
}
