import type fc from 'fast-check';
import { type Model, pickCollection } from '../model.js';
import { ok, type Real, violation } from '../real.js';

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
    const body = ok('collections.update.fields-applied', await real.api.updateCollection(id, { title }), 'renaming');
    violation(
      'collections.update.fields-applied',
      body.title === title,
      `the PATCH answers title ${JSON.stringify(body.title)}, sent ${title}`,
    );
    model.collections.get(id)!.title = title;
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
    ok('collections.delete.permanent', await real.api.deleteCollection(id), 'deleting a collection');
    model.collections.delete(id);
    for (const note of model.notes.values()) note.collections.delete(id);
  }
  toString(): string {
    return this.shown || `DeleteCollection(#${this.op.coll})`;
  }
}
