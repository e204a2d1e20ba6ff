import type fc from 'fast-check';
import { createdAtSet } from '../../../kit/core/behaviour/effects.js';
import {
  backdatable,
  backdateInstant,
  backdateLimit,
  setCreatedAtOutcome,
} from '../../../kit/core/behaviour/outcomes.js';
import type { OpOf } from '../../../kit/core/model-operations.js';
import { sameAtPrecision } from '../../harness/index.js';
import { isTrashed, type Model, noteOf, pickNote } from '../model.js';
import { type Real, readNoteExchange, refused, violation } from '../real.js';

/** PATCH /v2/notes/{id}/created-at: earlier than the original creation, between a backdate and it, at it, later, or in the future. */
export class SetCreatedAt implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'setCreatedAt'>) {}

  /** After a create that supplied a time, "originally created" is open: 'later' needs a note created at the server's time. */
  private pick(model: Model): string | undefined {
    return pickNote(model, this.op.note, (n) => backdatable(n, this.op.when));
  }

  check(model: Model): boolean {
    return this.pick(model) !== undefined;
  }

  async run(model: Model, real: Real): Promise<void> {
    const id = this.pick(model)!;
    const note = noteOf(model, id);
    const tolerance = real.t.ctx.clockToleranceMs;
    const original = backdateLimit(note)!;
    const createdAt = note.createdAt?.value ?? original;
    const clock = { now: Date.now(), toleranceMs: tolerance, precisionMs: real.t.precisionMs };
    const { value, when } = backdateInstant(note, this.op, clock);
    const iso = new Date(value).toISOString();
    this.shown = `SetCreatedAt(${id}, ${iso} [${when}; original ${new Date(original).toISOString()}]${isTrashed(note) ? ', trashed' : ''})`;
    real.steps.push(this.shown);
    const expected = setCreatedAtOutcome(note, value, { ...clock, now: Date.now() });
    if (!expected) throw new Error(`set-created-at to ${iso}: the model cannot tell the outcome`);
    const x = await real.api.setCreatedAt(id, { created_at: iso });
    if (!expected.accepted) return refused(expected.rule, x, `set-created-at to ${iso} [${when}]`);
    // Later than the current created_at but not than the original creation: the original is the limit.
    violation(
      expected.rule,
      x.status === 200,
      `a backdate to ${iso} (current ${new Date(createdAt).toISOString()}) must succeed, got ${x.status} ${x.text.slice(0, 200)}`,
    );
    const { body: read, x: readX } = await readNoteExchange(real, id, 'notes.set-created-at.applied');
    const stored = Date.parse(read.created_at);
    violation(
      'notes.set-created-at.applied',
      sameAtPrecision(stored, value, real.t.precisionMs),
      `created_at must read ${iso}, got ${read.created_at}`,
    );
    // "Changes metadata only, not content": version is the note's content document version.
    const version = note.version?.value;
    if (version !== undefined)
      violation(
        'notes.set-created-at.version-unchanged',
        read.version === version,
        `set-created-at changes metadata only: version must stay ${version}, got ${read.version}`,
      );
    // What the target stored (cut to its precision) is what later backdates compare with.
    createdAtSet(note, stored, readX);
  }

  toString(): string {
    return this.shown || `SetCreatedAt(#${this.op.note}, ${this.op.when})`;
  }
}
