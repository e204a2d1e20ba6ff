import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachFoldedTerm } from '../../fake/store/folded-terms.js';
import { TermFilter } from '../../fake/store/term-filter.js';
import { TermTable } from '../../fake/store/term-table.js';
import { hashUnits, termCounts, tokenize } from '../../fake/store/terms.js';

/** The terms as the folding scanner reads them; a term whose hash is not its hashUnits is marked. */
function folded(text: string): string[] {
  const out: string[] = [];
  forEachFoldedTerm(text, {
    term(units, length, hash) {
      const term = String.fromCharCode.apply(null, units.subarray(0, length) as unknown as number[]);
      out.push(hash === hashUnits(term) ? term : `${term} (hash ${hash})`);
    },
  });
  return out;
}

describe('terms folded a character at a time', () => {
  // Each character in the contexts that change how it or a sigma next to it lowers: alone, inside
  // a word, and between a capital sigma and cased letters on either side. Spaces keep one
  // character's contexts from reaching the next one's.
  const contexts = [
    (c: string) => c,
    (c: string) => `a${c}b`,
    (c: string) => `Α${c}Σ`,
    (c: string) => `Σ${c}Α`,
    (c: string) => `${c}Σ`,
    (c: string) => `ΑΣ${c}`,
    (c: string) => `ΑΣ${c}Α`,
    (c: string) => `x${c}${c}y`,
  ];
  const expectSameTerms = (chars: string[]) => {
    for (const context of contexts) {
      const text = chars.map(context).join(' ');
      const [got, want] = [folded(text), tokenize(text)];
      // toEqual on arrays of 500,000 terms takes seconds: compare first, show the difference if any.
      if (got.join('\n') !== want.join('\n')) expect(got).toEqual(want);
    }
  };

  it('are the terms of text.toLowerCase() for every BMP character in every context', () => {
    expectSameTerms(Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c)));
  });

  it('are the terms of text.toLowerCase() for astral characters that are cased, ignorable or lower', () => {
    const chars: string[] = [];
    for (let cp = 0x10000; cp < 0xe0200; cp += cp < 0x20000 || cp >= 0xe0000 ? 1 : 97) {
      const c = String.fromCodePoint(cp);
      if (cp >= 0xe0000 || /\p{Cased}|\p{Case_Ignorable}|[\p{L}\p{N}]/u.test(c) || c.toLowerCase() !== c) chars.push(c);
    }
    expectSameTerms(chars);
  });

  it('are the terms of text.toLowerCase() for random texts of sigmas, ignorables and long runs', () => {
    const unit = fc.constantFrom(
      'Σ',
      'σ',
      'Α',
      'a',
      'Z',
      '7',
      ' ',
      "'",
      '.',
      ':',
      '\u0301',
      '\u0345',
      'ʰ',
      'İ',
      'ẞ',
      '𐐀',
      '𝒳',
      '😀',
      '\ud800',
      '\udc00',
      '\u00ad',
      'x'.repeat(30),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        expect(folded(text)).toEqual(tokenize(text));
      }),
      { numRuns: 2_000, seed: 23 },
    );
  });
});

describe('query term table', () => {
  it('keeps only the terms worth keeping, asks once per refused hash, and still counts every occurrence', () => {
    const text = 'Alpha beta ALPHA gamma beta beta delta İstanbul ΟΔΟΣ';
    const asked: number[] = [];
    const table = new TermTable(text, (hash) => {
      asked.push(hash);
      return hash !== hashUnits('beta') && hash !== hashUnits('gamma');
    });
    expect(table.terms()).toEqual(['alpha', 'delta', 'i', 'stanbul', 'οδος']);
    expect(table.occurrences).toBe(tokenize(text).length);
    expect(asked.filter((h) => h === hashUnits('beta'))).toHaveLength(1);
    const counts = termCounts(text);
    const lower = text.toLowerCase();
    for (const term of ['alpha', 'delta', 'οδος']) {
      const at = lower.indexOf(term);
      expect(table.countOf(lower, at, at + term.length)).toBe(counts.get(term));
    }
    const at = lower.indexOf('beta');
    expect(table.countOf(lower, at, at + 4)).toBe(0);
  });
});

describe('term filter (exact hashes of held terms)', () => {
  it('answers whether a held term has the hash, after random adds and removes that grow it and shift its probe runs', () => {
    const term = fc.integer({ min: 0, max: 5_000 }).map((i) => `t${i}`);
    const op = fc.record({ add: fc.boolean(), term });
    fc.assert(
      fc.property(fc.array(op, { minLength: 2_000, maxLength: 6_000 }), (ops) => {
        const filter = new TermFilter();
        const held = new Map<string, number>();
        for (const { add, term: t } of ops) {
          if (add) {
            held.set(t, (held.get(t) ?? 0) + 1);
            filter.added(t);
          } else if (held.has(t)) {
            const left = held.get(t)! - 1;
            if (left === 0) held.delete(t);
            else held.set(t, left);
            filter.removed(t);
          }
        }
        const hashes = new Set([...held.keys()].map((t) => hashUnits(t)));
        expect(filter.size).toBe(hashes.size);
        const wrong: string[] = [];
        for (let i = 0; i <= 5_000; i++) {
          const h = hashUnits(`t${i}`);
          if (filter.mightHold(h) !== hashes.has(h)) wrong.push(`t${i}`);
        }
        expect(wrong).toEqual([]);
      }),
      { numRuns: 40, seed: 29 },
    );
  });
});
