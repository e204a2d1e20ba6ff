import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createFake } from '../../fake/index.js';
import { UUID_IN_TEXT } from '../../spec/patterns.js';
import type { Profile } from '../../spec/profile.js';
import { createSchemaRegistry } from '../../spec/schemas.js';
import { KitError } from '../../spec/verdicts.js';
import { Api } from '../core/api.js';
import { deletePending } from '../core/cleanup.js';
import { type Exchange, TargetClient } from '../core/client.js';
import { Ledger } from '../core/ledger.js';
import { Oracle } from '../core/oracle/oracle.js';
import { EDGE_INPUT_KINDS } from '../core/sequences/edges.js';
import { type Op, opsArbitrary } from '../core/sequences/ops.js';
import type { Runner } from '../core/sequences/runner.js';
import { runOps } from '../core/sequences/sequence.js';
import { runStep } from '../core/sequences/steps.js';
import { searchIndexLagMs, timestampPrecisionMs } from '../core/timing.js';

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

/** One answer of the failing step, as printed: the request, its status and the start of its body. */
export interface Seen {
  readonly request: string;
  readonly status: number;
  readonly body: string;
}

/** The first step whose answer broke a rule, shrunk, and what the reference fake answered to the same steps. */
export interface Difference {
  seed: number;
  path: string;
  steps: string[];
  rule: string;
  message: string;
  target: Seen[];
  reference: Seen[];
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

/** One side of the run: a client, the API it speaks with the target's profile, and the oracle judging every answer. */
interface Side {
  readonly client: TargetClient;
  readonly api: Api;
  readonly ledger: Ledger;
  readonly oracle: Oracle;
}

function side(
  url: string,
  token: string,
  profile: Profile,
  dir: string,
  options: Partial<DiffOptions>,
  declared: boolean,
): Side {
  const client = new TargetClient({
    baseUrl: url,
    timeoutMs: options.timeoutMs ?? 10_000,
    requestBudget: options.requestBudget ?? Number.MAX_SAFE_INTEGER,
    secrets: [token],
    ...(options.requestsPerSecond ? { requestsPerSecond: options.requestsPerSecond } : {}),
  });
  const context = { profile, profileDeclared: declared };
  const oracle = new Oracle({
    precisionMs: timestampPrecisionMs(context),
    lagMs: searchIndexLagMs(context),
    redact: (text) => client.redact(text),
    clockToleranceMs: profile.clock_tolerance_ms ?? 60_000,
    ...(declared && profile.statuses ? { statuses: profile.statuses } : {}),
  });
  const ledger = new Ledger(dir);
  const api = new Api(
    client,
    profile,
    createSchemaRegistry(),
    ledger,
    token,
    'primary',
    false,
    undefined,
    false,
    oracle,
  );
  return { client, api, ledger, oracle };
}

/**
 * The differential check: fast-check sequences of the kit's operations (kit/core/sequences/), sent
 * to the target, whose every answer the run's oracle judges (the one judge: nothing is compared
 * here). The first sequence after which the oracle found a rule broken fails the property, which
 * fast-check shrinks (within the budget) to a short one; the same steps then run on a fresh
 * reference fake with the target's profile, so the report shows what it answered instead.
 */
export async function runDifferential(options: DiffOptions): Promise<DiffResult> {
  const { target } = options;
  const dir = mkdtempSync(join(tmpdir(), 'notes-conformance-diff-'));
  const t = side(target.url, target.token, target.profile, dir, options, target.declared);
  const runId = randomBytes(4).toString('hex');
  const seed = options.seed ?? randomInt(0, 2 ** 31 - 1);
  const declares = declaredBy(target);
  const arbitrary = opsArbitrary({
    restore: declares('endpoints.restore_note'),
    remove: declares('endpoints.remove_note_from_collection'),
    headings: target.declared && target.profile.title?.derivation !== undefined,
    edges: EDGE_INPUT_KINDS,
    maxOps: options.maxOps,
  });
  let sequences = 0;
  let last: { ops: Op[]; steps: string[]; finding: { rule: string; message: string }; answers: Seen[] } | undefined;
  let shrinkRuns = 0;
  let kitError: unknown;
  let stopped: string | undefined;
  // The most one sequence can send (each step, its reads, an edge's read-back, one delete per create).
  const perSequence = options.maxOps * 4 + 1;
  const property = fc.asyncProperty(arbitrary, async (ops) => {
    if (options.signal?.aborted) stopped ??= 'interrupted';
    if (t.client.sent + perSequence > options.requestBudget)
      stopped ??= `the request budget of ${options.requestBudget} cannot cover another sequence`;
    // After the kit itself failed, once shrinking spent its budget, or when stopped: pass without sending anything.
    if (kitError !== undefined || stopped !== undefined || (last && shrinkRuns >= options.shrinkBudget)) return true;
    if (last) shrinkRuns++;
    sequences++;
    const seen: Exchange[] = [];
    const run = runner(t, target, `notes-conformance diff ${runId}-${sequences}`, declares);
    const before = t.oracle.judgements.failures;
    try {
      t.client.record(seen);
      const brokenAt = await runOps(run, ops);
      if (brokenAt === undefined) return true;
      const finding = firstFindingSince(t.oracle, before);
      last = { ops, steps: run.steps.slice(0, brokenAt), finding, answers: stepAnswers(seen, finding.x) };
      return false;
    } catch (error) {
      kitError = error;
      throw error;
    } finally {
      t.client.record(undefined);
      await deletePending(t.ledger, { primary: t.api });
    }
  });
  try {
    // A refused token would make every first step fail: say so once instead.
    const probe = await t.api.listNotes({ limit: 1 });
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
      details.failed && last
        ? {
            seed: details.seed,
            path: details.counterexamplePath ?? '',
            steps: last.steps,
            rule: last.finding.rule,
            message: last.finding.message,
            target: last.answers,
            reference: await onReference(target, last.ops, last.steps.length, dir),
          }
        : undefined;
    return {
      seed,
      sequences,
      requests: t.client.sent,
      leftovers: t.ledger.pending().length,
      ...(stopped ? { stopped } : {}),
      ...(difference ? { difference } : {}),
    };
  } finally {
    await t.client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function declaredBy(target: DiffTarget): (field: string) => boolean {
  return (field) => {
    if (!target.declared) return !/^(names|endpoints|content_markers)(\.|$)/.test(field);
    let value: unknown = target.profile;
    for (const key of field.split('.')) value = (value as Record<string, unknown> | undefined)?.[key];
    return value !== undefined;
  };
}

const DAY = 86_400_000;

/** A sequence's runner: a time window of 2001-2019 that no other data shares for what it supplies, and its own marker. */
function runner(s: Side, target: DiffTarget, marker: string, declares: (field: string) => boolean): Runner {
  const precision = timestampPrecisionMs({ profile: target.profile, profileDeclared: target.declared });
  const start = Date.UTC(2001, 0, 1) + Math.floor(Math.random() * 18 * 365) * DAY;
  let stamps = 0;
  let words = 0;
  return {
    api: s.api,
    world: s.oracle.world,
    owner: 'primary',
    mine: { notes: [], collections: [] },
    steps: [],
    content: (title, body) => `${title}\n${body ? `${body}\n` : ''}${marker}`,
    word: () => `zq${marker.slice(-11).replace(/\W/g, '')}${(words++).toString(36)}`,
    // An hour apart, whole steps of the target's precision: supplied instants are kept as sent, and only grow.
    stamp: () => Math.floor((start + ++stamps * 3_600_000) / precision) * precision,
    clock: { toleranceMs: target.profile.clock_tolerance_ms ?? 60_000, precisionMs: precision },
    since: new Date(Date.now() - (target.profile.clock_tolerance_ms ?? 60_000)).toISOString(),
    declares,
    profile: target.profile,
    edgesSent: new Map(),
    failures: () => s.oracle.judgements.failures,
  };
}

function firstFindingSince(oracle: Oracle, since: number): { rule: string; message: string; x?: Exchange } {
  const first = oracle.judgements.latest.find((f) => (f.seq ?? 0) > since);
  return first
    ? { rule: first.rule, message: first.message, x: first.x }
    : { rule: '?', message: 'a judgement failed' };
}

/** The answers of the step that broke a rule: from the one judged to the end of the sequence's last step. */
function stepAnswers(seen: readonly Exchange[], judged: Exchange | undefined): Seen[] {
  const at = judged
    ? seen.findIndex((x) => x.method === judged.method && x.path === judged.path && x.status === judged.status)
    : -1;
  return (at >= 0 ? seen.slice(at, at + 3) : seen.slice(-3)).map(shown);
}

function shown(x: Exchange): Seen {
  return {
    request: `${x.method} ${x.path.replace(UUID_IN_TEXT, '{id}')}`,
    status: x.status,
    body: x.text.slice(0, 300),
  };
}

/** The same steps on a fresh reference fake with the target's profile: what it answered at the failing step. */
async function onReference(target: DiffTarget, ops: readonly Op[], steps: number, dir: string): Promise<Seen[]> {
  const token = `ref_${randomBytes(12).toString('hex')}`;
  const fake = await createFake({ profile: target.profile, users: [token] });
  mkdirSync(join(dir, 'reference'), { recursive: true });
  const r = side(fake.url!, token, target.profile, join(dir, 'reference'), {}, true);
  const seen: Exchange[] = [];
  try {
    const run = runner(r, target, 'notes-conformance diff reference', declaredBy(target));
    for (const op of ops) {
      if (run.steps.length >= steps) break;
      // The answers of the step the target failed at, the same step here.
      if (run.steps.length === steps - 1) r.client.record(seen);
      await runStep(run, op);
    }
    return seen.slice(0, 3).map(shown);
  } finally {
    r.client.record(undefined);
    await r.client.close();
    await fake.close();
  }
}
