import type fc from 'fast-check';
import { type Model, pickNote } from '../model.js';
import { type Real, numberField, readNote, refused, violation } from '../real.js';

/** PATCH /v2/notes/{id} with the current, a stale or an ahead version. */
export class UpdateNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly noteIndex: number, readonly kind: 'current' | 'stale' | 'ahead', readonly ahead: number, readonly word: string) {}

  private pick(model: Model): string | undefined {
    return pickNote(model, this.noteIndex, (n) => this.kind !== 'stale' || n.stale.length > 0);
  }

  check(model: Model): boolean {
    return this.pick(model) !== undefined;
  }

  async run(model: Model, real: Real): Promise<void> {
    const id = this.pick(model)!;
    const note = model.notes.get(id)!;
    const version = this.kind === 'current' ? note.version : this.kind === 'stale' ? note.stale[note.stale.length - 1]! : note.version + this.ahead;
    const content = real.t.data.content(`Updated ${this.word}`);
    this.shown = `UpdateNote(${id}, version ${version} [${this.kind}; current ${note.version}]${note.trashed ? ', trashed' : ''})`;
    real.steps.push(this.shown);
    const x = await real.api.updateNote(id, { content, version });
    if (note.trashed) return refused('notes.update.trashed-refused', x, 'an update of a trashed note');
    if (this.kind !== 'current') {
      // Blame the rule of the version sent: a failure after an ahead version says nothing of stale ones.
      const rule = this.kind === 'stale' ? 'notes.update.version-stale-refused' : 'notes.update.version-ahead-refused';
      refused(rule, x, `an update with ${this.kind} version ${version}`);
      const read = await readNote(real, id, rule);
      violation(rule, read.content === note.content, `a refused update must not change the content`);
      return;
    }
    violation('notes.update.version-changes', x.status === 200, `an update at the current version ${version} must succeed, got ${x.status} ${x.text.slice(0, 200)}`);
    const body = x.json as Record<string, unknown>;
    const next = numberField(body, 'version', 'update');
    violation('notes.update.version-changes', next !== version, `an update must change the version (still ${next})`);
    violation('notes.update.content-replaced', body.content === content, 'the update response must carry exactly the new content');
    note.stale.push(note.version);
    note.version = next;
    note.content = content;
    note.contentRule = 'notes.update.content-replaced';
  }

  toString(): string {
    return this.shown || `UpdateNote(#${this.noteIndex}, ${this.kind})`;
  }
}
