import { NOT_IN_SMOKE } from '../harness/check.js';
import { checks, setupOk } from '../harness/index.js';
import { noteState } from '../harness/patterns.js';
import { expectRefusalsChangeNothing } from '../harness/refusals.js';

const { check } = checks();

const BODY_RULES = [
  'notes.update.field-types',
  'notes.update.content-required',
  'notes.update.updated-at-offset-required',
];

check(
  'an update with a stale, ahead, missing or non-positive version, content that is not a string, a version that is not an integer, no content, or an updated_at without offset is refused and changes nothing',
  {
    smoke: true,
    rules: [
      'notes.update.version-stale-refused',
      'notes.update.version-ahead-refused',
      'notes.update.version-required',
      'notes.update.version-min-1',
      ...BODY_RULES,
    ],
  },
  async (t) => {
    // One update behind it, so the version the note was created with is stale.
    const note = await t.data.note(t.data.content('Refusals', 'updates of this note must be refused'));
    const staleVersion = note.version;
    setupOk(
      await t.api.updateNote(note.id, { content: t.data.content('Current'), version: note.version }),
      'update the note once',
    );
    const before = await noteState(t.api, note.id);
    const current = Number(before.version);
    const attempts: Array<[string, Record<string, unknown>, string]> = [
      [
        'notes.update.version-stale-refused',
        { version: staleVersion },
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
    // The full tier also sends bodies wrong in other ways to the same note (the smoke tier judges the versions
    // only), each at the current version so that only the field judged can be the reason for a refusal.
    const smoke = t.ctx.tier === 'smoke';
    const version = current;
    const content = t.data.content('Must not be stored');
    const bodyAttempts: Array<[string, string, Record<string, unknown>]> = [
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
    if (smoke) t.skipRule(BODY_RULES, NOT_IN_SMOKE);
    const refusals = [
      // Each sends content of its own, so a change shows in the one read after them all.
      ...attempts.map(([rule, extra, what], i) => ({
        rules: rule,
        what,
        send: () => t.api.updateNote(note.id, { content: t.data.content(`Must not be stored ${i}`), ...extra }),
      })),
      ...(smoke ? [] : bodyAttempts).map(([rule, what, body]) => ({
        rules: rule,
        what: `an update with ${what}`,
        send: () => t.api.updateNote(note.id, body),
      })),
    ];
    await expectRefusalsChangeNothing(t, refusals, () => noteState(t.api, note.id), before);
  },
);
