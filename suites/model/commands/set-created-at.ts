import type fc from 'fast-check';
import type { OpOf } from '../../../kit/core/model-operations.js';
import { sameAtPrecision } from '../../harness/index.js';
import { learnVersion, type Model, pickNote } from '../model.js';
import { type Real, readNote, refused, violation } from '../real.js';

/** PATCH /v2/notes/{id}/created-at: earlier than the original creation, between a backdate and it, later than it, or in the future. */
export class SetCreatedAt implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'setCreatedAt'>) {}

  check(model: Model): boolean {
    return pickNote(model, this.op.note) !== undefined;
  }

  async run(model: Model, real: Real): Promise<void> {
    const id = pickNote(model, this.op.note)!;
    const note = model.notes.get(id)!;
    const tolerance = real.t.ctx.clockToleranceMs;
    // 'between' (a value between a backdated created_at and the original) needs an earlier backdate; before one it is a plain backdate.
    const when = this.op.when === 'between' && note.createdAt >= note.original ? 'earlier' : this.op.when;
    const value =
      when === 'earlier'
        ? note.original - this.op.days * 86_400_000
        : when === 'between'
          ? Math.floor((note.createdAt + note.original) / 2)
          : // One precision step later: a store that cuts instants may cut a single millisecond away.
            when === 'later'
            ? note.original + real.t.precisionMs
            : Date.now() + tolerance * 2 + this.op.days * 86_400_000 + 60_000;
    const iso = new Date(value).toISOString();
    this.shown = `SetCreatedAt(${id}, ${iso} [${when}; original ${new Date(note.original).toISOString()}]${note.trashed ? ', trashed' : ''})`;
    real.steps.push(this.shown);
    const x = await real.api.setCreatedAt(id, { created_at: iso });
    if (note.trashed) return refused('notes.set-created-at.trashed-refused', x, 'set-created-at on a trashed note');
    if (when === 'later')
      return refused('notes.set-created-at.backdate-only', x, 'a created_at after the original creation');
    if (when === 'future') return refused('notes.set-created-at.not-future', x, 'a created_at in the future');
    // Later than the current created_at but not than the original creation: the original is the limit.
    const rule =
      value > note.createdAt ? 'notes.set-created-at.original-creation-bound' : 'notes.set-created-at.applied';
    violation(
      rule,
      x.status === 200,
      `a backdate to ${iso} (current ${new Date(note.createdAt).toISOString()}) must succeed, got ${x.status} ${x.text.slice(0, 200)}`,
    );
    const read = await readNote(real, id, 'notes.set-created-at.applied');
    const stored = Date.parse(read.created_at);
    violation(
      'notes.set-created-at.applied',
      sameAtPrecision(stored, value, real.t.precisionMs),
      `created_at must read ${iso}, got ${read.created_at}`,
    );
    // What the target stored (cut to its precision) is what later backdates compare with.
    note.createdAt = stored;
    learnVersion(note, read.version);
  }

  toString(): string {
    return this.shown || `SetCreatedAt(#${this.op.note}, ${this.op.when})`;
  }
}
