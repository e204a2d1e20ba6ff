import type { RuleId } from '../../spec/rule-ids.js';
import { NOT_IN_SMOKE } from '../harness/check.js';
import { checks, setupInstant } from '../harness/index.js';
import { futureIso } from '../harness/patterns.js';

const { check } = checks();

const REFUSAL_RULES: RuleId[] = [
  'notes.set-created-at.backdate-only',
  'notes.set-created-at.not-future',
  'notes.set-created-at.offset-required',
  'notes.set-created-at.required',
];

/**
 * One note, created without created_at so that its original creation is unambiguous: a backdate
 * (then read), the refusals (then read), a move forward still before the original creation, and
 * back to exactly it. The oracle judges each answer and read (kit/core/behaviour/predict-notes.ts,
 * inputs.ts): created_at applied, content, title and version kept, the refusals changing nothing.
 */
check(
  'set-created-at backdates without a version, changes only metadata; a time after the original creation, future, offset-less or missing is refused',
  {
    smoke: true,
    oracle: [
      'notes.set-created-at.applied',
      'notes.set-created-at.metadata-only',
      'notes.set-created-at.version-unchanged',
      'notes.set-created-at.original-creation-bound',
      'notes.set-created-at.original-inclusive',
      ...REFUSAL_RULES,
    ],
  },
  async (t) => {
    const note = await t.data.note(t.data.content(`Dated ${t.data.word()}`, 'body stays'));
    const original = setupInstant(note.json.created_at, 'created_at of the new note');
    const at = (ms: number) => new Date(ms).toISOString();
    await t.api.setCreatedAt(note.id, { created_at: at(original - 30 * 86_400_000) });
    await t.api.getNote(note.id);
    if (t.ctx.tier === 'smoke') t.skipRule(REFUSAL_RULES, NOT_IN_SMOKE);
    else {
      // A precision step after the original creation (past by now, but no backdate), the future, no
      // offset, no created_at: each would move created_at if taken, and the read shows it.
      for (const created_at of [at(original + t.precisionMs), futureIso(t), '2020-02-03T04:05:06', undefined])
        await t.api.setCreatedAt(note.id, created_at === undefined ? {} : { created_at });
      await t.api.getNote(note.id);
    }
    // Later than the current created_at, but not than the original creation: still a backdate.
    await t.api.setCreatedAt(note.id, { created_at: at(original - 86_400_000) });
    // "Not later than" the original creation: the original itself is allowed.
    await t.api.setCreatedAt(note.id, { created_at: note.json.created_at });
    // The same value once more in the full tier: a repeat, accepted like the first (a target the
    // explorer visits otherwise).
    if (t.ctx.tier !== 'smoke') await t.api.setCreatedAt(note.id, { created_at: note.json.created_at });
    await t.api.getNote(note.id);
  },
);
