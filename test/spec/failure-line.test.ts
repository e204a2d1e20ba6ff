import { describe, expect, it } from 'vitest';
import { failureLine } from '../../spec/verdicts.js';

/** A failed deep equality names the fields that differ, not "{ …(7) }" (issue 35 item 6). */
function thrown(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

describe('failureLine', () => {
  it('names the fields of two objects that differ, each with what was got and expected', () => {
    const got = { id: 'n1', title: 'A', version: 2, created_at: 'x', updated_at: 'y', tags: [1, 2], nested: { a: 1 } };
    const want = { ...got, version: 3, tags: [1, 3], nested: { a: 2 } };
    const error = thrown(() => expect(got, 'the read answer').toEqual(want));
    expect((error as Error).message).toMatch(/…\(\d+\)/);
    expect(failureLine(error)).toBe(
      'the read answer: differs in version: got 2, expected 3; tags[1]: got 2, expected 3; nested.a: got 1, expected 2',
    );
  });

  it('names a field missing on one side, and counts past five', () => {
    const got = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, i]));
    const want = { ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, i + 1])), extra: true };
    expect(failureLine(thrown(() => expect(got).toEqual(want)))).toBe(
      'differs in k0: got 0, expected 1; k1: got 1, expected 2; k2: got 2, expected 3; k3: got 3, expected 4; k4: got 4, expected 5; and 5 more',
    );
  });

  it('keeps a message that hides nothing as it is, on one line', () => {
    expect(failureLine(thrown(() => expect({ a: 1 }).toEqual({ a: 2 })))).toBe(
      'expected { a: 1 } to deeply equal { a: 2 }',
    );
    expect(failureLine(new Error('first\nsecond'))).toBe('first');
  });
});
