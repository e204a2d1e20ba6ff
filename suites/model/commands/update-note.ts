import type fc from 'fast-check';
import type { OpOf } from '../../../kit/core/model-operations.js';
import { type Model, pickNote } from '../model.js';
import { numberField, type Real, readNote, refused, violation } from '../real.js';

/** PATCH /v2/notes/{id} with the current, a stale or an ahead version. */
export class UpdateNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'updateNote'>) {
    // The model compares contents and versions; an updated_at it sent would be one more thing to model.
    if (op.stamp) throw new Error('the model-based run sends updates without updated_at');
  }

  private pick(model: Model): string | undefined {
    return pickNote(model, this.op.note, (n) => this.op.version !== 'stale' || n.stale.length > 0);
  }

  check(model: Model): boolean {
    return this.pick(model) !== undefined;
  }

  async run(model: Model, real: Real): Promise<void> {
    const id = this.pick(model)!;
    const note = model.notes.get(id)!;
    const version =
      this.op.version === 'current'
        ? note.version
        : this.op.version === 'stale'
          ? note.stale[note.stale.length - 1]!
          : note.version + this.op.ahead;
    const content = real.t.data.content(`Updated ${this.op.word}`);
    this.shown = `UpdateNote(${id}, version ${version} [${this.op.version}; current ${note.version}]${note.trashed ? ', trashed' : ''})`;
    real.steps.push(this.shown);
    const x = await real.api.updateNote(id, { content, version });
    if (note.trashed) return refused('notes.update.trashed-refused', x, 'an update of a trashed note');
    if (this.op.version !== 'current') {
      // Blame the rule of the version sent: a failure after an ahead version says nothing of stale ones.
      const rule =
        this.op.version === 'stale' ? 'notes.update.version-stale-refused' : 'notes.update.version-ahead-refused';
      refused(rule, x, `an update with ${this.op.version} version ${version}`);
      const read = await readNote(real, id, rule);
      violation(rule, read.content === note.content, `a refused update must not change the content`);
      return;
    }
    violation(
      'notes.update.version-changes',
      x.status === 200,
      `an update at the current version ${version} must succeed, got ${x.status} ${x.text.slice(0, 200)}`,
    );
    const body = x.json as Record<string, unknown>;
    const next = numberField(body, 'version', 'update');
    violation('notes.update.version-changes', next !== version, `an update must change the version (still ${next})`);
    violation(
      'notes.update.content-replaced',
      body.content === content,
      'the update response must carry exactly the new content',
    );
    note.stale.push(note.version);
    note.version = next;
    note.content = content;
    note.contentRule = 'notes.update.content-replaced';
  }

  toString(): string {
    return this.shown || `UpdateNote(#${this.op.note}, ${this.op.version})`;
  }
}
