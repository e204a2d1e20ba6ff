import { randomUUID } from 'node:crypto';
import type { CheckOutcome, RuleOutcome } from '../reporters/report.js';
import { UUID } from '../spec/patterns.js';
import type { Replayed, ReplayPlan } from '../spec/replay.js';
import { loadRules, selectedByOnly } from '../spec/rules.js';
import { sharedSchemaRegistry } from '../spec/schemas.js';
import { Api } from './core/api.js';
import { operationOf } from './core/behaviour/inputs.js';
import { type Exchange, TargetClient } from './core/client.js';
import type { KitContext } from './core/context.js';
import { harWriter } from './core/har.js';
import { Ledger } from './core/ledger.js';
import { runOracle } from './core/oracle/run-oracle.js';
import { asVariables, filledIn, unfilled } from './core/repro.js';
import { writeRequestCount } from './core/run-folder.js';
import { createdInRun } from './tier.js';

/**
 * Confirmed failures: at the end of the run, each failed rule's repro is sent once more, as the
 * script in the report would send it (its creates with fresh ids, then the failing request), and
 * a fresh oracle judges the replay. A failure the replay shows again reads "reproduced"; one it
 * does not, "not reproduced on replay" (a timing or index-lag effect, or a state the repro does
 * not make again); one on a list, search or related notes that does not break it again,
 * "inconclusive" (the repro makes the named notes again, not the rest of the account). The
 * failure counts either way: the mark tells a reviewer which is which. The replays take at most a tenth of the run's requests (and what is left of its budget and cap).
 */

/** The replays' share of the run's requests, at most. */
export const REPLAY_SHARE = 0.1;

export interface Confirmation {
  readonly outcomes: CheckOutcome[];
  /** Requests the replays sent (counted in the run's, within its budget). */
  readonly requests: number;
}

interface Candidate {
  readonly rule: string;
  readonly check: number;
  readonly plan: ReplayPlan;
}

const LEVEL_ORDER: Readonly<Record<string, number>> = { required: 0, advisory: 1 };

export async function confirmFailures(
  outcomes: readonly CheckOutcome[],
  ctx: KitContext,
  options: { readonly sentSoFar: number; readonly stop?: AbortSignal },
): Promise<Confirmation> {
  const levels = new Map(loadRules().map((r) => [r.id, r.level] as const));
  // One replay per failed rule: its cheapest repro that can show it again, the required rules' first.
  const byRule = new Map<string, Candidate>();
  outcomes.forEach((o, check) => {
    for (const [rule, v] of Object.entries(o.verdicts ?? {})) {
      // A profile rule with no profile given differs rather than fails: not the target's failure to confirm.
      // A rule --only leaves out is not in the report: no replay for it.
      if (v.verdict !== 'fail' || !v.plan || !selectedByOnly(rule, ctx.only)) continue;
      if (levels.get(rule) === 'profile' && !ctx.profileDeclared) continue;
      const seen = byRule.get(rule);
      if (!seen || replayCost(v.plan) < replayCost(seen.plan)) byRule.set(rule, { rule, check, plan: v.plan });
    }
  });
  if (byRule.size === 0) return { outcomes: [...outcomes], requests: 0 };
  const candidates = [...byRule.values()].sort(
    (a, b) =>
      (LEVEL_ORDER[levels.get(a.rule) ?? ''] ?? 2) - (LEVEL_ORDER[levels.get(b.rule) ?? ''] ?? 2) ||
      replayCost(a.plan) - replayCost(b.plan) ||
      a.rule.localeCompare(b.rule),
  );
  const share = Math.floor(options.sentSoFar * REPLAY_SHARE);
  const budgetLeft = Math.max(0, ctx.budgets.request_budget - options.sentSoFar);
  const allowance = Math.min(share, budgetLeft);
  const why =
    allowance === share
      ? `a tenth of the run's ${options.sentSoFar} requests`
      : `what was left of the request budget of ${ctx.budgets.request_budget}`;
  const replayer = new Replayer(ctx, allowance, options.stop);
  const found = new Map<string, Replayed>();
  try {
    for (const c of candidates) found.set(c.rule, await replayer.replay(c, why));
  } finally {
    await replayer.close();
  }
  writeRequestCount(ctx.runDir, -1, 0, replayer.sent);
  return {
    outcomes: outcomes.map((o, i) => {
      const verdicts: Record<string, RuleOutcome> = { ...o.verdicts };
      let changed = false;
      for (const [rule, v] of Object.entries(verdicts)) {
        const replayed = found.get(rule);
        if (!replayed || v.verdict !== 'fail') continue;
        // The check whose repro was sent carries the replay; the rule's other failures name it.
        verdicts[rule] =
          byRule.get(rule)!.check === i
            ? { ...v, replayed }
            : { ...v, replayed: { ...replayed, detail: `on another check's repro of the rule: ${replayed.detail}` } };
        changed = true;
      }
      return changed ? { ...o, verdicts } : o;
    }),
    requests: replayer.sent,
  };
}

/** Sends plans through a client and oracle of its own; what they create is journaled for the sweep. */
class Replayer {
  private readonly client: TargetClient;
  private readonly api: Api;
  private readonly secondary: Api | undefined;
  private readonly ledger: Ledger;
  private readonly oracle: ReturnType<typeof runOracle>;

  constructor(
    private readonly ctx: KitContext,
    private readonly allowance: number,
    stop: AbortSignal | undefined,
  ) {
    const secrets = [ctx.tokens.primary, ctx.tokens.secondary].filter((s): s is string => !!s);
    this.client = new TargetClient({
      baseUrl: ctx.targetUrl,
      timeoutMs: ctx.budgets.request_timeout_ms,
      requestBudget: allowance,
      ...(ctx.budgets.requests_per_second ? { requestsPerSecond: ctx.budgets.requests_per_second } : {}),
      secrets,
      maxResponseBytes: ctx.budgets.max_response_bytes,
      maxRetryAfterMs: ctx.budgets.max_rate_limit_wait_ms,
      ...(ctx.deadlineAt === undefined
        ? {}
        : { deadlineAt: ctx.deadlineAt, deadlineWhat: ctx.deadlineWhat ?? "the run's deadline" }),
      ...(stop ? { signal: stop } : {}),
      // The run's recording (--har) holds every request the run counts, the replays' too.
      ...(ctx.recordHar ? { recording: { prefix: 'replay.', write: harWriter(ctx.runDir, 'replay') } } : {}),
    });
    this.ledger = new Ledger(ctx.runDir);
    this.oracle = runOracle(ctx, this.client);
    this.api = new Api(
      this.client,
      ctx.profile,
      sharedSchemaRegistry(),
      this.ledger,
      ctx.tokens.primary,
      'primary',
      ctx.strict,
      undefined,
      false,
      this.oracle,
      ctx.asOf,
    );
    this.secondary = ctx.tokens.secondary ? this.api.as(ctx.tokens.secondary, 'secondary') : undefined;
  }

  get sent(): number {
    return this.client.sent;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  async replay({ rule, plan }: Candidate, allowanceWhy: string): Promise<Replayed> {
    const cost = plan.steps.length;
    const left = this.allowance - this.client.sent;
    const notReplayed = (detail: string): Replayed => ({ result: 'not-replayed', detail, requests: 0 });
    if (cost > left)
      return notReplayed(
        `its repro takes ${cost} request(s) and the replays had ${left} left of ${this.allowance} (${allowanceWhy})`,
      );
    const creates = plan.steps.filter((s) => s.method === 'POST' && /^\/v2\/notes(\?|$)/.test(s.path)).length;
    if (this.ctx.createCaps && creates > this.ctx.createCaps.notes - createdInRun(this.ctx.runDir).notes)
      return notReplayed(`its repro creates ${creates} note(s), past what the run's note cap leaves`);
    const values: Record<string, string> = { NOTES_TOKEN: this.ctx.tokens.primary };
    if (this.ctx.tokens.secondary) values.NOTES_SECONDARY_TOKEN = this.ctx.tokens.secondary;
    for (const variable of plan.fresh) values[variable] = randomUUID();
    const startedAt = this.client.sent;
    const failedBefore = this.oracle.judgements.findings.get(rule)?.length ?? 0;
    const judgedBefore = this.oracle.judgements.judged.get(rule) ?? 0;
    let last: Exchange | undefined;
    for (const step of plan.steps) {
      const missing = unfilled(`${step.path}\n${step.authorization ?? ''}\n${step.body ?? ''}`).filter(
        (v) => values[v] === undefined,
      );
      if (missing.length > 0)
        return {
          result: 'not-replayed',
          detail: `its repro needs ${missing.join(', ')}, which the run no longer has (a fixture user goes with the run)`,
          requests: this.client.sent - startedAt,
        };
      try {
        last = await this.send(step, values);
      } catch (error) {
        return {
          result: 'not-replayed',
          detail: `the replay stopped: ${this.client.redact((error as Error).message.split('\n')[0]!)}`,
          requests: this.client.sent - startedAt,
        };
      }
      if (step.makes) {
        const id = (last.json as { id?: unknown } | undefined)?.id;
        if (typeof id !== 'string' && typeof id !== 'number')
          return {
            result: 'not-replayed',
            detail:
              `the replay's ${step.method} ${asVariables(step.path.split('?')[0]!)} answered ${last.status} ` +
              'without an id, so the failing request had nothing to name',
            requests: this.client.sent - startedAt,
          };
        values[step.makes] = String(id);
      }
    }
    const requests = this.client.sent - startedAt;
    const x = last!;
    const findings = this.oracle.judgements.findings.get(rule) ?? [];
    if (findings.length > failedBefore)
      return {
        result: 'reproduced',
        detail: `the replay broke it again: ${clipped(findings.at(-1)!.message)}`,
        requests,
      };
    const failing = `${x.method} ${asVariables(plan.steps.at(-1)!.path.split('?')[0]!)}`;
    // A view of the account holds more than the repro makes again: a replay that does not break the
    // rule tells nothing, either way.
    const op = operationOf(x.method, plan.steps.at(-1)!.path.split('?')[0]!);
    if (op && ACCOUNT_VIEWS.has(op))
      return {
        result: 'inconclusive',
        detail:
          `on replay ${failing} answered ${x.status} and did not break the rule again, but it is a view of ` +
          'the account, whose other items the repro does not make again',
        requests,
      };
    if ((this.oracle.judgements.judged.get(rule) ?? 0) > judgedBefore)
      return {
        result: 'not-reproduced',
        detail: `on replay the rule held: ${failing} answered ${x.status}${
          x.status === plan.answered.status ? '' : ` (${plan.answered.status} in the run)`
        }`,
        requests,
      };
    // A rule its check judged (no prediction covers it): the replay shows it again if the answer is the run's.
    const difference = differenceFrom(plan, x, values);
    return difference
      ? { result: 'not-reproduced', detail: `on replay ${failing} ${difference}`, requests }
      : {
          result: 'reproduced',
          detail: `on replay ${failing} answered as in the run (${x.status}, the same body but for ids, times and versions)`,
          requests,
        };
  }

  /** One step, as the user whose token it carries (then the oracle knows whose request it is). */
  private send(step: ReplayPlan['steps'][number], values: Readonly<Record<string, string>>): Promise<Exchange> {
    const authorization = step.authorization === undefined ? undefined : filledIn(step.authorization, values);
    const as =
      authorization === `Bearer ${this.ctx.tokens.primary}`
        ? this.api
        : this.secondary && authorization === `Bearer ${this.ctx.tokens.secondary}`
          ? this.secondary
          : undefined;
    const body =
      step.body !== undefined
        ? filledIn(step.body, values)
        : step.bodyBase64 !== undefined
          ? Buffer.from(step.bodyBase64, 'base64')
          : undefined;
    return (as ?? this.api).raw({
      method: step.method,
      path: filledIn(step.path, values),
      ...(body === undefined ? {} : { raw: body, contentType: step.contentType ?? null }),
      ...(as ? {} : authorization === undefined ? { token: null } : { authorization }),
    });
  }
}

/** A finding's message as a detail: its start says what broke; the report has the whole failure. */
function clipped(message: string): string {
  return message.length <= DETAIL_MAX ? message : `${message.slice(0, DETAIL_MAX - 1)}…`;
}
const DETAIL_MAX = 300;

/**
 * What a repro costs to replay, for the choice of one per rule: its requests, and after every repro
 * of a single resource those of a view of the account, whose replay can at best be inconclusive
 * when it holds (a 1-request list repro beside a 3-request read of the item loses).
 */
function replayCost(plan: ReplayPlan): number {
  const last = plan.steps.at(-1);
  const op = last ? operationOf(last.method, last.path.split('?')[0]!) : undefined;
  return plan.steps.length + (op && ACCOUNT_VIEWS.has(op) ? 1_000 : 0);
}

/** Lists, searches and related notes: what they show depends on all the account holds. */
const ACCOUNT_VIEWS = new Set(['listNotes', 'searchNotes', 'getRelatedNotes', 'listCollections', 'searchCollections']);

/** Keys whose values differ from one run to the next by nature: times, versions, request ids, cursors. */
const VOLATILE = /(^|_)(at|version|request_id|snapshot_id|next_page|cursor)$/;

/**
 * How the replay's answer differs from the run's, undefined when it does not: the status, then
 * the JSON body, the replay's ids read as the run's and volatile values left out.
 */
function differenceFrom(plan: ReplayPlan, x: Exchange, values: Readonly<Record<string, string>>): string | undefined {
  if (x.status !== plan.answered.status)
    return `answered ${x.status}, where the run's answer was ${plan.answered.status}`;
  let run: unknown;
  try {
    run = JSON.parse(plan.answered.text);
  } catch {
    // The run's body was no JSON, or was cut for the record: the status is what can be compared.
    return undefined;
  }
  let text = x.text;
  for (const [variable, runValue] of Object.entries(plan.ids)) {
    const replayValue = values[variable];
    if (replayValue) text = text.split(replayValue).join(runValue);
  }
  let replay: unknown;
  try {
    replay = JSON.parse(text);
  } catch {
    return `answered ${x.status} as in the run, with a body that is no JSON`;
  }
  const at = firstDifference(run, replay, '');
  return at === undefined
    ? undefined
    : `answered ${x.status} as in the run, with a different body (at ${at || 'the root'})`;
}

function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  if (typeof a === 'string' && typeof b === 'string' && UUID.test(a) && UUID.test(b)) return undefined;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return path;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    if (ka.join('\u0000') !== kb.join('\u0000')) return path;
    for (const k of ka) {
      if (VOLATILE.test(k)) continue;
      const d = firstDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        path ? `${path}.${k}` : k,
      );
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : path;
}
