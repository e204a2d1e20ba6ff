import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFake } from '../../fake/index.js';
import { runKit } from '../../kit/run.js';
import type { ConformanceReport } from '../../reporters/report.js';
import { packageRoot } from '../../spec/paths.js';
import { loadBuiltinProfile, profileField } from '../../spec/profile.js';
import { targetArgs } from './target-args.js';

/**
 * No false positives: the clean fake passes every rule; the fake with other not-shown choices
 * passes every rule when the kit is told those choices; told nothing, the kit fails only
 * profile rules whose assumed (default) expectation the divergent fake does not meet.
 */

const quietly = () => {};
const notPassing = (report: ConformanceReport) =>
  report.rules.filter((r) => r.verdict !== 'pass').map((r) => `${r.id}: ${r.verdict} (${r.reason})`);

describe('the kit against the reference fake', () => {
  it('passes every rule of the clean fake with its own profile, leaving nothing behind', async () => {
    const { exitCode, report } = await runKit(['--quiet'], {}, quietly);
    expect(notPassing(report)).toEqual([]);
    expect(report.rules.length).toBeGreaterThan(200);
    // The explorer ran, in both workers: every reachable target was visited (issue 32), and the
    // report would say why of any left.
    const coverage = report.behaviour_coverage!;
    expect(coverage.targets.filter((t) => t.status !== 'covered').map((t) => `${t.id}: ${t.why}`)).toEqual([]);
    expect(coverage.covered).toBe(coverage.total);
    expect({ exitCode, leftovers: report.leftovers, runErrors: report.run_errors }).toEqual({
      exitCode: 0,
      leftovers: 0,
      runErrors: [],
    });
  }, 600_000);

  it('passes every rule of the divergent fake when given the divergent profile', async () => {
    const profile = join(packageRoot, 'spec/profiles/fake-divergent.yaml');
    const { exitCode, report } = await runKit(
      ['--quiet', '--fake-profile', 'fake-divergent', '--profile', profile],
      {},
      quietly,
    );
    expect(report.profile).toBe('reference-fake-divergent');
    expect(notPassing(report)).toEqual([]);
    expect(exitCode).toBe(0);
  }, 600_000);

  it('passes every rule it judges of the fake serving the hosted profile when given that profile', async () => {
    const { exitCode, report } = await runKit(
      ['--quiet', '--fake-profile', 'hosted', '--profile', 'hosted'],
      {},
      quietly,
    );
    expect(report.profile).toBe('hosted');
    const problems = report.rules.filter((r) => r.verdict === 'fail' || r.verdict === 'error' || r.verdict === 'warn');
    expect(problems.map((r) => `${r.id}: ${r.verdict} (${r.reason})`)).toEqual([]);
    // What the hosted profile names is judged under its names, capture included.
    const judged = new Set(report.rules.filter((r) => r.verdict === 'pass').map((r) => r.id));
    for (const id of [
      'notes.list.parameter-names',
      'notes.search.parameter-names',
      'notes.capture.request-id',
      'notes.capture.bearer-required',
    ])
      expect(judged.has(id), id).toBe(true);
    expect(exitCode).toBe(0);
  }, 600_000);

  it('given no profile, fails no rule of the divergent fake; profile rules whose default differs read "differs"', async () => {
    const tokens = ['divergent-primary-token', 'divergent-secondary-token'];
    const fake = await createFake({ profile: 'fake-divergent', users: tokens, adminToken: 'divergent-admin-token' });
    try {
      const { exitCode, report } = await runKit(targetArgs(fake, tokens, '--request-budget', '100000'), {}, quietly);
      expect(report.profile_declared).toBe(false);
      const documentedProblems = report.rules.filter(
        (r) => r.level === 'documented' && (r.verdict === 'fail' || r.verdict === 'error'),
      );
      expect(documentedProblems.map((r) => `${r.id}: ${r.verdict} (${r.reason})`)).toEqual([]);
      // No rule fails: a profile rule broken against the assumed choices differs (not judged).
      expect(report.summary.fail).toBe(0);
      // Every profile rule that differs is one where the default profile says something else.
      const fallback = loadBuiltinProfile('fake');
      const divergent = loadBuiltinProfile('fake-divergent');
      const failedProfileRules = report.rules.filter((r) => r.level === 'profile' && r.verdict === 'differs');
      for (const rule of failedProfileRules) {
        const field = rule.profile_field!;
        expect(
          profileField(fallback, field),
          `${rule.id} failed though ${field} is the same in both profiles`,
        ).not.toEqual(profileField(divergent, field));
      }
      // The divergence is large enough that some of it must show.
      expect(failedProfileRules.length).toBeGreaterThan(3);
      // Rules the kit cannot judge without a declaration are skipped with a reason, never passed.
      const skipped = report.rules.filter((r) => r.verdict === 'skipped');
      expect(skipped.every((r) => r.reason.length > 0)).toBe(true);
      expect(skipped.map((r) => r.id)).toEqual(
        expect.arrayContaining(['notes.restore.returns-to-active', 'notes.list.collection-filter']),
      );
      expect(exitCode).toBe(0);
    } finally {
      await fake.close();
    }
  }, 600_000);
});
