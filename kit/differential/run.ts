import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createFake } from '../../fake/index.js';
import type { Profile } from '../../spec/profile.js';
import { createSchemaRegistry } from '../../spec/schemas.js';
import { KitError } from '../../spec/verdicts.js';
import { Api } from '../core/api.js';
import { TargetClient } from '../core/client.js';
import { Ledger } from '../core/ledger.js';
import { timestampPrecisionMs } from '../core/timing.js';
import { opsArbitrary } from './ops.js';
import { runSequence, type SequenceContext, type StepDifference } from './sequence.js';

export interface DiffTarget {
  url: string;
  token: string;
  profile: Profile;
  /**
   * Whether the target declared its profile. If not (the kit's assumed profile), operations that
   * need a choice the document does not show (a parameter name, the title derivation) are left
   * out: a guessed name would make a conforming target differ.
   */
  declared: boolean;
  label: string;
  /** An embedded fake: no pacing, and shrinking may spend freely. */
  embedded: boolean;
}

export interface DiffOptions {
  target: DiffTarget;
  runs: number;
  maxOps: number;
  seed?: number;
  /** fast-check's path of a reported difference: replays exactly that sequence. */
  path?: string;
  /** How many more sequences shrinking may run after the first difference (each costs target requests). */
  shrinkBudget: number;
  requestsPerSecond?: number;
  requestBudget: number;
  timeoutMs: number;
  /** Stops before the next sequence (the current one still cleans up after itself). */
  signal?: AbortSignal;
}

export interface Difference extends StepDifference {
  seed: number;
  path: string;
}

export interface DiffResult {
  seed: number;
  sequences: number;
  requests: number;
  /** Resources the run created on the target and could not delete (the goal is zero). */
  leftovers: number;
  /** Why the run stopped before its runs (interrupted, request budget): no difference is then no verdict. */
  stopped?: string;
  difference?: Difference;
}

/**
 * The differential check: fast-check sequences of operations, each replayed on the target and
 * on a fresh reference fake with the target's profile; the first normalised difference fails
 * the property, which fast-check then shrinks (within the budget) to a short sequence.
 */
export async function runDifferential(options: DiffOptions): Promise<DiffResult> {
  const { target } = options;
  const runDir = mkdtempSync(join(tmpdir(), 'notes-conformance-diff-'));
  mkdirSync(join(runDir, 'reference'));
  const schemas = createSchemaRegistry();
  const client = new TargetClient({
    baseUrl: target.url,
    timeoutMs: options.timeoutMs,
    requestBudget: options.requestBudget,
    secrets: [target.token],
    ...(options.requestsPerSecond ? { requestsPerSecond: options.requestsPerSecond } : {}),
  });
  const ledger = new Ledger(runDir);
  // The reference: the fake with the target's profile, spoken to over HTTP like the target.
  const refToken = `ref_${randomBytes(12).toString('hex')}`;
  const fake = await createFake({ profile: target.profile, users: [refToken] });
  const refClient = new TargetClient({
    baseUrl: fake.url!,
    timeoutMs: options.timeoutMs,
    requestBudget: Number.MAX_SAFE_INTEGER,
    secrets: [],
  });
  const ctx: SequenceContext = {
    targetApi: new Api(client, target.profile, schemas, ledger, target.token, 'primary', false),
    targetLedger: ledger,
    referenceApi: new Api(
      refClient,
      target.profile,
      schemas,
      new Ledger(join(runDir, 'reference')),
      refToken,
      'primary',
      false,
    ),
    resetReference: () => fake.fixtures.reset(),
    clockToleranceMs: target.profile.clock_tolerance_ms ?? (target.embedded ? 2000 : 60_000),
    precisionMs: timestampPrecisionMs({ profile: target.profile, profileDeclared: target.declared }),
  };
  const runId = randomBytes(4).toString('hex');
  const seed = options.seed ?? randomInt(0, 2 ** 31 - 1);
  let sequences = 0;
  let last: StepDifference | undefined;
  let shrinkRuns = 0;
  // The kit could not judge (KitError), or the kit has a bug: either ends the run, never shrinks.
  let kitError: unknown;
  let stopped: string | undefined;
  // The most one sequence can send (each step and its read, then one delete per create): never start one the budget cannot finish.
  const perSequence = options.maxOps * 3 + 1;
  const arbitrary = opsArbitrary({
    listByCollection: target.declared && target.profile.names?.notes_list?.collection !== undefined,
    headings: target.declared && target.profile.title?.derivation !== undefined,
    restore: target.profile.endpoints?.restore_note !== undefined,
    remove: target.profile.endpoints?.remove_note_from_collection !== undefined,
    maxOps: options.maxOps,
  });
  const property = fc.asyncProperty(arbitrary, async (ops) => {
    if (options.signal?.aborted) stopped ??= 'interrupted';
    if (client.sent + perSequence > options.requestBudget)
      stopped ??= `the request budget of ${options.requestBudget} cannot cover another sequence`;
    // After the kit itself failed, once shrinking spent its budget, or when stopped: pass without sending anything.
    if (kitError !== undefined || stopped !== undefined || (last && shrinkRuns >= options.shrinkBudget)) return true;
    if (last) shrinkRuns++;
    sequences++;
    try {
      const difference = await runSequence(ctx, ops, `notes-conformance diff ${runId}-${sequences}`);
      if (difference) last = difference;
      return difference === undefined;
    } catch (error) {
      kitError = error;
      throw error;
    }
  });
  try {
    // A refused token would make every first step differ: say so once instead.
    const probe = await ctx.targetApi.listNotes({ limit: 1 });
    if (probe.status !== 200)
      throw new KitError(
        `the target answers GET /v2/notes with ${probe.status} for this token; check --token and --target`,
      );
    const details = await fc.check(property, {
      numRuns: options.runs,
      seed,
      ...(options.path ? { path: options.path } : {}),
    });
    if (kitError !== undefined) throw kitError;
    const difference =
      details.failed && last ? { ...last, seed: details.seed, path: details.counterexamplePath ?? '' } : undefined;
    return {
      seed,
      sequences,
      requests: client.sent,
      leftovers: ledger.pending().length,
      ...(stopped ? { stopped } : {}),
      ...(difference ? { difference } : {}),
    };
  } finally {
    await client.close();
    await refClient.close();
    await fake.close();
    rmSync(runDir, { recursive: true, force: true });
  }
}
