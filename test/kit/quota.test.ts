import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFake } from '../../fake/index.js';
import { runKit } from '../../kit/run.js';
import { renderTerminal } from '../../reporters/render-terminal.js';
import { QUOTA_EXIT_CODE } from '../../reporters/report.js';
import { packageRoot } from '../../spec/paths.js';
import { targetArgs } from './target-args.js';

/**
 * Issue 12: a staging account with a note quota. The documented quota_exceeded refusal means the
 * account's quota is spent, not that the server breaks a rule: no rule may read `fail`, the
 * output names the quota, and the exit status is the quota's own (3).
 */
describe('the kit against an account whose note quota runs out', () => {
  it('reports the rules that needed new notes as errors naming the quota, never fail, and exits 3', async () => {
    const tokens = ['quota-primary-token', 'quota-secondary-token'];
    const fake = await createFake({ users: tokens, quota: { limit: 150 }, adminToken: 'quota-admin-token' });
    try {
      // The fake's own profile: generous property runs need far more than 150 notes. Its budgets are its
      // own, so the run is not capped (a cap would keep it to the remote budgets: kit/budgets.ts capped).
      const { exitCode, report } = await runKit(
        targetArgs(
          fake,
          tokens,
          '--profile',
          join(packageRoot, 'spec/profiles/fake.yaml'),
          '--fixtures-token',
          'quota-admin-token',
          '--request-budget',
          '100000',
        ),
        {},
        () => {},
      );
      const failed = report.rules.filter((r) => r.verdict === 'fail').map((r) => `${r.id}: ${r.reason}`);
      expect(failed).toEqual([]);
      expect(report.quota).toMatchObject({ used: 150, limit: 150 });
      expect(report.quota?.reset_time).toMatch(/^\d{4}-\d\d-\d\dT/);
      const errors = report.rules.filter((r) => r.verdict === 'error');
      expect(errors.length).toBeGreaterThan(0);
      for (const r of errors)
        expect(r.reason, r.id).toMatch(/note quota is spent \(quota_exceeded: used 150 of 150, resets /);
      expect({ exitCode, code: report.exit_code }).toEqual({ exitCode: QUOTA_EXIT_CODE, code: QUOTA_EXIT_CODE });
      expect(report.exit_reason).toMatch(/note quota is spent .*no rule failed/);
      expect(renderTerminal(report, { quiet: true })).toMatch(
        /QUOTA SPENT \(the account's note quota is spent \(quota_exceeded: used 150 of 150/,
      );
      // The quota rules were judged from the run's own refusal, and passed.
      expect(report.rules.find((r) => r.id === 'quota.create.exceeded-body')?.verdict).toBe('pass');
      expect(report.leftovers).toBe(0);
    } finally {
      await fake.close();
    }
  }, 600_000);

  it('judges the quota rules from the natural refusal when there is no fixture API', async () => {
    const tokens = ['natural-primary-token', 'natural-secondary-token'];
    const fake = await createFake({ users: tokens, quota: { limit: 30 } });
    try {
      const { exitCode, report } = await runKit(targetArgs(fake, tokens), {}, () => {});
      expect(report.rules.filter((r) => r.verdict === 'fail').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
      expect(report.quota).toMatchObject({ used: 30, limit: 30 });
      const body = report.rules.find((r) => r.id === 'quota.create.exceeded-body')!;
      expect(body.verdict).toBe('pass');
      expect(body.checks.map((c) => c.name)).toContain(
        'a quota that ran out during the run was refused with the documented quota_exceeded body, and stored nothing',
      );
      expect(exitCode).toBe(QUOTA_EXIT_CODE);
      // No more than the quota was asked of the account: once spent, no note create is sent for it
      // but the one refused create of a fresh id that judges "nothing stored".
      expect(report.created.notes).toBeLessThanOrEqual(30 + 4);
      expect(report.leftovers).toBe(0);
    } finally {
      await fake.close();
    }
  }, 600_000);
});
