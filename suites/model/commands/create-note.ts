import { randomUUID } from 'node:crypto';
import type fc from 'fast-check';
import { noteCreated } from '../../../kit/core/behaviour/effects.js';
import type { OpOf } from '../../../kit/core/model-operations.js';
import { contentOf, type Model, noteOf, pickCollection, pickNote } from '../model.js';
import { numberField, ok, type Real, readNote, violation } from '../real.js';

/** POST /v2/notes, with a fresh id, no id, or the id of a note that exists (409, no upsert). */
export class CreateNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'createNote'>) {
    // How titles treat heading markers is the profile's: the model's contents start with a word.
    if (op.heading) throw new Error('the model-based run sends contents without heading markers');
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
    // Supplied times: past ones (beyond the clock tolerance), updated after created; in Z or -05:00 form.
    const past = (days: number) => Date.now() - 2 * real.t.ctx.clockToleranceMs - days * 86_400_000;
    const stamp = (ms: number) =>
      this.op.zoned ? new Date(ms - 5 * 3_600_000).toISOString().replace('Z', '-05:00') : new Date(ms).toISOString();
    const times = {
      ...(this.op.stamps === 'created' || this.op.stamps === 'both' ? { created_at: stamp(past(3)) } : {}),
      ...(this.op.stamps === 'updated' || this.op.stamps === 'both' ? { updated_at: stamp(past(1)) } : {}),
    };
    // A collection named by id: "ids not mapping to accessible collections are ignored".
    const into = this.op.into === null ? undefined : pickCollection(model, this.op.into);
    const x = await real.api.createNote({
      content,
      ...(id ? { id } : {}),
      ...times,
      ...(into ? { collection_ids: [into] } : {}),
    });
    const body = ok('notes.create.content-stored', x, 'creating a note');
    const extra = [...Object.keys(times), ...(into ? [`in ${into}`] : [])];
    this.shown = `CreateNote(${id ?? 'generated id'}${extra.length > 0 ? `, ${extra.join(', ')}` : ''}) -> ${body.id}`;
    real.steps.push(this.shown);
    violation(
      'notes.create.id-honoured',
      id === undefined || body.id === id,
      `the note must take the supplied id ${id}`,
    );
    const created = Date.parse(body.created_at);
    const updated = Date.parse(body.updated_at);
    // The oracle judges what the answer shows (times honoured or defaulted, the links); the model follows the document.
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
        suppliedCreated: 'created_at' in times,
        suppliedUpdated: 'updated_at' in times,
        links: into ? [into] : [],
        named: into ? [into] : [],
      },
      x,
    );
    model.everNotes.push(body.id);
  }

  toString(): string {
    return this.shown || `CreateNote(${this.op.id})`;
  }
}
