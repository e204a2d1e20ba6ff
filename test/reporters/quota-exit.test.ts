import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../reporters/render-markdown.js';
import { renderTerminal } from '../../reporters/render-terminal.js';
import { buildReport, type CheckOutcome, QUOTA_EXIT_CODE } from '../../reporters/report.js';
import type { Rule } from '../../spec/rules.js';
import { outcome as ended } from './fixtures.js';

const rule = (id: string): Rule => ({
  id,
  level: 'documented',
  since: '2025-06-03',
  section: '7. Errors',
  quote: ['q'],
  statement: `${id} holds.`,
  needs: [],
  operations: ['createNote'],
});
const RULES = [rule('notes.create.a'), rule('notes.update.b'), rule('auth.bearer.c')];
const quota = { used: 150, limit: 150, reset_time: '2026-12-01T00:00:00.000Z' };
const spent = {
  name: 'QuotaSpent',
  message:
    "not judged: the account's note quota is spent (quota_exceeded: used 150 of 150, resets 2026-12-01T00:00:00.000Z)",
};
const outcome = (rules: string[], state: CheckOutcome['state'], errors: CheckOutcome['errors'] = []): CheckOutcome =>
  ended({ name: rules[0]!, file: 'x.check.ts', rules, state, errors });
const report = (outcomes: CheckOutcome[], withQuota = true) =>
  buildReport({
    version: '1',
    target: 'http://t',
    profileName: 'p',
    profileDeclared: false,
    seed: 1,
    only: [],
    rules: RULES,
    outcomes,
    requests: 10,
    created: { notes: 150, collections: 3 },
    ...(withQuota ? { quota } : {}),
    leftovers: 0,
    runErrors: [],
  });

describe('a run whose account quota ran out', () => {
  it('exits 3 when every blocking rule is an error for the quota alone, and every rendering says so', () => {
    const r = report([
      outcome(['notes.create.a'], 'passed'),
      outcome(['notes.update.b', 'auth.bearer.c'], 'failed', [spent]),
    ]);
    expect(r.exit_code).toBe(QUOTA_EXIT_CODE);
    expect(r.summary).toMatchObject({ pass: 1, error: 2, fail: 0 });
    expect(r.exit_reason).toBe(
      "the account's note quota is spent (quota_exceeded: used 150 of 150, resets 2026-12-01T00:00:00.000Z): 2 rules that needed new notes could not be judged; no rule failed",
    );
    expect(r.created).toEqual({ notes: 150, collections: 3 });
    for (const text of [renderTerminal(r, { quiet: true }), renderMarkdown(r)])
      expect(text).toMatch(/QUOTA SPENT \(the account.s note quota is spent \(quota\\?_exceeded: used 150 of 150/);
  });

  it('exits 1 when a rule failed, or errored for another reason, even with the quota spent', () => {
    const failed = report([
      outcome(['notes.create.a'], 'failed', [{ name: 'AssertionError', message: 'expected 409' }]),
      outcome(['notes.update.b', 'auth.bearer.c'], 'failed', [spent]),
    ]);
    expect(failed.exit_code).toBe(1);
    expect(failed.exit_reason).toMatch(/failed or errored \(and the account's note quota is spent/);
    const otherError = report([
      outcome(['notes.create.a'], 'failed', [{ name: 'KitError', message: 'timeout' }]),
      outcome(['notes.update.b', 'auth.bearer.c'], 'failed', [spent]),
    ]);
    expect(otherError.exit_code).toBe(1);
  });

  it('never reads a QuotaSpent ending as a failure, and needs the quota reported to exit 3', () => {
    const r = report([outcome(['notes.create.a', 'notes.update.b', 'auth.bearer.c'], 'failed', [spent])], false);
    expect(r.summary.fail).toBe(0);
    expect(r.exit_code).toBe(1);
  });
});
