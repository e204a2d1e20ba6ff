import { randomUUID } from 'node:crypto';
import type fc from 'fast-check';
import { collectionCreated } from '../../../kit/core/behaviour/effects.js';
import type { OpOf } from '../../../kit/core/model-operations.js';
import { type Model, pickCollection } from '../model.js';
import { ok, type Real, violation } from '../real.js';

/** POST /v2/collections, new (with or without an id) or with the id of one that exists (409). */
export class CreateCollection implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'createCollection'>) {
    if (op.stamps !== 'none') throw new Error('the model-based run sends plain creates only');
  }

  check(model: Model): boolean {
    return this.op.id !== 'duplicate' || pickCollection(model, this.op.dup) !== undefined;
  }

  async run(model: Model, real: Real): Promise<void> {
    const title = `Model collection ${this.op.word}`;
    if (this.op.id === 'duplicate') {
      const id = pickCollection(model, this.op.dup)!;
      this.shown = `CreateCollection(duplicate of ${id})`;
      real.steps.push(this.shown);
      const x = await real.api.createCollection({ id, title });
      violation(
        'collections.create.id-conflict-409',
        x.status === 409,
        `a collection create with the existing id ${id} must be answered 409, got ${x.status}`,
      );
      return;
    }
    const id = this.op.id === 'supplied' ? randomUUID() : undefined;
    const x = await real.api.createCollection({ title, ...(id ? { id } : {}) });
    const body = ok('collections.create.id-conflict-409', x, 'creating a collection');
    this.shown = `CreateCollection(${body.id})`;
    real.steps.push(this.shown);
    const created = Date.parse(body.created_at);
    const updated = Date.parse(body.updated_at);
    collectionCreated(
      model.world,
      {
        id: body.id,
        owner: model.owner,
        title,
        description: null,
        ...(Number.isNaN(created) ? {} : { createdAt: created }),
        ...(Number.isNaN(updated) ? {} : { updatedAt: updated }),
        suppliedCreated: false,
        suppliedUpdated: false,
      },
      x,
    );
    model.everCollections.push(body.id);
  }

  toString(): string {
    return this.shown || `CreateCollection(${this.op.id})`;
  }
}
