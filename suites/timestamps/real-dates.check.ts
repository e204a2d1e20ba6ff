import { checks } from '../harness/index.js';
import { expectCreatesRefused, noteState } from '../harness/patterns.js';
import { expectRefusalsChangeNothing } from '../harness/refusals.js';

const { check } = checks();

/**
 * Days that do not exist, each in the past even when rolled over. (Hour 24 and second 60 are
 * left out: ISO 8601 and RFC 3339 allow them in some forms.)
 */
const IMPOSSIBLE = [
  '2019-13-01T00:00:00Z',
  '2019-02-30T12:00:00Z',
  '2019-02-29T12:00:00Z',
  '2019-04-31T08:30:00+02:00',
];

check(
  'a supplied timestamp naming a day that does not exist is refused, not rolled over',
  {
    rules: ['conventions.timestamps.real-dates'],
  },
  async (t) => {
    const rules = 'conventions.timestamps.real-dates' as const;
    await expectCreatesRefused(t, 'note', [
      ...IMPOSSIBLE.map((value) => ({
        rules,
        body: { content: t.data.content('Impossible date'), created_at: value },
        what: `a note create with created_at ${value}`,
      })),
      // The other fields go through the same parsing on a sound server: two days each keep the request count down.
      ...IMPOSSIBLE.slice(0, 2).map((value) => ({
        rules,
        body: { content: t.data.content('Impossible date'), updated_at: value },
        what: `a note create with updated_at ${value}`,
      })),
    ]);
    await expectCreatesRefused(
      t,
      'collection',
      IMPOSSIBLE.slice(0, 2).map((value) => ({
        rules,
        body: { title: `Impossible ${t.data.word()}`, created_at: value },
        what: `a collection create with created_at ${value}`,
      })),
    );
    // Each day is in the past and unlike the note's created_at (now), so a rolled-over one changes the note.
    const note = await t.data.note();
    await expectRefusalsChangeNothing(
      t,
      IMPOSSIBLE.map((value) => ({
        rules,
        what: `set-created-at with ${value}`,
        send: () => t.api.setCreatedAt(note.id, { created_at: value }),
      })),
      () => noteState(t.api, note.id),
      await noteState(t.api, note.id),
    );
  },
);
