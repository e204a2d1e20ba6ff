import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll } from 'vitest';
import { Api } from '../../kit/core/api.js';
import { deletePending } from '../../kit/core/cleanup.js';
import { TargetClient } from '../../kit/core/client.js';
import { budgetSource, type KitContext, workerBudget } from '../../kit/core/context.js';
import { FixturesClient } from '../../kit/core/fixtures-client.js';
import { harWriter } from '../../kit/core/har.js';
import { Ledger } from '../../kit/core/ledger.js';
import type { Oracle } from '../../kit/core/oracle/oracle.js';
import { runOracle } from '../../kit/core/oracle/run-oracle.js';
import { CreateGuard } from '../../kit/core/quota.js';
import { rateLimitStretch, secretsWriter, writeOracleRecord, writeRequestCount } from '../../kit/core/run-folder.js';
import { leaveSignalsToRunCommand, registerWorker, stopSignal } from '../../kit/core/signals.js';
import { timestampPrecisionMs } from '../../kit/core/timing.js';
import { selectedByOnly } from '../../spec/rules.js';
import { type SchemaRegistry, sharedSchemaRegistry } from '../../spec/schemas.js';
import { DataFactory } from './data.js';
import { IsolationReplay } from './isolation-replay.js';
import { runContext } from './run-context.js';

export interface Kit {
  readonly ctx: KitContext;
  readonly client: TargetClient;
  readonly api: Api;
  readonly secondary: Api | undefined;
  readonly fixtures: FixturesClient | undefined;
  readonly ledger: Ledger;
  readonly schemas: SchemaRegistry;
  readonly data: DataFactory;
  /** Creates counted against the run's caps, and accounts whose quota is spent (run-wide). */
  readonly guard: CreateGuard;
  /** Judges every exchange of the run against everything it established (kit/core/oracle/). */
  readonly oracle: Oracle;
  /** Tries what the first user learned as the second user (suites/harness/isolation-replay.ts). */
  readonly replay: IsolationReplay;
}

let current: Kit | undefined;
let files = 0;

function createKit(ctx: KitContext): Kit {
  if (ctx.parentHandlesInterrupt) {
    leaveSignalsToRunCommand();
    registerWorker(ctx.runDir);
  }
  const learned = secretsWriter(ctx.runDir, threadId);
  const secrets = [ctx.tokens.primary, ctx.tokens.secondary, ctx.fixtures?.adminToken].filter((s): s is string => !!s);
  // The budget and the pace are the run's: with several workers each sends its share.
  const workers = ctx.workers ?? 1;
  const budget = workerBudget(ctx);
  const client = new TargetClient({
    baseUrl: ctx.targetUrl,
    timeoutMs: ctx.budgets.request_timeout_ms,
    requestBudget: budget.requests,
    sources: {
      request_budget: budget.what,
      max_rate_limit_wait_ms: budgetSource(ctx, 'max_rate_limit_wait_ms'),
      max_response_bytes: budgetSource(ctx, 'max_response_bytes'),
    },
    ...(ctx.budgets.requests_per_second ? { requestsPerSecond: ctx.budgets.requests_per_second / workers } : {}),
    secrets,
    maxResponseBytes: ctx.budgets.max_response_bytes,
    maxRetryAfterMs: ctx.budgets.max_rate_limit_wait_ms,
    rateLimitStretch: rateLimitStretch(ctx.runDir),
    ...(ctx.deadlineAt === undefined
      ? {}
      : { deadlineAt: ctx.deadlineAt, deadlineWhat: ctx.deadlineWhat ?? "the run's deadline" }),
    ...(ctx.parentHandlesInterrupt ? { signal: stopSignal() } : {}),
    // The run directory is private to the run (mkdtemp) and removed when it ends.
    onSecretLearned: learned,
    secretVariables: secretVariables(ctx),
    ...(ctx.recordHar
      ? {
          recording: {
            prefix: `${process.pid}.${threadId}.`,
            write: harWriter(ctx.runDir, `${process.pid}-${threadId}`),
          },
        }
      : {}),
  });
  // Compiled on use and kept by the process: a worker of the fault matrix serves every row of its shard.
  const schemas = sharedSchemaRegistry();
  const ledger = new Ledger(ctx.runDir);
  const guard = new CreateGuard(
    ctx.createCaps ?? { notes: Number.MAX_SAFE_INTEGER, collections: Number.MAX_SAFE_INTEGER },
    ctx.runDir,
    ctx.capSources,
  );
  const oracle = runOracle(ctx, client);
  const api = new Api(
    client,
    ctx.profile,
    schemas,
    ledger,
    ctx.tokens.primary,
    'primary',
    ctx.strict,
    guard,
    false,
    oracle,
    ctx.asOf,
  );
  return {
    ctx,
    client,
    api,
    schemas,
    ledger,
    guard,
    oracle,
    replay: new IsolationReplay(oracle, ctx),
    secondary: ctx.tokens.secondary ? api.as(ctx.tokens.secondary, 'secondary') : undefined,
    fixtures: ctx.fixtures
      ? new FixturesClient(client, ctx.fixtures.prefix, ctx.fixtures.adminToken, oracle)
      : undefined,
    data: new DataFactory(api, ctx.runId, timestampPrecisionMs(ctx)),
  };
}

/**
 * Before a file's cleanup, while they exist: what the first user's checks learned is tried as the
 * second user (suites/harness/isolation-replay.ts). Not in the smoke tier, not when --only leaves out isolation.
 */
async function replayIsolation(kit: Kit): Promise<void> {
  const { ctx } = kit;
  if (!kit.secondary || ctx.tier === 'smoke' || ctx.targetProblem) return;
  if (
    ctx.only.length > 0 &&
    !['auth.scope.notes-isolated', 'auth.scope.collections-isolated', 'auth.scope.notes-list-isolated'].some((id) =>
      selectedByOnly(id, ctx.only),
    )
  )
    return;
  try {
    await kit.replay.run(kit.api, kit.secondary);
  } catch {
    // A replay that could not finish (a budget, a target gone) judged what it sent; the checks report the rest.
  }
}

/** The variables a reader of a repro sets for the run's credentials (README "Reports"). */
function secretVariables(ctx: KitContext): Record<string, string> {
  const names: Record<string, string> = {};
  if (ctx.fixtures) names[ctx.fixtures.adminToken] = 'NOTES_FIXTURES_TOKEN';
  if (ctx.tokens.secondary) names[ctx.tokens.secondary] = 'NOTES_SECONDARY_TOKEN';
  names[ctx.tokens.primary] = 'NOTES_TOKEN';
  return names;
}

/**
 * The kit for the current test file: the client, the APIs of the test users and the data
 * factory. Call it once at the top of a check file; it cleans up what the file created.
 */
export function useKit(): Kit {
  // Workers may outlive a run (they keep their modules between runs of one vitest instance, and
  // serve many rows of the fault matrix): a kit belongs to one run.
  const ctx = runContext();
  if (current?.ctx.runId !== ctx.runId) {
    void current?.client.close();
    current = createKit(ctx);
  }
  const kit = current;
  const file = files++;
  let sentAtStart = 0;
  beforeAll(() => {
    sentAtStart = kit.client.sent;
  });
  afterAll(async () => {
    await replayIsolation(kit);
    // What this worker made and did not delete; what fails is left for the run's final sweep.
    kit.client.record(undefined);
    // The embedded fake is the run's own and goes, with all it holds, when the run ends
    // (kit/sweep.ts): deleting its data a request at a time first was a quarter of a run's
    // requests. Every other target, a local `notes-conformance fake` included, is cleaned up.
    const cleanupBefore = kit.client.cleanupSent;
    if (!kit.ctx.embedded)
      await kit.client.cleanup(() =>
        deletePending(kit.ledger, { primary: kit.api, secondary: kit.secondary, fixtures: kit.fixtures }),
      );
    // Requests this file sent, for the report's count (files may run in several workers), its cleanup apart.
    writeRequestCount(
      kit.ctx.runDir,
      threadId,
      file,
      kit.client.sent - sentAtStart,
      kit.client.cleanupSent - cleanupBefore,
    );
    // What the oracle judged so far, for the report (the run command joins every worker's).
    writeOracleRecord(kit.ctx.runDir, threadId, kit.oracle.record());
  });
  return kit;
}
