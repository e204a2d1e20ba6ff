import { expect } from 'vitest';
import { checks, show } from '../harness/index.js';

const { check } = checks();

check(
  'a search query with whitespace around its words is accepted',
  { rules: ['notes.search.query-non-whitespace'] },
  async (t) => {
    // The rule asks for at least one non-whitespace character, not for none at the ends.
    const word = t.data.word();
    for (const [query, what] of [
      [`  ${word}  `, 'spaces'],
      [`\t${word}\n`, 'a tab and a line break'],
      [`${word} `, 'a trailing space'],
    ] as const) {
      const x = await t.api.searchNotes({}, { query });
      await t.verify('notes.search.query-non-whitespace', () => {
        // Any 2xx: the exact 200 is conventions.success.status-200's business.
        expect(x.status >= 200 && x.status < 300, `a query with ${what} around a word is accepted: ${show(x)}`).toBe(
          true,
        );
      });
    }
  },
);
