import { expect } from 'vitest';
import type { RuleId } from '../../spec/rule-ids.js';
import { type CheckContext, NOT_IN_SMOKE } from '../harness/check.js';
import { checks, expectSameInstant, setupInstant, show } from '../harness/index.js';
import { futureIso, type NoteState, noteState } from '../harness/patterns.js';
import { expectRefusalsChangeNothing } from '../harness/refusals.js';

const { check } = checks();

// Notes here are created without created_at, so their original creation is unambiguous.

const REFUSAL_RULES: RuleId[] = [
  'notes.set-created-at.backdate-only',
  'notes.set-created-at.not-future',
  'notes.set-created-at.offset-required',
  'notes.set-created-at.required',
];

// One note for all: the full tier sends the refusals to the note the smoke tier backdates (a note and its cleanup fewer).
check(
  'set-created-at backdates without a version, changes only metadata; a time after the original creation, future, offset-less or missing is refused',
  {
    smoke: true,
    rules: [
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
    // Content, title and version as the create answered them (the full note form, as a read shows it).
    const before = { content: note.json.content, title: note.json.title, version: note.version };
    const earlier = new Date(original - 30 * 86_400_000).toISOString();
    const x = await t.api.setCreatedAt(note.id, { created_at: earlier });
    const after = await noteState(t.api, note.id);
    await t.verify('notes.set-created-at.applied', () => {
      expect(x.status, `set-created-at takes only created_at (no version): ${show(x)}`).toBe(200);
      expectSameInstant(
        (x.json as { created_at?: unknown }).created_at,
        earlier,
        'created_at in the response',
        t.precisionMs,
      );
      expectSameInstant(after.created_at, earlier, 'a read shows the new created_at', t.precisionMs);
    });
    await t.verify('notes.set-created-at.metadata-only', () => {
      expect({ content: after.content, title: after.title }, 'content and title are unchanged').toEqual({
        content: before.content,
        title: before.title,
      });
    });
    await t.verify('notes.set-created-at.version-unchanged', () => {
      expect(after.version, 'the content document version is unchanged').toBe(before.version);
    });
    if (t.ctx.tier === 'smoke') t.skipRule(REFUSAL_RULES, NOT_IN_SMOKE);
    else await expectSetCreatedAtRefusals(t, note.id, original, after);
    // Later than the current created_at, but not than the original creation: still a backdate.
    const between = new Date(original - 86_400_000).toISOString();
    const y = await t.api.setCreatedAt(note.id, { created_at: between });
    await t.verify('notes.set-created-at.original-creation-bound', () => {
      expect(y.status, `the limit is the original creation, not the current created_at: ${show(y)}`).toBe(200);
      expectSameInstant(
        (y.json as { created_at?: unknown }).created_at,
        between,
        'created_at after moving it forward within the limit',
        t.precisionMs,
      );
    });
    // "Not later than" the original creation: the original itself is allowed.
    const z = await t.api.setCreatedAt(note.id, { created_at: note.json.created_at });
    await t.verify('notes.set-created-at.original-inclusive', () => {
      expect(
        z.status,
        `created_at equal to the original creation (${String(note.json.created_at)}) is not later than it: ${show(z)}`,
      ).toBe(200);
      expectSameInstant(
        (z.json as { created_at?: unknown }).created_at,
        original,
        'created_at set back to the original creation',
        t.precisionMs,
      );
    });
  },
);

/** Refusals that must change nothing, sent to a note whose original creation and current state are given. */
async function expectSetCreatedAtRefusals(t: CheckContext, id: string, original: number, before: NoteState) {
  // Each value moves on when its attempt is sent again: when a broken target took one and the helper sends
  // them again to find which, the one taken changes the note again, even at a precision of whole seconds.
  let [after, ahead, noOffset] = [0, 0, 0];
  const attempts: Array<[RuleId, () => Record<string, unknown>, string]> = [
    // Precision steps after the original creation (1 ms unless timestamp_precision_ms says more: a store
    // that cuts instants may cut a smaller step away): in the past by now, but not a backdate.
    [
      'notes.set-created-at.backdate-only',
      () => ({ created_at: new Date(original + ++after * t.precisionMs).toISOString() }),
      'created_at just after the original creation',
    ],
    [
      'notes.set-created-at.not-future',
      () => ({ created_at: futureIso(t, 86_400_000 + ++ahead * 60_000) }),
      'created_at in the future',
    ],
    [
      'notes.set-created-at.offset-required',
      () => ({ created_at: `2020-02-03T04:0${++noOffset}:06` }),
      'created_at without a timezone offset',
    ],
    ['notes.set-created-at.required', () => ({}), 'a body without created_at'],
  ];
  // Each attempt that carries created_at would move it if taken (the note is backdated by 30 days now),
  // so one read after them all shows a change; the one without created_at is judged by its answer.
  await expectRefusalsChangeNothing(
    t,
    attempts.map(([rule, body, what]) => ({ rules: rule, what, send: () => t.api.setCreatedAt(id, body()) })),
    () => noteState(t.api, id),
    before,
  );
}
