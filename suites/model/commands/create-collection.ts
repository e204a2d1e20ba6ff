import { randomUUID } from 'node:crypto';
import type fc from 'fast-check';
import { collectionCreated } from '../../../kit/core/behaviour/effects.js';
import type { OpOf } from '../../../kit/core/model-operations.js';
import { type Model, pickCollection } from '../model.js';
import { ok, type Real, violation } from '../real.js';

/**
 * POST /v2/collections, new (with or without an id, a description, supplied times) or with the id
 * of one that exists (409).
 */
export class CreateCollection implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'createCollection'>) {}

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
    const description = this.op.described ? `About ${this.op.word}` : undefined;
    // Supplied times: past ones (beyond the clock tolerance), updated after created, as the note creates send them.
    const past = (days: number) => new Date(Date.now() - 2 * real.t.ctx.clockToleranceMs - days * 86_400_000);
    const stamps = this.op.stamps;
    const times = {
      ...(stamps === 'created' || stamps === 'both' ? { created_at: past(3).toISOString() } : {}),
      ...(stamps === 'updated' || stamps === 'both' ? { updated_at: past(1).toISOString() } : {}),
    };
    const x = await real.api.createCollection({
      title,
      ...(id ? { id } : {}),
      ...(description ? { description } : {}),
      ...times,
    });
    const body = ok('collections.create.id-conflict-409', x, 'creating a collection');
    const extra = [...(description ? ['described'] : []), ...Object.keys(times)];
    this.shown = `CreateCollection(${id ?? 'generated id'}${extra.length > 0 ? `, ${extra.join(', ')}` : ''}) -> ${body.id}`;
    real.steps.push(this.shown);
    const created = Date.parse(body.created_at);
    const updated = Date.parse(body.updated_at);
    // The oracle judges what the answer shows (times honoured or defaulted, the description); the model follows it.
    collectionCreated(
      model.world,
      {
        id: body.id,
        owner: model.owner,
        title,
        description: description ?? null,
        ...(Number.isNaN(created) ? {} : { createdAt: created }),
        ...(Number.isNaN(updated) ? {} : { updatedAt: updated }),
        suppliedCreated: 'created_at' in times,
        suppliedUpdated: 'updated_at' in times,
      },
      x,
    );
    model.everCollections.push(body.id);
  }

  toString(): string {
    return this.shown || `CreateCollection(${this.op.id})`;
  }
}
