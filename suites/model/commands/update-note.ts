import type fc from 'fast-check';
import { learnVersion, noteUpdated } from '../../../kit/core/behaviour/effects.js';
import { UPDATE_RULES, updateOutcome } from '../../../kit/core/behaviour/outcomes.js';
import type { OpOf } from '../../../kit/core/model-operations.js';
import { pastNotBefore } from '../../harness/patterns.js';
import { contentOf, isTrashed, type Model, noteOf, pickNote } from '../model.js';
import { numberField, type Real, readNote, readNoteExchange, refused, violation } from '../real.js';

/** PATCH /v2/notes/{id} with the current, a stale or an ahead version. */
export class UpdateNote implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: OpOf<'updateNote'>) {}

  private pick(model: Model): string | undefined {
    return pickNote(model, this.op.note, (n) => this.op.version !== 'stale' || n.stale.length > 0);
  }

  check(model: Model): boolean {
    return this.pick(model) !== undefined;
  }

  async run(model: Model, real: Real): Promise<void> {
    const id = this.pick(model)!;
    const note = noteOf(model, id);
    // "must equal the note's current version (from a read or the latest write response)": after an
    // operation whose effect on the version is not shown (a collection's delete), a read tells it.
    if (!note.version && !isTrashed(note)) {
      const { body, x } = await readNoteExchange(real, id, contentOf(note).rule);
      learnVersion(note, body.version, x);
    }
    const current = note.version?.value ?? note.unsettledVersion ?? 1;
    const version =
      this.op.version === 'current'
        ? current
        : this.op.version === 'stale'
          ? note.stale[note.stale.length - 1]!.value
          : current + this.op.ahead;
    const content = real.t.data.content(`Updated ${this.op.word}`);
    const trashed = isTrashed(note);
    const flags = `${this.op.stamp ? ', updated_at' : ''}${trashed ? ', trashed' : ''}`;
    this.shown = `UpdateNote(${id}, version ${version} [${this.op.version}; current ${current}]${flags})`;
    real.steps.push(this.shown);
    const expected = updateOutcome(note, version);
    // A supplied updated_at: past, and not before the note's created_at (the document bounds it neither way).
    const updatedAt = this.op.stamp ? new Date(pastNotBefore(real.t, note.createdAt?.value)).toISOString() : undefined;
    const x = await real.api.updateNote(id, { content, version, ...(updatedAt ? { updated_at: updatedAt } : {}) });
    if (expected === 'trashed') return refused(UPDATE_RULES.trashed, x, 'an update of a trashed note');
    if (expected === 'stale' || expected === 'ahead') {
      // Blame the rule of the version sent: a failure after an ahead version says nothing of stale ones.
      const rule = UPDATE_RULES[expected];
      refused(rule, x, `an update with ${this.op.version} version ${version}`);
      const read = await readNote(real, id, rule);
      violation(rule, read.content === contentOf(note).content, `a refused update must not change the content`);
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
    const updated = typeof body.updated_at === 'string' ? Date.parse(body.updated_at) : Number.NaN;
    noteUpdated(
      note,
      {
        content,
        ...(typeof body.title === 'string' ? { title: body.title } : {}),
        version: next,
        ...(Number.isNaN(updated) ? {} : { updatedAt: updated }),
        suppliedUpdated: updatedAt !== undefined,
      },
      x,
    );
  }

  toString(): string {
    return this.shown || `UpdateNote(#${this.op.note}, ${this.op.version})`;
  }
}
