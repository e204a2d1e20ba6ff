import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LONGEST_LIST, withoutLongListTails } from '../../../kit/core/client.js';

const cutText = (text: string) => Buffer.from(withoutLongListTails(Buffer.from(text))).toString('utf8');

/** What the cut must equal: the parsed value with every list kept to its first LONGEST_LIST items. */
function cut(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, LONGEST_LIST).map(cut);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v)]));
  return value;
}

// Strings full of what a scanner could mistake for structure.
const tricky = fc.stringMatching(/^[[\]{},"\\aé😀]{0,8}$/u);
const leaf = fc.oneof(tricky, fc.integer(), fc.boolean(), fc.constant(null));
const item = fc.oneof(leaf, fc.array(leaf, { maxLength: 3 }), fc.dictionary(tricky, leaf, { maxKeys: 2 }));

describe('lists cut in the text before parsing (hostile bodies of a million items)', () => {
  it('parses to the value with every list cut to LONGEST_LIST items, whatever the strings hold', () => {
    fc.assert(
      fc.property(
        fc.array(item, { minLength: LONGEST_LIST - 3, maxLength: LONGEST_LIST + 50 }),
        fc.array(item, { maxLength: 30 }),
        (long, short) => {
          const value = { data: long, nested: { more: [long, short] }, short };
          const text = JSON.stringify(value);
          expect(JSON.parse(cutText(text))).toEqual(cut(value));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps a million empty objects to LONGEST_LIST, and leaves what is not JSON not JSON', () => {
    const text = `{"data":[${Array(1_000_000).fill('{}').join(',')}],"total":1}`;
    expect(JSON.parse(cutText(text))).toEqual({ data: Array(LONGEST_LIST).fill({}), total: 1 });
    expect(() => JSON.parse(cutText('[1,2'))).toThrow();
  });
});
