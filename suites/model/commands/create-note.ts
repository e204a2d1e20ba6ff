import { randomUUID } from 'node:crypto';
import type fc from 'fast-check';
import { type Model, pickNote } from '../model.js';
import { type Real, numberField, ok, readNote, violation } from '../real.js';

/** POST /v2/notes, with a fresh id, no id, or the id of a note that exists (409, no upsert). */
export class CreateNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly mode: 'generated' | 'supplied' | 'duplicate', readonly dupIndex: number, readonly word: string) {}

  check(model: Model): boolean {
    return this.mode !== 'duplicate' || pickNote(model, this.dupIndex) !== undefined;
  }

  async run(model: Model, real: Real): Promise<void> {
    const content = real.t.data.content(`Model ${this.word}`, `body ${this.word}`);
    if (this.mode === 'duplicate') {
      const id = pickNote(model, this.dupIndex)!;
      this.shown = `CreateNote(duplicate of ${id})`;
    real.steps.push(this.shown);
      const x = await real.api.createNote({ id, content });
      violation('notes.create.id-conflict-409', x.status === 409, `a create with the existing id ${id} must be answered 409, got ${x.status}`);
      const read = await readNote(real, id, 'notes.create.id-conflict-409');
      violation('notes.create.id-conflict-409', read.content === model.notes.get(id)!.content, 'a refused create must not change the existing note');
      return;
    }
    const id = this.mode === 'supplied' ? randomUUID() : undefined;
    const body = ok('notes.create.content-stored', await real.api.createNote({ content, ...(id ? { id } : {}) }), 'creating a note');
    this.shown = `CreateNote(${id ?? 'generated id'}) -> ${body.id}`;
    real.steps.push(this.shown);
    violation('notes.create.id-honoured', id === undefined || body.id === id, `the note must take the supplied id ${id}`);
    const created = Date.parse(body.created_at);
    model.notes.set(body.id, {
      content, contentRule: 'notes.create.content-stored', version: numberField(body, 'version', 'create'), stale: [], trashed: false, collections: new Set(), original: created, createdAt: created,
    });
    model.everNotes.push(body.id);
  }

  toString(): string {
    return this.shown || `CreateNote(${this.mode})`;
  }
}
