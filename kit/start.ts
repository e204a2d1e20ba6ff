import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TargetClient } from '../suites/harness/client.js';
import type { KitContext } from '../suites/harness/context.js';
import { UsageError } from '../suites/harness/errors.js';
import { FixturesClient } from '../suites/harness/fixtures-client.js';
import { Ledger, type LedgerEntry } from '../suites/harness/ledger.js';
import { resolveBudgets } from './budgets.js';
import type { KitConfig } from './config.js';
import { probeTarget, probeToken } from './probe.js';
import { sweep } from './sweep.js';
import { startTarget } from './target.js';
import { createdInRun, spentQuota, withTierAndCaps } from './tier.js';
import type { QuotaInfo } from '../suites/harness/quota.js';

export interface RunHandle {
  readonly context: KitContext;
  /** Sweeps what the checks left, stops what the run started, and counts requests and leftovers. */
  finish(): Promise<RunTotals>;
}

export interface RunTotals {
  requests: number;
  /** Notes and collections the run created (the report's cost). */
  created: { notes: number; collections: number };
  /** The account quota a create found spent, if any. */
  quota?: QuotaInfo;
  leftovers: number;
  leftoverDetail: LedgerEntry[];
}

/**
 * Starts a run: starts or reaches the target (kit/target.ts), probes it, settles tokens and
 * budgets, and hands back the context every worker receives; finish() sweeps and counts.
 */
export async function startRun(config: KitConfig): Promise<RunHandle> {
  const started = await startTarget(config);
  const runDir = mkdtempSync(join(tmpdir(), 'notes-conformance-'));
  const budgets = { ...resolveBudgets(started.profile, started.embedded), ...config.budgetOverrides };
  const setupClient = new TargetClient({
    baseUrl: started.url, timeoutMs: budgets.request_timeout_ms, requestBudget: Number.MAX_SAFE_INTEGER,
    secrets: [config.token, config.secondaryToken, started.fixtures?.adminToken].filter((s): s is string => !!s),
  });
  const ledger = new Ledger(runDir);
  const fixtures = started.fixtures ? new FixturesClient(setupClient, started.fixtures.prefix, started.fixtures.adminToken) : undefined;
  let tokens = started.tokens;
  let targetProblem: string | undefined;
  try {
    targetProblem = await probeTarget(setupClient, tokens.primary);
    // Without tokens, a fixture API can make the test users (fully isolated from other data).
    if (!tokens.primary && fixtures) tokens = { ...tokens, primary: await fixtureUser(fixtures, ledger) };
    if (!tokens.secondary && fixtures && (started.fixtures?.offers.includes('users') ?? false)) tokens = { ...tokens, secondary: await fixtureUser(fixtures, ledger) };
    else if (tokens.secondary && !targetProblem) await probeToken(setupClient, tokens.secondary, 'secondary');
    // Inside the try: a container started for the run must not outlive this refusal.
    if (!tokens.primary) throw new UsageError('no token for the main test user: give --token');
  } catch (error) {
    await started.stop();
    await setupClient.close();
    rmSync(runDir, { recursive: true, force: true });
    throw error;
  }
  if (!tokens.primary) throw new UsageError('no token for the main test user: give --token');
  const context: KitContext = withTierAndCaps({
    targetUrl: started.url,
    targetLabel: started.label,
    embedded: started.embedded,
    profile: started.profile,
    profileDeclared: started.declared,
    tokens: { primary: tokens.primary, ...(tokens.secondary ? { secondary: tokens.secondary } : {}) },
    ...(started.fixtures ? { fixtures: started.fixtures } : {}),
    budgets,
    clockToleranceMs: started.profile.clock_tolerance_ms ?? (started.embedded ? 2000 : 60_000),
    strict: started.profile.strict_responses === true,
    seed: config.seed ?? randomInt(0, 2 ** 31 - 1),
    runId: randomBytes(4).toString('hex'),
    runDir,
    only: config.only,
    ...(targetProblem ? { targetProblem } : {}),
  }, config);
  return {
    context,
    async finish() {
      const swept = await sweep(context, setupClient, fixtures);
      await setupClient.close();
      await started.stop();
      const requests = countRequests(runDir) + setupClient.sent;
      const created = createdInRun(runDir);
      const quota = spentQuota(runDir);
      rmSync(runDir, { recursive: true, force: true });
      return { requests, created, ...(quota ? { quota } : {}), leftovers: swept.length, leftoverDetail: swept };
    },
  };
}

async function fixtureUser(fixtures: FixturesClient, ledger: Ledger): Promise<string> {
  const user = await fixtures.createUser();
  ledger.created('user', user.user_id, 'primary');
  return user.token;
}

function countRequests(runDir: string): number {
  let total = 0;
  for (const name of readdirSync(runDir)) {
    if (name.startsWith('requests-')) total += (JSON.parse(readFileSync(join(runDir, name), 'utf8')) as { requests: number }).requests;
  }
  return total;
}
