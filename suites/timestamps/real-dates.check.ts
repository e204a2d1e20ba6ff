import { checks } from '../harness/index.js';
import { refusedCreates } from '../harness/patterns.js';

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

/**
 * Creates and a set-created-at with those days, each refused (kit/core/behaviour/inputs.ts): the
 * refused creates looked for in one note list and one collection list read, and the backdated note read after them all (a day rolled
 * over into a real one would change its created_at).
 */
check(
  'a supplied timestamp naming a day that does not exist is refused, not rolled over',
  { oracle: ['conventions.timestamps.real-dates'] },
  async (t) => {
    const note = (created_at: string) => ({ content: t.data.content('Impossible date'), created_at });
    // The other fields go through the same parsing on a sound server: two days each keep the request count down.
    await refusedCreates(t.api, 'note', [
      ...IMPOSSIBLE.map(note),
      ...IMPOSSIBLE.slice(0, 2).map((updated_at) => ({ content: t.data.content('Impossible date'), updated_at })),
    ]);
    await refusedCreates(
      t.api,
      'collection',
      IMPOSSIBLE.slice(0, 2).map((created_at) => ({ title: `Impossible ${t.data.word()}`, created_at })),
    );
    const dated = await t.data.note();
    for (const value of IMPOSSIBLE) await t.api.setCreatedAt(dated.id, { created_at: value });
    await t.api.getNote(dated.id);
  },
);
