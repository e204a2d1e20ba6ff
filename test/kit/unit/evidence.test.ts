import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../kit/core/client.js';
import { selectEvidence } from '../../../suites/harness/evidence.js';

const exchange = (n: number, text = `body ${n}`): Exchange => ({
  method: 'GET',
  path: `/v2/notes/${n}`,
  requestHeaders: {},
  status: 200,
  headers: {},
  text,
  json: undefined,
  durationMs: 1,
  repro: `curl ${n}`,
});

describe("a failed check's evidence", () => {
  it('keeps the judged exchange first, even when many came after it', () => {
    const all = Array.from({ length: 30 }, (_, i) => exchange(i));
    const kept = selectEvidence(all, new Set([3]));
    expect(kept[0]).toMatchObject({ path: '/v2/notes/3', judged: true });
    expect(kept).toHaveLength(8);
    // Context: the latest others, in the order sent, unmarked.
    expect(kept.slice(1).map((x) => x.path)).toEqual([23, 24, 25, 26, 27, 28, 29].map((n) => `/v2/notes/${n}`));
    expect(kept.slice(1).every((x) => x.judged === undefined)).toBe(true);
    expect(kept.every((x) => !('repro' in x))).toBe(true);
  });

  it('never drops a judged exchange for the size limits; context stops at them', () => {
    const big = 'x'.repeat(40_000);
    const all = [exchange(0, big), exchange(1, big), exchange(2, big), exchange(3)];
    const kept = selectEvidence(all, new Set([0, 1]), { exchanges: 8, chars: 64_000 });
    expect(kept.map((x) => [x.path, x.judged ?? false])).toEqual([
      ['/v2/notes/0', true],
      ['/v2/notes/1', true],
    ]);
    const roomy = selectEvidence(all, new Set([0]), { exchanges: 8, chars: 100_000 });
    expect(roomy.map((x) => x.path)).toEqual(['/v2/notes/0', '/v2/notes/2', '/v2/notes/3']);
  });

  it('keeps every judged exchange when more were judged than the count allows', () => {
    const all = Array.from({ length: 12 }, (_, i) => exchange(i));
    const judged = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(selectEvidence(all, judged).filter((x) => x.judged)).toHaveLength(10);
  });
});
