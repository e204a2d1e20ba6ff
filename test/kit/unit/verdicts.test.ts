import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkVerdict } from '../../../reporters/report.js';
import type { RuleOutcome } from '../../../spec/check-meta.js';
import { pinnedFailure } from '../../../suites/harness/check.js';
import { classify, KitError, NonConformance, pinTo, RuleViolation } from '../../../suites/harness/errors.js';

/** The one vocabulary of verdicts: what each way of ending a check means, in the check and in the report. */
describe('classify', () => {
  it("reads the target's failures and the kit's inability to judge from the error name", () => {
    const named = (name: string, message = 'x') => Object.assign(new Error(message), { name });
    expect(['AssertionError', 'NonConformance', 'RuleViolation'].map((n) => classify(named(n)))).toEqual([
      'fail',
      'fail',
      'fail',
    ]);
    expect(['KitError', 'TimeoutError', 'AbortError', 'TypeError', 'Error'].map((n) => classify(named(n)))).toEqual([
      'error',
      'error',
      'error',
      'error',
      'error',
    ]);
    // A matcher handed a value of the wrong type: the value came from the target.
    expect(classify(new TypeError('.toMatch() expects to receive a string, but got undefined'))).toBe('fail');
    // As the report sees errors (name and message only, after crossing from the worker).
    expect(classify({ name: 'RuleViolation', message: 'm' })).toBe('fail');
    expect(classify('a string thrown')).toBe('error');
  });

  it('gives the report the verdicts the check wrapper decided, and reads nothing from an error name', () => {
    const outcome = (verdicts?: Record<string, RuleOutcome>) => ({
      name: 'c',
      file: 'f',
      rules: ['a.b.c'],
      state: 'failed' as const,
      // The error vitest recorded says "fail"; only the decided verdict counts.
      errors: [{ name: 'AssertionError', message: 'Test timed out in 5000ms.' }],
      ...(verdicts ? { verdicts } : {}),
    });
    const kitError = { 'a.b.c': { verdict: 'error', message: 'why' } } as const;
    expect(checkVerdict(outcome(kitError), false, 'a.b.c')).toEqual({ verdict: 'error', message: 'why' });
    const failed = { 'a.b.c': { verdict: 'fail', message: 'no' } } as const;
    expect(checkVerdict(outcome(failed), false, 'a.b.c').verdict).toBe('fail');
    expect(checkVerdict(outcome(failed), true, 'a.b.c').verdict).toBe('warn');
    // Ended outside the wrapper (vitest's own timeout, a file's failed setup): nothing was judged.
    expect(checkVerdict(outcome(), false, 'a.b.c')).toEqual({
      verdict: 'error',
      message: 'the check stopped before it judged: Test timed out in 5000ms.',
    });
  });
});

describe('pinning a failure to a rule', () => {
  it('RuleViolation names each broken rule and keeps the replay per rule', () => {
    const v = new RuleViolation(
      new Map([
        ['a.b.c', 'one'],
        ['a.b.d', 'two'],
      ]),
    ).withReplay('seed 7');
    expect([...v.broken]).toEqual([
      ['a.b.c', 'one (seed 7)'],
      ['a.b.d', 'two (seed 7)'],
    ]);
    expect(v.message).toBe('a.b.c: one (seed 7); a.b.d: two (seed 7)');
    expect(classify(v)).toBe('fail');
  });

  it("pinTo turns a failed expect into a violation of the given rule, and lets the kit's errors through", async () => {
    const pinned = await pinTo('a.b.c', () => expect(1, 'one is two').toBe(2)).catch((e: unknown) => e);
    expect(pinned).toBeInstanceOf(RuleViolation);
    expect([...(pinned as RuleViolation).broken.keys()]).toEqual(['a.b.c']);
    expect((pinned as RuleViolation).broken.get('a.b.c')).toMatch(/one is two/);
    const kit = new KitError('no answer');
    await expect(
      pinTo('a.b.c', () => {
        throw kit;
      }),
    ).rejects.toBe(kit);
    // A violation already pinned elsewhere keeps its rule.
    const other = new RuleViolation('a.b.d', 'other');
    await expect(
      pinTo('a.b.c', () => {
        throw other;
      }),
    ).rejects.toBe(other);
  });

  it('a failed fast-check run keeps what its predicate meant, with the seed', async () => {
    const failing = async (thrown: () => Error) =>
      fc
        .assert(
          fc.asyncProperty(fc.nat(), async (n) => {
            if (n > 5) throw thrown();
          }),
          { seed: 42 },
        )
        .catch((e: unknown) => pinnedFailure(e, (e as Error).message.split('\n').slice(0, 3).join(' ')));
    const violation = await failing(() => new RuleViolation('a.b.c', 'broken'));
    expect(violation).toBeInstanceOf(RuleViolation);
    expect((violation as RuleViolation).broken.get('a.b.c')).toMatch(/^broken \(Property failed .*seed: 42/);
    const kit = await failing(() => new KitError('timeout'));
    expect(kit).toBeInstanceOf(KitError);
    expect((kit as Error).message).toMatch(/^timeout \(.*seed: 42/);
    const failed = await failing(() => new NonConformance('wrong'));
    expect(failed).toBeInstanceOf(NonConformance);
    expect(classify(failed)).toBe('fail');
    const bug = await failing(() => new TypeError('x is undefined'));
    expect(classify(bug)).toBe('error');
  });
});
