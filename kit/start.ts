import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../spec/verdicts.js';
import { budgetSources, capped, REMOTE_MAX_DURATION_MS, resolveBudgets } from './budgets.js';
import type { KitConfig } from './config.js';
import { TargetClient } from './core/client.js';
import type { KitContext } from './core/context.js';
import { FixturesClient } from './core/fixtures-client.js';
import { type HarEntry, harWriter, recordedHarEntries } from './core/har.js';
import { journalCreates, Ledger } from './core/ledger.js';
import { mergeRecords, type RunJudgements } from './core/oracle/merge.js';
import type { OracleRecord } from './core/oracle/oracle.js';
import type { QuotaInfo } from './core/quota.js';
import { countRequests, learnedSecrets, oracleRecords, rateLimitStretch, spentQuota } from './core/run-folder.js';
import { probeTarget, probeToken } from './probe.js';
import { sweep } from './sweep.js';
import { startTarget } from './target.js';
import { createCapsFor, createdInRun, withTierAndCaps } from './tier.js';

export interface RunHandle {
  readonly context: KitContext;
  /**
   * Sweeps what the checks left, stops what the run started, and counts requests and leftovers.
   * After an interrupt the sweep is bounded (SWEEP_BOUND_AFTER_INTERRUPT_MS): what it cannot
   * delete by then is reported as left behind.
   */
  finish(options?: { interrupted?: boolean }): Promise<RunTotals>;
  /** Requests sent so far within the budget: the start-up's and the check files' that ended. */
  sentSoFar(): number;
  /** What the workers' oracles judged, once the checks ended (finish() gives it too). */
  judgements(): RunJudgements;
}

/** How long the sweep after Ctrl-C or SIGTERM may take: whoever stops a run expects it to end. */
export const SWEEP_BOUND_AFTER_INTERRUPT_MS = 15_000;

export interface RunTotals {
  /** Requests the run sent within its budget: start-up and checks. */
  requests: number;
  /** Requests sent to clean up (each file's and the final sweep), past the budget if need be. */
  cleanupRequests: number;
  /** Notes and collections the run created (the report's cost). */
  created: { notes: number; collections: number };
  /** The account quota a create found spent, if any. */
  quota?: QuotaInfo;
  leftovers: number;
  /** What the run left: "note ID", "collection ID" (kit/sweep.ts: what a listing of the accounts shows). */
  leftoverIds: string[];
  /** Resources (notes, collections, fixture users) the run created and deleted again. */
  deleted: number;
  /** Creates the kit could not confirm either way (no answer, an unreadable one): "note ID" or "a note created without an id". */
  unconfirmed: string[];
  /** Every credential the run knew or learned (fixture users' tokens), for the report's final redaction. */
  secrets: string[];
  /** Every exchange of the run, in the order sent, when it was recorded (`--har`). */
  har?: HarEntry[];
  /** What the workers' oracles judged (kit/oracle-verdicts.ts puts it into the report). */
  oracle: RunJudgements;
}

/**
 * Starts a run: starts or reaches the target (kit/target.ts), probes it, settles tokens and
 * budgets, and hands back the context every worker receives; finish() sweeps and counts.
 */
export async function startRun(config: KitConfig, stop?: AbortSignal): Promise<RunHandle> {
  const started = await startTarget(config);
  const runDir = mkdtempSync(join(tmpdir(), 'notes-conformance-'));
  const sources = budgetSources(config, started.embedded);
  const resolved = { ...resolveBudgets(started.profile, started.embedded), ...config.budgetOverrides };
  const budgets = createCapsFor(config) ? capped(resolved, sources) : resolved;
  const maxDurationMs = config.maxDurationMs ?? (started.embedded ? undefined : REMOTE_MAX_DURATION_MS);
  const deadline =
    maxDurationMs === undefined
      ? undefined
      : {
          deadlineAt: Date.now() + maxDurationMs,
          // Where the bound came from, as every setting's words say (kit/budgets.ts budgetSources).
          deadlineWhat:
            config.maxDurationMs === undefined
              ? `the run's default bound of ${describeDuration(maxDurationMs)} for a remote target (--max-duration sets it)`
              : `the run's --max-duration of ${describeDuration(maxDurationMs)}`,
        };
  const setupClient = new TargetClient({
    baseUrl: started.url,
    timeoutMs: budgets.request_timeout_ms,
    requestBudget: Number.MAX_SAFE_INTEGER,
    maxResponseBytes: budgets.max_response_bytes,
    maxRetryAfterMs: budgets.max_rate_limit_wait_ms,
    sources,
    rateLimitStretch: rateLimitStretch(runDir),
    ...deadline,
    secrets: [
      config.token,
      config.secondaryToken,
      started.fixtures?.adminToken,
      ...(started.workerTokens ?? []).flatMap((p) => [p.primary, p.secondary]),
    ].filter((s): s is string => !!s),
    ...(config.outputs.har ? { recording: { prefix: 'run.', write: harWriter(runDir, 'run') } } : {}),
  });
  const ledger = new Ledger(runDir);
  const fixtures = started.fixtures
    ? new FixturesClient(setupClient, started.fixtures.prefix, started.fixtures.adminToken)
    : undefined;
  let tokens = started.tokens;
  let targetProblem: string | undefined;
  // Ctrl-C or SIGTERM during the start-up ends what is in flight (a probe on a target that
  // trickles, a wait for its rate limit); the run then goes on to its report and exit status.
  setupClient.honour(stop);
  try {
    // An answer the API never gives (HTML, a proxy's page, a redirect to a login): nothing could be
    // judged, so the run does not start (exit 2, one line), as `profile init` does.
    const problem = await probeTarget(setupClient, tokens.primary);
    if (problem) throw new UsageError(problem);
    // Without tokens, a fixture API can make the test users (fully isolated from other data).
    if (!tokens.primary && fixtures) tokens = { ...tokens, primary: await fixtureUser(fixtures, ledger) };
    if (!tokens.secondary && fixtures && (started.fixtures?.offers.includes('users') ?? false))
      tokens = { ...tokens, secondary: await fixtureUser(fixtures, ledger) };
    else if (tokens.secondary) await probeToken(setupClient, tokens.secondary, 'secondary');
    // Inside the try: a container started for the run must not outlive this refusal.
    if (!tokens.primary) throw new UsageError('no token for the main test user: give --token');
  } catch (error) {
    // A signal during the start-up: no UsageError (exit 2) but an interrupted run (130/143), as later.
    const interrupted = stop?.aborted === true && tokens.primary !== undefined;
    if (!interrupted) {
      await started.stop();
      await setupClient.close();
      rmSync(runDir, { recursive: true, force: true });
      throw error;
    }
    targetProblem = `not judged: ${(stop.reason as Error | undefined)?.message ?? 'the run was interrupted'} while it started`;
  }
  // The sweep must run after a signal too.
  setupClient.honour(undefined);
  if (!tokens.primary) throw new UsageError('no token for the main test user: give --token');
  const context: KitContext = withTierAndCaps(
    {
      targetUrl: started.url,
      targetLabel: started.label,
      embedded: started.embedded,
      profile: started.profile,
      profileDeclared: started.declared,
      tokens: { primary: tokens.primary, ...(tokens.secondary ? { secondary: tokens.secondary } : {}) },
      ...(started.workerTokens && started.workerTokens.length > 1 ? { workerTokens: started.workerTokens } : {}),
      ...(started.fixtures ? { fixtures: started.fixtures } : {}),
      budgets,
      budgetSources: sources,
      // What the start-up spent of the request budget; the workers share the rest (core/context.ts workerBudget).
      requestsBeforeChecks: setupClient.sent,
      clockToleranceMs: started.profile.clock_tolerance_ms ?? (started.embedded ? 2000 : 60_000),
      strict: started.profile.strict_responses === true,
      seed: config.seed ?? randomInt(0, 2 ** 31 - 1),
      runId: randomBytes(4).toString('hex'),
      runDir,
      only: config.only,
      ...(config.asOf ? { asOf: config.asOf } : {}),
      ...(targetProblem ? { targetProblem } : {}),
      ...(config.outputs.har ? { recordHar: true } : {}),
      ...deadline,
    },
    config,
  );
  const judgements = () =>
    mergeRecords(oracleRecords(runDir) as OracleRecord[], context.profile.capabilities?.rate_limit_headers);
  return {
    context,
    sentSoFar: () => countRequests(runDir).requests + setupClient.sent,
    judgements,
    async finish(options = {}) {
      // The sweep runs after the run's deadline too (what the run made must go); after an
      // interrupt it has a bound of its own, since whoever stopped the run expects it to end.
      if (options.interrupted) {
        setupClient.setDeadline(
          Date.now() + SWEEP_BOUND_AFTER_INTERRUPT_MS,
          `the sweep's bound after an interrupt (${SWEEP_BOUND_AFTER_INTERRUPT_MS / 1000} s)`,
        );
      } else {
        setupClient.setDeadline(undefined);
      }
      try {
        return await sweepAndCount();
      } finally {
        // Whatever the sweep met (a target gone silent, a worker's half-written file), the run folder goes.
        rmSync(runDir, { recursive: true, force: true });
      }
    },
  };

  /** Deletes what the checks left and counts the run, from the run folder's files. */
  async function sweepAndCount(): Promise<RunTotals> {
    const { left, unconfirmed } = await setupClient.cleanup(() => sweep(context, setupClient, fixtures));
    await setupClient.close();
    await started.stop();
    const counted = countRequests(runDir);
    const requests = counted.requests + setupClient.sent;
    const secrets = [...setupClient.secrets, ...learnedSecrets(runDir)];
    const created = createdInRun(runDir);
    const everything = Object.values(journalCreates(runDir)).reduce((a, b) => a + b, 0);
    const quota = spentQuota(runDir);
    const har = config.outputs.har ? recordedHarEntries(runDir) : undefined;
    const oracle = judgements();
    return {
      oracle,
      requests,
      cleanupRequests: counted.cleanup + setupClient.cleanupSent,
      created,
      ...(quota ? { quota } : {}),
      leftovers: left.length,
      leftoverIds: left,
      deleted: Math.max(0, everything - left.length),
      unconfirmed,
      ...(har ? { har } : {}),
      secrets,
    };
  }
}

async function fixtureUser(fixtures: FixturesClient, ledger: Ledger): Promise<string> {
  const user = await fixtures.createUser();
  ledger.created('user', user.user_id, 'primary');
  return user.token;
}

function describeDuration(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}
