import { checks, setupOk } from '../harness/index.js';
import { noteState } from '../harness/patterns.js';
import { expectRefusalsChangeNothing } from '../harness/refusals.js';
import { perFile } from '../harness/shared.js';

const { check } = checks();

/**
 * The note the refusal checks share (one create and one delete for all of them): it has one update
 * behind it, so the version it was created with is stale. Only refused updates are sent to it, and
 * each check reads its current state before judging (a broken target may have taken an earlier one).
 */
const refusedNote = perFile(async (t) => {
  const note = await t.data.note(t.data.content('Refusals', 'updates of this note must be refused'));
  setupOk(
    await t.api.updateNote(note.id, { content: t.data.content('Current'), version: note.version }),
    'update the shared note once',
  );
  return { id: note.id, staleVersion: note.version };
});

check(
  'an update with a stale, ahead, missing or non-positive version is refused and changes nothing',
  {
    smoke: true,
    rules: [
      'notes.update.version-stale-refused',
      'notes.update.version-ahead-refused',
      'notes.update.version-required',
      'notes.update.version-min-1',
    ],
  },
  async (t) => {
    const note = await refusedNote(t);
    const before = await noteState(t.api, note.id);
    const current = Number(before.version);
    const attempts: Array<[string, Record<string, unknown>, string]> = [
      [
        'notes.update.version-stale-refused',
        { version: note.staleVersion },
        'an update with the version before the last update',
      ],
      [
        'notes.update.version-ahead-refused',
        { version: current + 1 },
        'an update with a version ahead of the current one',
      ],
      ['notes.update.version-ahead-refused', { version: current + 1000 }, 'an update with a version far ahead'],
      ['notes.update.version-required', {}, 'an update without version'],
      ['notes.update.version-min-1', { version: 0 }, 'an update with version 0'],
      ['notes.update.version-min-1', { version: -1 }, 'an update with version -1'],
    ];
    // Each attempt sends content of its own, so a change shows in the one read after them all.
    await expectRefusalsChangeNothing(
      t,
      attempts.map(([rule, extra, what], i) => ({
        rules: rule,
        what,
        send: () => t.api.updateNote(note.id, { content: t.data.content(`Must not be stored ${i}`), ...extra }),
      })),
      () => noteState(t.api, note.id),
      before,
    );
  },
);

check(
  'an update with content that is not a string, a version that is not an integer, no content, or an updated_at without offset is refused and changes nothing',
  {
    rules: ['notes.update.field-types', 'notes.update.content-required', 'notes.update.updated-at-offset-required'],
  },
  async (t) => {
    const note = await refusedNote(t);
    const before = await noteState(t.api, note.id);
    // The current version, so that only the field judged can be the reason for a refusal.
    const version = Number(before.version);
    const content = t.data.content('Must not be stored');
    const attempts: Array<[string, string, Record<string, unknown>]> = [
      ['notes.update.field-types', 'content as a number', { content: 42, version }],
      ['notes.update.field-types', 'content as an array', { content: [content], version }],
      ['notes.update.field-types', 'the version as a numeric string', { content, version: String(version) }],
      ['notes.update.field-types', 'a fractional version', { content, version: version + 0.5 }],
      // Without content a wrongly accepted update still moves the version, so the one read shows it.
      ['notes.update.content-required', 'only the version', { version }],
      [
        'notes.update.content-required',
        'the version and updated_at but no content',
        { version, updated_at: new Date(before.updated_at).toISOString() },
      ],
      [
        'notes.update.updated-at-offset-required',
        'an updated_at without a timezone offset',
        { content, version, updated_at: '2021-03-04T05:06:07' },
      ],
    ];
    await expectRefusalsChangeNothing(
      t,
      attempts.map(([rule, what, body]) => ({
        rules: rule,
        what: `an update with ${what}`,
        send: () => t.api.updateNote(note.id, body),
      })),
      () => noteState(t.api, note.id),
      before,
    );
  },
);
