import { randomUUID } from 'node:crypto';
import type fc from 'fast-check';
import { noteCreated } from '../../../kit/core/behaviour/effects.js';
import type { OpOf } from '../../../kit/core/model-operations.js';
import { contentOf, type Model, noteOf, pickNote } from '../model.js';
import { numberField, ok, type Real, readNote, violation } from '../real.js';

/** POST /v2/notes, with a fresh id, no id, or the id of a note that exists (409, no upsert). */
export class CreateNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'createNote'>) {
    // The model follows contents, versions and membership of plain creates (the differential run covers the rest).
    if (op.stamps !== 'none' || op.heading || op.zoned || op.into !== null)
      throw new Error('the model-based run sends plain creates only');
  }

  check(model: Model): boolean {
    return this.op.id !== 'duplicate' || pickNote(model, this.op.dup) !== undefined;
  }

  async run(model: Model, real: Real): Promise<void> {
    const content = real.t.data.content(`Model ${this.op.word}`, `body ${this.op.word}`);
    if (this.op.id === 'duplicate') {
      const id = pickNote(model, this.op.dup)!;
      this.shown = `CreateNote(duplicate of ${id})`;
      real.steps.push(this.shown);
      const x = await real.api.createNote({ id, content });
      violation(
        'notes.create.id-conflict-409',
        x.status === 409,
        `a create with the existing id ${id} must be answered 409, got ${x.status}`,
      );
      const read = await readNote(real, id, 'notes.create.id-conflict-409');
      violation(
        'notes.create.id-conflict-409',
        read.content === contentOf(noteOf(model, id)).content,
        'a refused create must not change the existing note',
      );
      return;
    }
    const id = this.op.id === 'supplied' ? randomUUID() : undefined;
    const x = await real.api.createNote({ content, ...(id ? { id } : {}) });
    const body = ok('notes.create.content-stored', x, 'creating a note');
    this.shown = `CreateNote(${id ?? 'generated id'}) -> ${body.id}`;
    real.steps.push(this.shown);
    violation(
      'notes.create.id-honoured',
      id === undefined || body.id === id,
      `the note must take the supplied id ${id}`,
    );
    const created = Date.parse(body.created_at);
    const updated = Date.parse(body.updated_at);
    // A plain create: no times supplied, no collection named (the oracle judges what the answer shows).
    noteCreated(
      model.world,
      {
        id: body.id,
        owner: model.owner,
        content,
        ...(typeof body.title === 'string' ? { title: body.title } : {}),
        version: numberField(body, 'version', 'create'),
        ...(Number.isNaN(created) ? {} : { createdAt: created }),
        ...(Number.isNaN(updated) ? {} : { updatedAt: updated }),
        suppliedCreated: false,
        suppliedUpdated: false,
        links: [],
        named: [],
      },
      x,
    );
    model.everNotes.push(body.id);
  }

  toString(): string {
    return this.shown || `CreateNote(${this.op.id})`;
  }
}
