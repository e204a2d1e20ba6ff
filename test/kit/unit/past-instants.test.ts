import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../suites/harness/check.js';
import { pastNotBefore } from '../../../suites/harness/patterns.js';

const withTolerance = (clockToleranceMs: number) => ({ ctx: { clockToleranceMs } }) as unknown as CheckContext;

describe('pastNotBefore: a supplied updated_at no correct server can call "in the future"', () => {
  it('is the floor itself when the floor is the instant the server has just written', () => {
    // A model run that updates a note in the millisecond after creating it (the embedded fake, unpaced):
    // created_at + 1 was then ahead of the server's clock, and the fake refused it.
    const createdAt = Date.now();
    const sent = pastNotBefore(withTolerance(2000), createdAt);
    expect(sent).toBe(createdAt);
  });

  it('is past by twice the tolerance and a second when the floor is older or unknown', () => {
    const before = Date.now();
    expect(pastNotBefore(withTolerance(2000), undefined)).toBeLessThanOrEqual(before - 5000 + 50);
    expect(pastNotBefore(withTolerance(2000), before - 86_400_000)).toBeLessThanOrEqual(Date.now() - 5000);
    expect(pastNotBefore(withTolerance(2000), before - 86_400_000)).toBeGreaterThan(before - 86_400_000);
  });
});
