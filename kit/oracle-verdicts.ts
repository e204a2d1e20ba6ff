import type { CheckOutcome, EvidenceExchange, RuleOutcome } from '../reporters/report.js';
import { OPERATIONS, type OperationId } from '../spec/operations.js';
import { loadRules } from '../spec/rules.js';
import { checkKey } from './core/check-key.js';
import type { Exchange } from './core/client.js';
import type { Finding, Judged } from './core/oracle/judge.js';
import type { RunJudgements } from './core/oracle/merge.js';
import type { OperationTally } from './core/oracle/oracle.js';

/** The run-wide oracle's entry in the report: judgements of answers no check naming the rule sent. */
export const ORACLE_CHECK = {
  name: 'every answer of the run agrees with what the run established (oracle)',
  file: 'kit/core/oracle/oracle.ts',
} as const;

/**
 * The oracle's verdicts, straight into the run's outcomes: a judgement of an answer a check sent
 * counts for that check where the check names the rule (its failure fails the check for that
 * rule, with the answer as evidence and repro); every other judgement counts for the run-wide
 * oracle, which passes a rule it judged and found unbroken. A run whose requests went unanswered
 * was not seen whole: the run-wide oracle then reports only what it found broken.
 */
export function withOracleVerdicts(outcomes: readonly CheckOutcome[], run: RunJudgements | undefined): CheckOutcome[] {
  if (!run) return [...outcomes];
  const byCheck = new Map(outcomes.map((o, i) => [checkKey(o.file, o.name), i] as const));
  const out = outcomes.map((o) => ({ ...o, verdicts: { ...o.verdicts }, evidence: [...(o.evidence ?? [])] }));
  const runWide = new Map<string, Judged>();
  /** What the oracle judged of each check's own oracle rules: check index and rule -> judged at least once. */
  const judgedOn = new Set<string>();
  for (const entry of run.judged) {
    const at = entry.source ? byCheck.get(checkKey(entry.source.file, entry.source.name)) : undefined;
    const check = at === undefined ? undefined : out[at]!;
    if (!check?.rules.includes(entry.rule)) {
      const seen = runWide.get(entry.rule);
      if (!seen) runWide.set(entry.rule, { rule: entry.rule, judged: entry.judged, findings: [...entry.findings] });
      else {
        seen.judged += entry.judged;
        seen.findings.push(...entry.findings);
      }
      continue;
    }
    if (entry.judged > 0) judgedOn.add(`${at} ${entry.rule}`);
    const first = entry.findings[0];
    const own = check.verdicts[entry.rule];
    // The check's own failure stands (it was written for that rule); the oracle's adds one where it found none.
    if (!first || own?.verdict === 'fail') continue;
    check.verdicts[entry.rule] = failed(first, entry.findings.length, check.evidence);
    if (check.state === 'passed') check.state = 'failed';
  }
  // A rule the check leaves to the oracle passes only on an answer of the check the oracle judged.
  for (const [i, check] of out.entries())
    for (const rule of check.oracle ?? []) {
      // A check skipped (a need unmet) or stopped early said how its rules ended.
      if (check.verdicts[rule] || outcomes[i]!.state !== 'passed') continue;
      check.verdicts[rule] = judgedOn.has(`${i} ${rule}`)
        ? { verdict: 'pass', message: '' }
        : check.unjudged?.[rule]
          ? { verdict: 'skipped', message: check.unjudged[rule] }
          : check.generalist
            ? {
                verdict: 'skipped',
                message: "none of the check's sequences reached a situation the oracle judges it in",
              }
            : { verdict: 'error', message: `not judged: the oracle judged no answer of this check on ${rule}` };
    }
  if (runWide.size === 0) return withControls(out, run.operations);
  const evidence: EvidenceExchange[] = [];
  const verdicts: Record<string, RuleOutcome> = {};
  for (const [rule, entry] of runWide) {
    const first = entry.findings[0];
    if (first) verdicts[rule] = failed(first, entry.findings.length, evidence);
    else
      verdicts[rule] =
        run.unanswered > 0 ? { verdict: 'skipped', message: unseen(run.unanswered) } : { verdict: 'pass', message: '' };
  }
  const anyFailed = Object.values(verdicts).some((v) => v.verdict === 'fail');
  return withControls(
    [
      ...out,
      {
        ...ORACLE_CHECK,
        rules: [...runWide.keys()].sort(),
        state: anyFailed ? 'failed' : 'passed',
        errors: [],
        evidence,
        verdicts,
      },
    ],
    run.operations,
  );
}

/**
 * The operations whose acceptance controls each rule: the one it is about (the first its catalogue
 * entry names); for a rule across four or more (a convention of every answer), any of them.
 */
const controlsOf = new Map(
  loadRules().map((r) => [r.id, r.operations.length >= 4 ? r.operations : r.operations.slice(0, 1)] as const),
);

/**
 * No pass without a positive control: a rule about an operation the target never accepted in
 * the run (a 404 to every request, say) was not shown to hold, since a refusal from an operation
 * that refuses everything proves nothing. Its passes become errors that say so; its failures stand.
 */
function withControls(outcomes: CheckOutcome[], operations: OperationTally | undefined): CheckOutcome[] {
  if (!operations) return outcomes;
  // A run that met a spent quota made too little to accept much: its gaps are the quota's first.
  const quota = outcomes.flatMap((o) => Object.values(o.verdicts ?? {})).find((v) => v.quota);
  const why = new Map<string, string | undefined>();
  const uncontrolled = (rule: string): string | undefined => {
    if (why.has(rule)) return why.get(rule);
    const ops = controlsOf.get(rule) ?? [];
    const reasons = ops.map((op) => neverAccepted(op, operations[op]));
    const reason = reasons.length > 0 && reasons.every(Boolean) ? reasons.join('; ') : undefined;
    why.set(rule, reason);
    return reason;
  };
  return outcomes.map((o) => {
    const verdicts = { ...o.verdicts };
    let changed = false;
    for (const [rule, v] of Object.entries(verdicts)) {
      const reason = v.verdict === 'pass' ? uncontrolled(rule) : undefined;
      if (!reason) continue;
      verdicts[rule] = quota
        ? { verdict: 'error', message: `${quota.message}; ${reason}`, quota: true }
        : { verdict: 'error', message: reason };
      changed = true;
    }
    return changed ? { ...o, verdicts } : o;
  });
}

/** Why an operation's answers in the run cannot show a rule holding: none accepted a request. */
function neverAccepted(op: string, statuses: Readonly<Record<string, number>> | undefined): string | undefined {
  const counts = Object.entries(statuses ?? {});
  if (counts.some(([status]) => Number(status) >= 200 && Number(status) < 300)) return undefined;
  const known = OPERATIONS[op as OperationId];
  const name = known ? `${known.method} ${known.path}` : op;
  const total = counts.reduce((n, [, c]) => n + c, 0);
  if (total === 0) return `cannot judge: the run sent no ${name} request, so nothing showed the rule holding`;
  const answers = counts
    .sort((a, b) => b[1] - a[1])
    .map(([status, n]) => (counts.length === 1 ? `${status} to all ${n}` : `${status} to ${n}`))
    .join(', ');
  return `cannot judge: ${name} never accepted a request in this run (${answers}), so its refusals prove nothing`;
}

function unseen(unanswered: number): string {
  return `${unanswered} request(s) of the run got no answer, so the oracle did not see the run whole`;
}

/** A finding as a failed rule: its answer (and the one it contradicts) put into the check's evidence. */
function failed(first: Finding, count: number, evidence: EvidenceExchange[]): RuleOutcome {
  if (first.context) evidence.push(toEvidence(first.context));
  evidence.push({ ...toEvidence(first.x), judged: true });
  const more = count > 1 ? ` (and ${count - 1} more answer(s) of the run)` : '';
  return {
    verdict: 'fail',
    message: `${first.message}${more}`,
    judged: evidence.length - 1,
    ...(first.x.repro ? { repro: first.x.repro } : {}),
    ...(first.x.replayPlan ? { plan: first.x.replayPlan } : {}),
  };
}

function toEvidence(x: Exchange): EvidenceExchange {
  return {
    method: x.method,
    path: x.path,
    requestHeaders: { ...x.requestHeaders },
    ...(x.requestBody !== undefined ? { requestBody: x.requestBody } : {}),
    status: x.status,
    headers: { ...x.headers },
    text: x.text,
    ...(x.id !== undefined ? { id: x.id } : {}),
  };
}
