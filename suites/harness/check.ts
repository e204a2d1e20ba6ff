import fc from 'fast-check';
import { test } from 'vitest';
import type { Api } from '../../kit/core/api.js';
import { checkKey } from '../../kit/core/check-key.js';
import type { Exchange, TargetClient } from '../../kit/core/client.js';
import type { Budgets, KitContext } from '../../kit/core/context.js';
import type { FixturesClient, FixtureUser } from '../../kit/core/fixtures-client.js';
import { type Need, ruleNeeds, unmetNeedIn } from '../../kit/core/needs.js';
import { ReadLog } from '../../kit/core/read-tracking.js';
import { reproduce } from '../../kit/core/repro-script.js';
import type { Profile } from '../../spec/profile.js';
import { notInForce } from '../../spec/revisions.js';
import type { RuleId } from '../../spec/rule-ids.js';
import { loadRules, selectedByOnly } from '../../spec/rules.js';
import type { DataFactory } from './data.js';
import {
  asVerdict,
  checkSkipOf,
  classify,
  failureLine,
  isCreateCapReached,
  isKitError,
  isQuotaSpent,
  KitError,
  NonConformance,
  RuleFailures,
  RuleViolation,
} from './errors.js';
import { selectEvidence } from './evidence.js';
import type { Kit } from './kit.js';

export type { Need } from '../../kit/core/needs.js';

import { eventually, type Polled, poll, searchIndexLagMs, timestampPrecisionMs } from '../../kit/core/timing.js';

import type { RuleOutcome } from '../../spec/check-meta.js';

export interface CheckSpec {
  /** The rules the check judges itself (its assertions), and those the oracle judges on its answers. */
  rules?: readonly RuleId[];
  /**
   * Rules whose situation the check sets up and the run's oracle judges on the check's answers
   * (the one prediction, kit/core/behaviour/): each passes only where the oracle judged it on an
   * answer of this check and found it unbroken (kit/oracle-verdicts.ts).
   */
  oracle?: readonly RuleId[];
  needs?: readonly Need[];
  timeout?: number;
  /** Catalogue `needs` fields this check does without (it judges the rules another way), e.g. capabilities.fixtures. */
  doesWithout?: readonly string[];
  /** Runs in the smoke tier too (few requests, at least one rule per area); other checks run only in the full tier. */
  smoke?: boolean;
  /**
   * Judges whatever its traffic shows rather than one situation set up for its rules (the oracle,
   * the model-based runs): the leave-one-out measure keeps it when it switches dedicated checks off.
   */
  generalist?: boolean;
}

export { NOT_IN_SMOKE } from '../../spec/verdicts.js';

import { NOT_IN_SMOKE } from '../../spec/verdicts.js';

export interface CheckContext {
  readonly kit: Kit;
  readonly ctx: KitContext;
  readonly api: Api;
  readonly data: DataFactory;
  readonly profile: Profile;
  readonly budgets: Budgets;
  /** The step to which the target keeps instants it is sent (timestamp_precision_ms; see timing.ts). */
  readonly precisionMs: number;
  /**
   * A search or related-notes reading polled until `ready` holds, bounded by search_index_lag_ms; a
   * KitError (error, naming the lag) if it never does. See timing.ts.
   */
  eventually<T>(what: string, read: () => Promise<T>, ready: (value: T) => boolean): Promise<T>;
  /** The same polling, answering the last reading whether or not it became ready (see timing.ts poll). */
  poll<T>(read: () => Promise<T>, ready: (value: T) => boolean): Promise<Polled<T>>;
  /**
   * Waits until search_index_lag_ms has passed since `since` (a write's end; default now): a search
   * sent after it is one the oracle holds to every write before that.
   */
  indexed(since?: number): Promise<void>;
  /** The second user's API (the check skips when there is none). */
  secondary(): Api;
  fixtures(): FixturesClient;
  /** A fresh user from the fixture API, deleted with its data when the file ends. */
  fixtureUser(options?: Parameters<FixturesClient['createUser']>[0]): Promise<{ user: FixtureUser; api: Api }>;
  /** Ends the check as skipped, with the reason in the report. */
  skip(reason: string): never;
  /** Whether the profile declares this field (dotted path) so that checks may rely on it (see unmetNeed). */
  declares(field: string): boolean;
  /**
   * Reports some of the check's rules as skipped (reason in the report) while it goes on to judge
   * the others: a rule the check cannot verify must never read as a pass.
   */
  skipRule(rules: RuleId | readonly RuleId[], reason: string): void;
  /**
   * Asserts something about one rule (or a few) without stopping the check: a failed expect
   * here fails only these rules, and the check goes on to its other rules.
   */
  verify(rules: RuleId | readonly RuleId[], fn: () => void | Promise<void>): Promise<void>;
  /** Problems of the exchange's JSON body against a component schema of openapi.yaml (strict if the profile says so). */
  schemaProblems(x: Exchange, component: string): string[];
  /**
   * Runs a fast-check property with the run's seed; a failure names the seed and path. The
   * examples (exact boundaries, say) always run first, however few random runs the budget allows.
   * A predicate that throws a RuleViolation fails only the rules it names (with the replay);
   * a KitError means the property judged nothing (error); any other failure fails the check.
   */
  property<T>(
    arbitrary: fc.Arbitrary<T>,
    predicate: (value: T) => Promise<void>,
    runs?: number,
    examples?: readonly T[],
  ): Promise<void>;
}

const knownRules = new Map(loadRules().map((r) => [r.id, r]));

export function unmetNeed(kit: Kit, need: Need): string | undefined {
  return unmetNeedIn(kit.ctx, need, kit.guard.notesLeft, kit.guard.collectionsLeft);
}

/** Whether a check with these rules runs under --only (ids or dotted prefixes). */
export function selected(rules: readonly string[], only: readonly string[]): boolean {
  return rules.some((id) => selectedByOnly(id, only));
}

/**
 * Declares a check: a vitest test that names the rules it verifies. Unknown rule ids fail when
 * the file is collected. Needs the target does not meet skip the check with the reason.
 */
export function check(kit: Kit, description: string, spec: CheckSpec, fn: (t: CheckContext) => Promise<void>): void {
  const own = spec.rules ?? [];
  const byOracle = spec.oracle ?? [];
  const rules = [...own, ...byOracle];
  const unknown = rules.filter((id) => !knownRules.has(id));
  if (unknown.length > 0) throw new Error(`check "${description}" names unknown rule id(s): ${unknown.join(', ')}`);
  if (rules.length === 0) throw new Error(`check "${description}" names no rule`);
  const name = `${description} [${rules.join(' ')}]`;
  const runs = (n: number | undefined) => n ?? kit.ctx.budgets.property_runs;
  const needs = [...ruleNeeds(rules, spec.doesWithout), ...(spec.needs ?? [])];
  // The needs go in meta too: a capped run's plan leaves out checks it knows will skip (kit/plan.ts).
  const meta = {
    rules,
    ...(byOracle.length ? { oracle: [...byOracle], ...(spec.generalist ? { generalist: true } : {}) } : {}),
    ...(spec.smoke ? { smoke: true } : {}),
    ...(needs.length ? { needs } : {}),
  };
  test(name, { meta, ...(spec.timeout ? { timeout: spec.timeout } : {}) }, async (vitestCtx) => {
    if (!selected(rules, kit.ctx.only)) vitestCtx.skip();
    if (kit.ctx.tier === 'smoke' && !spec.smoke) vitestCtx.skip(NOT_IN_SMOKE);
    // --as-of: a check that judges only rules newer than the date sends nothing (the report skips them).
    const newer = rules.map((id) => notInForce(knownRules.get(id)!, kit.ctx.asOf));
    if (newer.every(Boolean)) vitestCtx.skip(newer[0]);
    if (!spec.generalist && rules.some((id) => kit.ctx.switchedOff?.includes(id)))
      vitestCtx.skip('switched off (leave-one-out)');
    // Left out by the run's plan, decided before the first check ran (kit/plan.ts): the same every time.
    const planned = kit.ctx.capPlan?.[checkKey(vitestCtx.task.file.filepath, name)];
    if (planned) vitestCtx.skip(planned);
    for (const need of needs) {
      const reason = unmetNeed(kit, need);
      if (reason) vitestCtx.skip(reason);
    }
    // A profile rule whose field the profile leaves undeclared: the oracle has nothing to hold
    // the answers to, so judging none of them is a skip with that reason, not an error.
    const unjudged = Object.fromEntries(
      byOracle.flatMap((id) => {
        const field = knownRules.get(id)!.profile;
        const reason = field === undefined ? undefined : unmetNeed(kit, `profile:${field}`);
        return reason ? [[id, reason]] : [];
      }),
    );
    if (Object.keys(unjudged).length > 0) vitestCtx.task.meta.unjudged = unjudged;
    // The start-up probe found a target that answers nothing like the API: nothing to judge.
    if (kit.ctx.targetProblem) throw new KitError(`not judged: ${kit.ctx.targetProblem}`);
    const exchanges: Exchange[] = [];
    const ruleFailures: Record<string, string> = {};
    const ruleSkips: Record<string, string> = {};
    // The exchange each failed rule was judged on: the one whose answer was read last before the
    // failure (read-tracking.ts), else the last one sent.
    const judgedAt: Record<string, number> = {};
    const reads = new ReadLog();
    const judge = (ids: readonly string[], at: number | undefined) => {
      const index = at ?? exchanges.length - 1;
      for (const id of ids) if (index >= 0) judgedAt[id] ??= index;
    };
    const declared = (ids: readonly string[], what: string) => {
      const stray = ids.filter((id) => !(rules as readonly string[]).includes(id));
      if (stray.length > 0) throw new Error(`${what} names rule(s) the check does not declare: ${stray.join(', ')}`);
    };
    const sentBefore = kit.client.sent;
    const notesBefore = kit.guard.created.notes;
    kit.client.record(exchanges, reads.read);
    // The oracle's judgements of this check's answers are the check's where it names the rule (kit/oracle-verdicts.ts).
    kit.oracle.judgements.source = { file: vitestCtx.task.file.filepath, name };
    const t: CheckContext = {
      kit,
      ctx: kit.ctx,
      api: kit.api,
      data: kit.data,
      profile: kit.ctx.profile,
      budgets: kit.ctx.budgets,
      precisionMs: timestampPrecisionMs(kit.ctx),
      eventually: (what, read, ready) => eventually(kit.ctx, what, read, ready),
      poll: (read, ready) => poll(kit.ctx, read, ready),
      indexed: (since = Date.now()) =>
        new Promise((resolve) => setTimeout(resolve, Math.max(0, since + searchIndexLagMs(kit.ctx) - Date.now()))),
      secondary: () => kit.secondary ?? vitestCtx.skip("needs a second user's token"),
      fixtures: () => kit.fixtures ?? vitestCtx.skip('needs the fixture API'),
      async fixtureUser(options) {
        const fixtures = t.fixtures();
        const user = await fixtures.createUser(options);
        kit.ledger.created('user', user.user_id, 'primary');
        // A user made with a quota has it for the check to test: its quota refusals are answers, not the run's quota.
        return {
          user,
          api: kit.api.as(user.token, `user:${user.user_id}`, { quotaUnderTest: options?.quota !== undefined }),
        };
      },
      skip: (reason) => vitestCtx.skip(reason),
      declares: (field) => unmetNeed(kit, `profile:${field}`) === undefined,
      skipRule(rules, reason) {
        const ids = typeof rules === 'string' ? [rules] : rules;
        declared(ids, 'skipRule');
        for (const id of ids) ruleSkips[id] ??= reason;
      },
      schemaProblems: (x, component) =>
        x.json === undefined
          ? ['the body is not JSON']
          : kit.schemas.validate(component, x.json, { strict: kit.ctx.strict }),
      async verify(rules, fn) {
        const ids = typeof rules === 'string' ? [rules] : rules;
        declared(ids, 'verify');
        const mark = reads.mark();
        try {
          await fn();
        } catch (error) {
          if (classify(error) !== 'fail') throw error;
          const message = failureLine(error);
          judge(ids, reads.lastReadSince(mark));
          for (const id of ids) ruleFailures[id] ??= message;
        }
      },
      async property(arbitrary, predicate, n, examples = []) {
        vitestCtx.task.meta.seed = kit.ctx.seed;
        try {
          await fc.assert(fc.asyncProperty(arbitrary, predicate), {
            // fast-check counts examples within numRuns: add them, so the random runs stay as budgeted.
            // Budgets may allow no random run at all (remote targets): the examples still run, and a
            // property without examples runs once, so it always judges something.
            numRuns: Math.max(runs(n), examples.length > 0 ? 0 : 1) + examples.length,
            seed: kit.ctx.seed,
            endOnFailure: true,
            examples: examples.map((e) => [e] as [typeof e]),
          });
        } catch (error) {
          // fast-check's first lines name the seed, the path and the counterexample.
          throw pinnedFailure(error, (error as Error).message.split('\n').slice(0, 3).join(' '));
        }
      },
    };
    const pin = (violation: RuleViolation) => {
      declared([...violation.broken.keys()], 'RuleViolation');
      for (const [id, why] of violation.broken) {
        // A property or model run reads on after the failing step (fast-check replays and shrinks):
        // the exchange the reason quotes is the one judged, else the answer read last.
        judge([id], quotedExchange(exchanges, why) ?? reads.lastReadSince());
        ruleFailures[id] ??= why.split('\n')[0]!;
      }
    };
    const meta = vitestCtx.task.meta;
    // Each rule's verdict is decided here, where the check's ending is known as it happened, and
    // carried as data (meta.verdicts): the report never reads an error's name back.
    const decide = (ending: Ending, stoppedAt?: number) => {
      const failed = Object.keys(ruleFailures).length > 0;
      const stopped = ending.verdict === 'fail' || ending.verdict === 'error';
      const kept = failed || stopped ? recordEvidence(meta, exchanges, judgedAt, stoppedAt, kit.client) : {};
      const verdictOf = (id: string): RuleOutcome =>
        id in ruleFailures
          ? { verdict: 'fail', message: ruleFailures[id]!, ...kept[id] }
          : id in ruleSkips
            ? { verdict: 'skipped', message: ruleSkips[id]! }
            : { ...ending, ...(stopped ? kept[STOPPED] : {}) };
      meta.verdicts = Object.fromEntries(
        rules
          // The oracle decides these where the check ended well (kit/oracle-verdicts.ts); else they end with it.
          .filter(
            (id) =>
              !(byOracle.includes(id) && !(id in ruleFailures) && !(id in ruleSkips) && ending.verdict === 'pass'),
          )
          .map((id) => [id, verdictOf(id)]),
      );
    };
    try {
      try {
        await fn(t);
      } catch (error) {
        // A violation pinned to rules fails those rules only; the check's other rules passed.
        if (!(error instanceof RuleViolation)) throw error;
        pin(error);
      }
      if (rules.every((id) => id in ruleSkips)) vitestCtx.skip(ruleSkips[rules[0]!]!);
      decide({ verdict: 'pass', message: '' });
      const broken = Object.keys(ruleFailures);
      // vitest shows the check as failed too; the report reads the verdicts above.
      if (broken.length > 0) throw new RuleFailures(broken.map((id) => `${id}: ${ruleFailures[id]}`).join('; '));
    } catch (thrown) {
      if (thrown instanceof RuleFailures) throw thrown;
      // The run's cap on creates is reached: the check is left out, with the reason (never a partial pass).
      // So is a check that needs an operation newer than --as-of, or a name or endpoint the profile
      // does not declare: the API layer refuses to send it, and nothing was judged.
      const skip = checkSkipOf(thrown);
      const error =
        isCreateCapReached(thrown) || skip ? skipOf(vitestCtx, (skip ?? (thrown as Error)).message) : thrown;
      if (isSkip(error)) {
        decide({ verdict: 'skipped', message: error.note ?? 'skipped' });
        throw error;
      }
      const verdict = asVerdict(error);
      // A check stopped by a failed assertion judged the answer it read last; one stopped by the
      // kit's error (a timeout, say) ended on the last request sent.
      const fails = classify(verdict) === 'fail';
      const stoppedAt = (fails ? reads.lastReadSince() : undefined) ?? exchanges.length - 1;
      decide(endingOf(verdict, fails), stoppedAt);
      throw verdict;
    } finally {
      kit.client.record(undefined);
      kit.oracle.judgements.source = undefined;
      meta.requests = kit.client.sent - sentBefore;
      meta.notes = kit.guard.created.notes - notesBefore;
    }
  });
}

/** The last exchange whose method, path and status the reason quotes ("PATCH /v2/notes/x answered 200"). */
function quotedExchange(exchanges: readonly Exchange[], reason: string): number | undefined {
  const quoted = /\b(GET|POST|PATCH|PUT|DELETE|HEAD) (\/\S*) answered (\d{3})\b/.exec(reason);
  if (!quoted) return undefined;
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const x = exchanges[i]!;
    if (x.method === quoted[1] && x.path === quoted[2] && String(x.status) === quoted[3]) return i;
  }
  return undefined;
}

/** How a check ended for the rules it did not fail or skip one by one. */
type Ending = Omit<RuleOutcome, 'judged' | 'repro' | 'plan'>;

function endingOf(error: unknown, fails: boolean): Ending {
  // Whole: the report puts it on one line, escaping what would hide a difference.
  const message = (error as Error | undefined)?.message ?? String(error);
  if (fails) return { verdict: 'fail', message: /…\(\d+\)/.test(message) ? failureLine(error) : message };
  if (isQuotaSpent(error)) return { verdict: 'error', message, quota: true };
  if (isKitError(error)) return { verdict: 'error', message };
  // A TypeError or the like inside a check is the kit's own problem, not the target's.
  return { verdict: 'error', message: `${(error as Error | undefined)?.name ?? 'Error'} in the check: ${message}` };
}

/** vitest's skip, thrown by ctx.skip() (its PendingError carries the reason as `note`). */
function isSkip(error: unknown): error is Error & { note?: string } {
  return (error as { code?: unknown } | undefined)?.code === 'VITEST_PENDING';
}

function skipOf(vitestCtx: { skip(note: string): never }, note: string): unknown {
  try {
    return vitestCtx.skip(note);
  } catch (skip) {
    return skip;
  }
}

const withRepro = ({ script, plan }: ReturnType<typeof reproduce>) => ({
  ...(script ? { repro: script } : {}),
  ...(plan ? { plan } : {}),
});

/** The key under which recordEvidence keeps where the check itself stopped. */
const STOPPED = '';

/**
 * A failed check's evidence (the exchanges its failures judged first, each rule's and the one the
 * check stopped on, then context) and, per rule (STOPPED for the check's own stop), the position
 * of its judged exchange in that evidence and the command replaying it.
 */
function recordEvidence(
  meta: import('vitest').TaskMeta,
  exchanges: readonly Exchange[],
  judgedAt: Readonly<Record<string, number>>,
  stoppedAt: number | undefined,
  client: Pick<TargetClient, 'forEvidence' | 'writesOf'>,
): Record<string, Pick<RuleOutcome, 'judged' | 'repro' | 'plan'>> {
  const at: Record<string, number> = { ...judgedAt };
  if (stoppedAt !== undefined && stoppedAt >= 0) at[STOPPED] = stoppedAt;
  const judged = new Set(Object.values(at));
  meta.evidence = selectEvidence(
    exchanges.map((x) => client.forEvidence(x)),
    judged,
  );
  // Judged exchanges come first, in the order sent: each rule's own is found by its position there.
  const order = [...judged].filter((i) => i < exchanges.length).sort((a, b) => a - b);
  return Object.fromEntries(
    Object.entries(at).map(([id, i]) => [
      id,
      { judged: order.indexOf(i), ...withRepro(reproduce(exchanges, i, (id) => client.writesOf(id))) },
    ]),
  );
}

/**
 * What a failed property or model-based run (fast-check) means, with `replay` (seed, path,
 * steps) added: the predicate's RuleViolation stays one, pinned to its rules; its KitError
 * (timeout, no answer) means the run judged nothing and must not read as the target's failure;
 * a failed expect stays the target's failure of the check's rules; anything else is the kit's.
 */
export function pinnedFailure(error: unknown, replay: string): unknown {
  const cause = (error as Error | undefined)?.cause ?? error;
  if (cause instanceof RuleViolation) return cause.withReplay(replay);
  // A spent quota, the run's create cap, an operation newer than --as-of or an undeclared name keeps
  // its name: the report and the skip read it.
  if (isQuotaSpent(cause) || isCreateCapReached(cause) || checkSkipOf(cause)) return cause;
  if (isKitError(cause)) return new KitError(`${(cause as Error).message} (${replay})`);
  // fast-check's own error is a plain Error: keep the failed expect's verdict (fail), with the replay.
  if (classify(cause) === 'fail') return new NonConformance(`${(cause as Error).message.split('\n')[0]} (${replay})`);
  return cause instanceof Error ? cause : error;
}
