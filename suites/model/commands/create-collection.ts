import { randomUUID } from 'node:crypto';
import type fc from 'fast-check';
import { type Model, pickCollection } from '../model.js';
import { type Real, ok, violation } from '../real.js';

/** POST /v2/collections, new or with the id of one that exists (409). */
export class CreateCollection implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly duplicate: boolean, readonly dupIndex: number, readonly word: string) {}

  check(model: Model): boolean {
    return !this.duplicate || pickCollection(model, this.dupIndex) !== undefined;
  }

  async run(model: Model, real: Real): Promise<void> {
    const title = `Model collection ${this.word}`;
    if (this.duplicate) {
      const id = pickCollection(model, this.dupIndex)!;
      this.shown = `CreateCollection(duplicate of ${id})`;
    real.steps.push(this.shown);
      const x = await real.api.createCollection({ id, title });
      violation('collections.create.id-conflict-409', x.status === 409, `a collection create with the existing id ${id} must be answered 409, got ${x.status}`);
      return;
    }
    const id = randomUUID();
    const body = ok('collections.create.id-conflict-409', await real.api.createCollection({ id, title }), 'creating a collection');
    this.shown = `CreateCollection(${body.id})`;
    real.steps.push(this.shown);
    model.collections.set(body.id, { title, notes: new Set() });
    model.everCollections.push(body.id);
  }

  toString(): string {
    return this.shown || `CreateCollection(${this.duplicate ? 'duplicate' : 'new'})`;
  }
}
