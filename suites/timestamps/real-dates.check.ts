import { expect } from 'vitest';
import { checks, expectRefused } from '../harness/index.js';
import { expectCollectionCreateRefused, expectNoteCreateRefused, noteState } from '../harness/patterns.js';

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
    for (const value of IMPOSSIBLE) {
      await expectNoteCreateRefused(
        t,
        'conventions.timestamps.real-dates',
        { content: t.data.content('Impossible date'), created_at: value },
        `a note create with created_at ${value}`,
      );
    }
    // The other fields go through the same parsing on a sound server: two days each keep the request count down.
    for (const value of IMPOSSIBLE.slice(0, 2)) {
      await expectNoteCreateRefused(
        t,
        'conventions.timestamps.real-dates',
        { content: t.data.content('Impossible date'), updated_at: value },
        `a note create with updated_at ${value}`,
      );
      await expectCollectionCreateRefused(
        t,
        'conventions.timestamps.real-dates',
        { title: `Impossible ${t.data.word()}`, created_at: value },
        `a collection create with created_at ${value}`,
      );
    }
    const note = await t.data.note();
    const before = await noteState(t.api, note.id);
    for (const value of IMPOSSIBLE) {
      const x = await t.api.setCreatedAt(note.id, { created_at: value });
      await t.verify('conventions.timestamps.real-dates', async () => {
        expectRefused(x, `set-created-at with ${value}`);
        expect(await noteState(t.api, note.id), `set-created-at with ${value} must change nothing`).toEqual(before);
      });
    }
  },
);
