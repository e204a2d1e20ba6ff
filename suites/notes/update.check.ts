import type { RuleId } from '../../spec/rule-ids.js';
import { NOT_IN_SMOKE } from '../harness/check.js';
import { checks, setupOk } from '../harness/index.js';
import { noteState } from '../harness/patterns.js';
import { expectRefusalsChangeNothing } from '../harness/refusals.js';

const { check } = checks();

const BODY_RULES: RuleId[] = [
  'notes.update.field-types',
  'notes.update.content-required',
  'notes.update.updated-at-offset-required',
];

check(
  'an update with a stale, ahead, missing, non-positive or non-integer version, without string content, or with an offset-less updated_at is refused',
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
    // The note's current version and updated_at as last seen: from the reads, and from the answer to an
    // attempt a broken target took. Attempts are built from them when sent, so each stays what it says
    // (ahead is ahead, the current version current) after another was taken, also when the helper sends
    // them all again to find which one it was.
    let seen = { version: Number(before.version), updatedAt: before.updated_at };
    const read = async () => {
      const state = await noteState(t.api, note.id);
      seen = { version: Number(state.version), updatedAt: state.updated_at };
      return state;
    };
    const send = async (body: Record<string, unknown>) => {
      const x = await t.api.updateNote(note.id, body);
      const taken = (x.json as { version?: unknown; updated_at?: unknown } | undefined) ?? {};
      if (x.status >= 200 && x.status < 300 && typeof taken.version === 'number') {
        const at = Date.parse(String(taken.updated_at));
        seen = { version: taken.version, updatedAt: Number.isFinite(at) ? at : seen.updatedAt };
      }
      return x;
    };
    const current = () => seen.version;
    const versions: Array<[RuleId, () => Record<string, unknown>, string]> = [
      [
        'notes.update.version-stale-refused',
        () => ({ version: staleVersion }),
        'an update with the version before the last update',
      ],
      [
        'notes.update.version-ahead-refused',
        () => ({ version: current() + 1 }),
        'an update with a version ahead of the current one',
      ],
      [
        'notes.update.version-ahead-refused',
        () => ({ version: current() + 1000 }),
        'an update with a version far ahead',
      ],
      ['notes.update.version-required', () => ({}), 'an update without version'],
      ['notes.update.version-min-1', () => ({ version: 0 }), 'an update with version 0'],
      ['notes.update.version-min-1', () => ({ version: -1 }), 'an update with version -1'],
    ];
    // The full tier also sends bodies wrong in other ways to the same note (the smoke tier judges a stale and
    // an ahead version only), each at the current version so that only the field judged can be the reason.
    const smoke = t.ctx.tier === 'smoke';
    if (smoke) {
      t.skipRule([...BODY_RULES, 'notes.update.version-required', 'notes.update.version-min-1'], NOT_IN_SMOKE);
      versions.splice(2);
    }
    const content = t.data.content('Must not be stored');
    const bodies: Array<[RuleId, string, () => Record<string, unknown>]> = [
      ['notes.update.field-types', 'content as a number', () => ({ content: 42, version: current() })],
      ['notes.update.field-types', 'content as an array', () => ({ content: [content], version: current() })],
      ['notes.update.field-types', 'the version as a numeric string', () => ({ content, version: String(current()) })],
      ['notes.update.field-types', 'a fractional version', () => ({ content, version: current() + 0.5 })],
      // Without content a wrongly accepted update still moves the version, so the one read shows it.
      ['notes.update.content-required', 'only the version', () => ({ version: current() })],
      [
        'notes.update.content-required',
        'the version and updated_at but no content',
        () => ({ version: current(), updated_at: new Date(seen.updatedAt).toISOString() }),
      ],
      [
        'notes.update.updated-at-offset-required',
        'an updated_at without a timezone offset',
        () => ({ content, version: current(), updated_at: '2021-03-04T05:06:07' }),
      ],
    ];
    await expectRefusalsChangeNothing(
      t,
      [
        // Each sends content of its own, so a change shows in the one read after them all.
        ...versions.map(([rule, extra, what], i) => ({
          rules: rule,
          what,
          send: () => send({ content: t.data.content(`Must not be stored ${i}`), ...extra() }),
        })),
        ...(smoke ? [] : bodies).map(([rule, what, body]) => ({
          rules: rule,
          what: `an update with ${what}`,
          send: () => send(body()),
        })),
      ],
      read,
      before,
    );
  },
);
