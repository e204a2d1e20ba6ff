import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { createFake, type Fake } from '../../fake/index.js';
import { runKit } from '../../kit/run.js';
import type { ConformanceReport } from '../../reporters/report.js';
import { packageRoot } from '../../spec/paths.js';
import { loadRules, ruleArea } from '../../spec/rules.js';
import { targetArgs } from './target-args.js';

/**
 * What a run costs a staging account (issue 12), measured against the fake listening on a port
 * and reached with --target, so the remote defaults apply (kit/budgets.ts REMOTE_BUDGETS, the
 * tier's create caps); only the pacing is lifted, which changes no count. Two tokens, no profile.
 * The notes created are also counted by the fake itself (a quota far above the run's needs).
 */
const tokens = ['cost-primary-token', 'cost-secondary-token'];
let fake: Fake;

const ADMIN = 'cost-admin-token';
/** The fake's own profile (fixture API offered) without its `budgets`, so the remote defaults apply. */
let fixturesProfile: string;
let scratch: string;

beforeAll(async () => {
  fake = await createFake({ users: tokens, quota: { limit: 1_000_000 }, adminToken: ADMIN });
  scratch = mkdtempSync(join(tmpdir(), 'cost-'));
  const profile = parse(readFileSync(join(packageRoot, 'spec/profiles/fake.yaml'), 'utf8')) as Record<string, unknown>;
  delete profile.budgets;
  fixturesProfile = join(scratch, 'fixtures-profile.yaml');
  writeFileSync(fixturesProfile, stringify({ ...profile, name: 'remote-with-fixtures' }));
});
afterAll(async () => {
  await fake.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function run(...extra: string[]): Promise<{ exitCode: number; report: ConformanceReport; notesInFake: number }> {
  const before = notesCounted();
  const { exitCode, report } = await runKit(targetArgs(fake, tokens, ...extra), {}, () => {});
  return { exitCode, report, notesInFake: notesCounted() - before };
}

/** Note creates the fake accepted for the two users (its quota counter: creates, never decremented). */
function notesCounted(): number {
  return [...fake.store.users.values()].reduce((sum, u) => sum + (u.quota?.used ?? 0), 0);
}

const JUDGED = ['pass', 'fail', 'warn', 'differs'];
const judged = (report: ConformanceReport, id: string) =>
  JUDGED.includes(report.rules.find((r) => r.id === id)?.verdict ?? '');
/** The areas of the catalogue (the first part of each rule id), sorted. */
const allAreas = () => [...new Set(loadRules().map((r) => ruleArea(r.id)))].sort();
const areasJudged = (report: ConformanceReport) =>
  [...new Set(report.rules.filter((r) => JUDGED.includes(r.verdict)).map((r) => r.area))].sort();

describe('the cost of a run against a remote-like target (two tokens, no profile)', () => {
  it('smoke tier: at most 100 requests, a judged rule in every area but those that need a fixture API', async () => {
    const { exitCode, report, notesInFake } = await run('--tier', 'smoke');
    expect(exitCode).toBe(0);
    expect(report.requests + (report.cleanup_requests ?? 0)).toBeLessThanOrEqual(100);
    expect(report.created.notes).toBe(notesInFake);
    expect(report.created.notes).toBeLessThanOrEqual(20);
    const concerns: Record<string, string[]> = {
      'create-only ids': ['notes.create.id-conflict-409', 'notes.create.id-conflict-no-upsert'],
      'exact versions': ['notes.update.version-stale-refused', 'notes.update.version-ahead-refused'],
      backdating: ['notes.set-created-at.applied', 'notes.set-created-at.original-creation-bound'],
      'trash refusal': ['notes.update.trashed-refused', 'notes.set-created-at.trashed-refused'],
      'snapshot paging': ['notes.search.snapshot-pages', 'notes.search.snapshot-frozen'],
      'a size limit': ['notes.create.collection-titles-max-chars', 'notes.create.collection-titles-max-bytes'],
      auth: ['auth.bearer.invalid-refused'],
      isolation: ['auth.scope.notes-isolated'],
    };
    for (const [concern, ids] of Object.entries(concerns))
      expect(
        ids.some((id) => judged(report, id)),
        `smoke judges ${concern}`,
      ).toBe(true);
    // The areas whose every rule needs the fixture API (users, grants, quota, attachments) are skipped
    // for that reason, not for the tier; every other area has a judged rule.
    const needFixtures = ['attachments', 'permissions', 'quota'];
    expect(areasJudged(report)).toEqual(allAreas().filter((a) => !needFixtures.includes(a)));
    for (const area of needFixtures) {
      const reasons = report.rules.filter((r) => r.area === area).map((r) => r.reason);
      expect(
        reasons.some((reason) => /needs the fixture API/.test(reason)),
        area,
      ).toBe(true);
    }
    // Everything else is skipped with the tier named, never passed unseen.
    const notJudged = report.rules.filter((r) => r.verdict === 'skipped' && /not in the smoke tier/.test(r.reason));
    expect(notJudged.length).toBeGreaterThan(150);
    expect(report.summary.fail + report.summary.error).toBe(0);
    expect(report.leftovers).toBe(0);
  }, 300_000);

  it('smoke tier with a fixture API: a judged rule in every area of the catalogue, within 100 requests', async () => {
    const { exitCode, report } = await run('--tier', 'smoke', '--profile', fixturesProfile, '--fixtures-token', ADMIN);
    expect(report.rules.filter((r) => r.verdict === 'fail' || r.verdict === 'error').map((r) => r.id)).toEqual([]);
    expect(exitCode).toBe(0);
    expect(areasJudged(report)).toEqual(allAreas());
    expect(report.requests + (report.cleanup_requests ?? 0)).toBeLessThanOrEqual(100);
    expect(report.created.notes).toBeLessThanOrEqual(20);
    expect(report.leftovers).toBe(0);
  }, 300_000);

  it('full tier: the requests and notes docs/running.md states, every create reported and deleted again', async () => {
    const { exitCode, report, notesInFake } = await run();
    expect(exitCode).toBe(0);
    expect(report.summary.fail + report.summary.error).toBe(0);
    expect(report.created.notes).toBe(notesInFake);
    expect(report.created.notes).toBeLessThanOrEqual(150);
    expect(report.requests + (report.cleanup_requests ?? 0)).toBeLessThanOrEqual(FULL_TIER_REQUESTS);
    expect(report.leftovers).toBe(0);
  }, 300_000);

  it('--request-budget 60: nothing past it but the cleanup, counted apart, and the reason names the flag', async () => {
    const { report } = await run('--request-budget', '60');
    expect(report.requests).toBeLessThanOrEqual(60);
    expect(report.requests).toBeGreaterThan(50);
    expect(report.cleanup_requests ?? 0, 'what the checks made is deleted past the budget').toBeGreaterThan(0);
    expect(report.leftovers).toBe(0);
    const spent = report.rules.filter((r) => /request budget/.test(r.reason));
    expect(spent.length).toBeGreaterThan(100);
    for (const r of spent) expect(r.reason, r.id).toMatch(/request budget of \d+ is spent \(--request-budget[;)]/);
    // No profile was given: no reason may say a profile set anything.
    expect(report.rules.filter((r) => /the profile's |profile budgets/.test(r.reason)).map((r) => r.reason)).toEqual(
      [],
    );
  }, 300_000);

  it('--max-notes skips the checks that need more notes than it leaves, with the reason', async () => {
    const { report } = await run('--max-notes', '5', '--only', 'notes.create', '--only', 'notes.list');
    expect(report.created.notes).toBeLessThanOrEqual(5);
    const capped = report.rules.filter((r) => r.verdict === 'skipped' && /--max-notes|cap on notes/.test(r.reason));
    expect(capped.length).toBeGreaterThan(0);
    expect(report.summary.fail).toBe(0);
  }, 300_000);
});

/**
 * The full tier's request count, cleanup included: measured 592 on seeds 1 and 2, 587 to 592 on
 * seeds 1 to 8 (docs/running.md "Cost"): 489 sent by the checks, 103 to clean up. Issue 32 item 5
 * brought it from 690 and 685 to that: refused creates looked for with one list read per batch
 * (31), no isolation replay of a note and a collection where the scope checks send the same probes
 * (11), positive controls left to the other checks when every check runs (16), nothing made for a
 * check that cannot run (7), and the checks sending the situations the explorer spent its share on,
 * so that 8 requests of it (budgets.explore_requests) keep every target 40 covered. What varies with
 * the seed is bounded: the model-based run sends at most 6 operations of one to three requests.
 */
const FULL_TIER_REQUESTS = 600;
