import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SkippableRanges } from '../../fake/http/json-skippable.js';

/**
 * SkippableRanges.maximal (the stack of maximal ranges built over the scan's log) against the plain
 * definition: among the logged ranges ending by the limit (and holding no refused key, when asked),
 * those no other such range holds, by start.
 */

type Range = { start: number; end: number; refused: boolean };

/** Ranges of a random bracket text, as the scan logs them: each pair, in the order they close. */
const logged = fc.array(fc.tuple(fc.boolean(), fc.boolean(), fc.nat(3)), { maxLength: 60 }).map((steps) => {
  const ranges: Range[] = [];
  const open: number[] = [];
  let at = 0;
  for (const [opens, refused, gap] of steps) {
    at += gap;
    if (opens || open.length === 0) open.push(at);
    else ranges.push({ start: open.pop()!, end: at + 1, refused });
    at++;
  }
  return ranges;
});

function plain(ranges: Range[], limit: number, withoutRefusedKeys: boolean): Array<[number, number]> {
  const kept = ranges.filter((r) => r.end <= limit && !(withoutRefusedKeys && r.refused));
  const holds = (a: Range, b: Range) => a !== b && a.start <= b.start && b.end <= a.end;
  return kept
    .filter((r) => !kept.some((other) => holds(other, r)))
    .sort((a, b) => a.start - b.start)
    .map((r) => [r.start, r.end]);
}

function maximal(ranges: Range[], limit: number, withoutRefusedKeys: boolean): Array<[number, number]> {
  const log = new SkippableRanges(Number.POSITIVE_INFINITY);
  for (const r of ranges) log.add(r.start, r.end, r.refused);
  const { starts, ends } = log.maximal(limit, withoutRefusedKeys);
  return Array.from(starts, (start, k) => [start, ends[k]!]);
}

describe('SkippableRanges', () => {
  it('maximal ranges by a limit, with and without those holding a refused key', () => {
    fc.assert(
      fc.property(logged, fc.nat(250), fc.boolean(), (ranges, limit, withoutRefusedKeys) => {
        expect(maximal(ranges, limit, withoutRefusedKeys)).toEqual(plain(ranges, limit, withoutRefusedKeys));
        const all = Number.POSITIVE_INFINITY;
        expect(maximal(ranges, all, withoutRefusedKeys)).toEqual(plain(ranges, all, withoutRefusedKeys));
      }),
      { numRuns: 3_000 },
    );
  });

  it('grows past its first size, and refuses to answer once past its limit', () => {
    const log = new SkippableRanges(5_000);
    for (let k = 0; k < 5_000; k++) log.add(2 * k, 2 * k + 1, false);
    expect(log.full).toBe(false);
    expect(log.maximal(Number.POSITIVE_INFINITY, true).starts.length).toBe(5_000);
    const small = new SkippableRanges(3);
    for (let k = 0; k < 4; k++) small.add(2 * k, 2 * k + 1, false);
    expect(small.full).toBe(true);
    expect(() => small.maximal(10, false)).toThrow(/scan again/);
  });
});
