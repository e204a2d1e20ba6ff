import type { Replayed } from '../spec/replay.js';
import { latestRevision, notInForce, revisionOn } from '../spec/revisions.js';
import type { Rule, RuleLevel } from '../spec/rules.js';
import { ruleArea, selectedByOnly } from '../spec/rules.js';
import { type QuotaInfo, quotaWords } from '../spec/verdicts.js';

export { quotaWords } from '../spec/verdicts.js';

import { plainReason, plural, showInvisible } from './text.js';

/**
 * `differs`: a profile rule the target broke while no profile was given. The kit judged it against the
 * reference fake's choices, which the target never declared, so it is not the target's failure: it is
 * shown neutrally with what was observed, and counted apart from `fail` in every rendering.
 */
export type Verdict = 'pass' | 'fail' | 'error' | 'skipped' | 'warn' | 'differs';
export const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'error', 'skipped', 'warn', 'differs'];

export type { EvidenceExchange, RuleOutcome } from '../spec/check-meta.js';

import type { EvidenceExchange, RuleOutcome } from '../spec/check-meta.js';

/** What the runner tells about one check (a vitest test naming rules). */
export interface CheckOutcome {
  name: string;
  file: string;
  rules: readonly string[];
  /** Those the oracle judges on the check's answers: verdicts kit/oracle-verdicts.ts gives (never a bare pass). */
  oracle?: readonly string[];
  generalist?: boolean;
  /** Why an oracle rule may go unjudged here (its profile field undeclared): skipped with that reason. */
  unjudged?: Readonly<Record<string, string>>;
  state: 'passed' | 'failed' | 'skipped';
  /** The skip reason (ctx.skip), if any. */
  note?: string;
  errors: ReadonlyArray<{ name?: string; message: string }>;
  evidence?: readonly EvidenceExchange[];
  /** The verdict of each of its rules, as the check wrapper decided it (spec/check-meta.ts). */
  verdicts?: Readonly<Record<string, RuleOutcome>>;
  seed?: number;
  /** How long the check ran (vitest's TestCase.diagnostic().duration), in milliseconds. */
  durationMs?: number;
  /** Requests the check itself sent (its file's shared setup and cleanup are not counted here). */
  requests?: number;
  /** Notes the check created in the tokens' accounts (what the run's cap counts). */
  notes?: number;
}

export interface CheckResult {
  name: string;
  verdict: Verdict;
  message: string;
  file: string;
  seed?: number;
  evidence?: EvidenceExchange[];
  /** A shell command that replays the exchange that failed (set by the kit for failing checks). */
  repro?: string;
  /** What sending that repro once more at the end of the run found (kit/confirm.ts). */
  replayed?: Replayed;
  /** How long the check ran, in milliseconds (JUnit `time`; left out of the JSON to keep it byte-stable). */
  duration_ms?: number;
  /** Requests the check itself sent (the cost of a run, per check; file-level setup is not included). */
  requests?: number;
  /** Notes the check created in the tokens' accounts (what the run's cap counts; kit/note-costs.json). */
  notes?: number;
}

export interface RuleResult {
  id: string;
  area: string;
  level: RuleLevel;
  section: string;
  statement: string;
  /** The document's own words this rule stands on (the spec view marks them in the document). */
  quote: string[];
  profile_field?: string;
  /** The date the rule's behaviour entered the API (spec/rules.yaml `since`). */
  since: string;
  verdict: Verdict;
  reason: string;
  checks: CheckResult[];
}

/**
 * The JSON report's format (spec/report.schema.json, exported as notes-conformance/report.schema.json):
 * it changes when a field is removed, renamed or changes meaning. A field added keeps it, and is
 * added to the schema, which the proofs hold every report they make to (test/report-schema-setup.ts).
 */
export const REPORT_FORMAT_VERSION = 1;
export const REPORT_SCHEMA = 'notes-conformance/report.schema.json';

export interface ConformanceReport {
  $schema: typeof REPORT_SCHEMA;
  format_version: typeof REPORT_FORMAT_VERSION;
  kit: { name: 'notes-conformance'; version: string };
  target: string;
  profile: string;
  profile_declared: boolean;
  tier: 'smoke' | 'full';
  /** The revision of the API judged: the newest change of the document's part 9 on or before as_of. */
  api_revision: string;
  /** --as-of: the date the API was judged as of (rules newer than it read skipped). */
  as_of?: string;
  seed: number;
  only: string[];
  summary: Record<Verdict, number>;
  /** Requests sent within the run's request budget (start-up and checks). */
  requests: number;
  /** Requests sent to clean up what the run made, past the budget if need be (absent when none). */
  cleanup_requests?: number;
  /** Notes and collections the run created (and deleted again, but for `leftovers`). */
  created: { notes: number; collections: number };
  /** The account's note quota, when a create found it spent (the documented quota_exceeded body). */
  quota?: SpentQuota;
  leftovers: number;
  /** What was left, "note ID" or "collection ID" (as many as `leftovers`; absent when none). */
  leftover_ids?: string[];
  /** Creates the kit could not confirm made or not (no answer, an unreadable one): they may be left too. */
  leftovers_unconfirmed?: string[];
  exit_code: ExitCode;
  exit_reason: string;
  /** Set when a signal ended the run early (markInterrupted in interrupted.ts); exit_code is then 130/143. */
  interrupted?: Interruption;
  /** Problems outside any check: a check file that failed to load, an unhandled error. */
  run_errors: string[];
  rules: RuleResult[];
  /** Which targets of the behaviour space (spec/behaviour-space.yaml) the run's answers visited. */
  behaviour_coverage?: BehaviourCoverage;
  /** The run's wall time in milliseconds, start-up and sweep included (JUnit `time`; left out of the JSON). */
  duration_ms?: number;
}

/** Counts of one dimension of behaviour coverage, or of all of them. */
export interface CoverageCounts {
  covered: number;
  /** Targets the run could visit: the profile declares what they need. */
  reachable: number;
  total: number;
}

export interface CoverageTarget {
  id: string;
  dimension: string;
  status: 'covered' | 'not covered' | 'not reachable';
  /** Why a target was not covered or cannot be reached (a profile declaration missing, the budget). */
  why?: string;
}

/** What the run looked at, not only what it judged: like code coverage, for the document's behaviours. */
export interface BehaviourCoverage extends CoverageCounts {
  by_dimension: Record<string, CoverageCounts>;
  targets: CoverageTarget[];
}

/**
 * 0 conforming, 1 a blocking rule or run error, 3 the account's quota ran out and every blocking
 * rule is an error for that reason alone (none failed), 130/143 interrupted by SIGINT/SIGTERM (128 + signal).
 */
export type ExitCode = 0 | 1 | 3 | 130 | 143;

/** Exit status of a run whose only problem is the account's spent note quota. */
export const QUOTA_EXIT_CODE = 3;

/** What the quota_exceeded body said. */
export type SpentQuota = QuotaInfo;

export interface Interruption {
  signal: 'SIGINT' | 'SIGTERM';
  exit_code: 130 | 143;
}

export interface ReportInput {
  version: string;
  target: string;
  profileName: string;
  profileDeclared: boolean;
  /** The run's tier (--tier); the fault matrix and leave-one-out run the full one. */
  tier?: 'smoke' | 'full';
  /** --as-of: rules whose behaviour entered the API after it are skipped (spec/revisions.ts). */
  asOf?: string;
  seed: number;
  only: readonly string[];
  rules: readonly Rule[];
  outcomes: readonly CheckOutcome[];
  requests: number;
  cleanupRequests?: number;
  created?: { notes: number; collections: number };
  quota?: SpentQuota;
  leftovers: number;
  /** What was left, by kind and id (what a listing of the accounts showed; kit/sweep.ts). */
  leftoverIds?: readonly string[];
  runErrors: readonly string[];
  /** The run's wall time, in milliseconds. */
  durationMs?: number;
  behaviourCoverage?: BehaviourCoverage;
}

/** Each rule's result from check outcomes alone (the fault matrix's and leave-one-out's rows: no target, no run). */
export function ruleResults(
  outcomes: readonly CheckOutcome[],
  rules: readonly Rule[],
  only: readonly string[] = [],
): RuleResult[] {
  return buildReport({
    version: '',
    target: '',
    profileName: '',
    profileDeclared: true,
    seed: 0,
    only,
    rules,
    outcomes,
    requests: 0,
    leftovers: 0,
    runErrors: [],
  }).rules;
}

/**
 * The verdict of one check for one rule: what the check wrapper decided (an advisory rule's
 * fail is a warning). A check with no decision ended outside the wrapper (vitest's own timeout,
 * a file whose setup failed): it judged nothing, and says what stopped it.
 */
export function checkVerdict(
  outcome: CheckOutcome,
  advisory: boolean,
  ruleId: string,
): { verdict: Verdict; message: string } {
  const decided = outcome.verdicts?.[ruleId];
  if (decided) {
    const verdict = decided.verdict === 'fail' && advisory ? 'warn' : decided.verdict;
    return { verdict, message: decided.verdict === 'pass' ? '' : oneLine(decided.message) };
  }
  if (outcome.state === 'skipped') return { verdict: 'skipped', message: outcome.note ?? 'skipped' };
  if (outcome.state === 'passed') return { verdict: 'pass', message: '' };
  const first = outcome.errors[0];
  return { verdict: 'error', message: `the check stopped before it judged: ${oneLine(first?.message ?? 'no error')}` };
}

/** Worst first: a failure shows the target breaks the rule even if another check could not judge. */
const RANK: Record<Verdict, number> = { fail: 6, differs: 5, error: 4, warn: 3, pass: 2, skipped: 1 };

export function buildReport(input: ReportInput): ConformanceReport {
  const byRule = new Map<string, CheckResult[]>();
  const selected = (id: string) => selectedByOnly(id, input.only);
  const levels = new Map(input.rules.map((r) => [r.id, r.level]));
  for (const outcome of input.outcomes) {
    for (const id of outcome.rules) {
      if (!levels.has(id) || !selected(id)) continue;
      const judged = checkVerdict(outcome, levels.get(id) === 'advisory', id);
      const { message } = judged;
      // No profile: a profile rule broken against the assumed choices differs; it did not fail.
      const verdict: Verdict =
        judged.verdict === 'fail' && levels.get(id) === 'profile' && !input.profileDeclared
          ? 'differs'
          : judged.verdict;
      const result: CheckResult = { name: outcome.name, verdict, message, file: outcome.file };
      const judgedSomething = verdict !== 'pass' && verdict !== 'skipped';
      if (outcome.seed !== undefined && judgedSomething) result.seed = outcome.seed;
      if (judgedSomething && outcome.evidence?.length)
        result.evidence = evidenceOfRule(outcome.evidence, outcome.verdicts?.[id]?.judged);
      const repro = outcome.verdicts?.[id]?.repro;
      if (judgedSomething && repro) result.repro = repro;
      const replayed = outcome.verdicts?.[id]?.replayed;
      if (judgedSomething && replayed) result.replayed = replayed;
      if (outcome.durationMs !== undefined) result.duration_ms = Math.round(outcome.durationMs);
      if (outcome.requests !== undefined) result.requests = outcome.requests;
      if (outcome.notes) result.notes = outcome.notes;
      byRule.get(id)?.push(result) ?? byRule.set(id, [result]);
    }
  }
  const rules: RuleResult[] = input.rules
    .filter((r) => selected(r.id))
    .map((rule) => {
      const checks = (byRule.get(rule.id) ?? []).sort(
        (a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.file, b.file),
      );
      // --as-of: a rule newer than the date is not judged, whatever its checks saw.
      const newer = notInForce(rule, input.asOf);
      const { verdict, reason } = newer ? { verdict: 'skipped' as const, reason: newer } : ruleVerdict(checks);
      return {
        id: rule.id,
        area: ruleArea(rule.id),
        level: rule.level,
        section: rule.section,
        statement: rule.statement,
        quote: [...rule.quote],
        ...(rule.profile ? { profile_field: rule.profile } : {}),
        since: rule.since,
        verdict,
        reason,
        checks: newer ? checks.map((c) => ({ name: c.name, verdict, message: newer, file: c.file })) : checks,
      };
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const summary = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const r of rules) summary[r.verdict]++;
  const blocking = rules.filter((r) => isBlocking(r, input.profileDeclared));
  // A spent quota explains an error only where the rule's worst check ended on it.
  const quotaRules = new Set(input.outcomes.flatMap((o) => o.rules.filter((id) => o.verdicts?.[id]?.quota)));
  const quotaOnly =
    input.quota !== undefined &&
    input.runErrors.length === 0 &&
    blocking.length > 0 &&
    blocking.every((r) => r.verdict === 'error' && quotaRules.has(r.id));
  const exit_code: ExitCode = quotaOnly ? QUOTA_EXIT_CODE : blocking.length > 0 || input.runErrors.length > 0 ? 1 : 0;
  const exit_reason = quotaOnly
    ? `${quotaWords(input.quota!)}: ${plural(blocking.length, 'rule')} that needed new notes could not be judged; no rule failed`
    : exit_code === 0
      ? 'no documented rule, and no rule the profile declares, failed or errored'
      : input.runErrors.length > 0 && blocking.length === 0
        ? `${plural(input.runErrors.length, 'run error')} outside the checks`
        : `${blocking.length} ${input.profileDeclared ? 'documented or declared' : 'documented'}` +
          ` ${blocking.length === 1 ? 'rule' : 'rules'} failed or errored${input.quota ? ` (and ${quotaWords(input.quota)})` : ''}`;
  return {
    $schema: REPORT_SCHEMA,
    format_version: REPORT_FORMAT_VERSION,
    kit: { name: 'notes-conformance', version: input.version },
    target: input.target,
    profile: input.profileName,
    profile_declared: input.profileDeclared,
    tier: input.tier ?? 'full',
    api_revision: input.asOf ? revisionOn(input.asOf) : latestRevision(),
    ...(input.asOf ? { as_of: input.asOf } : {}),
    seed: input.seed,
    only: [...input.only],
    summary,
    requests: input.requests,
    ...(input.cleanupRequests ? { cleanup_requests: input.cleanupRequests } : {}),
    created: input.created ?? { notes: 0, collections: 0 },
    ...(input.quota ? { quota: input.quota } : {}),
    leftovers: input.leftovers,
    ...(input.leftoverIds?.length ? { leftover_ids: [...input.leftoverIds] } : {}),
    exit_code,
    exit_reason,
    run_errors: [...input.runErrors].sort(),
    rules,
    ...(input.behaviourCoverage ? { behaviour_coverage: input.behaviourCoverage } : {}),
    ...(input.durationMs !== undefined ? { duration_ms: Math.round(input.durationMs) } : {}),
  };
}

/** Whether a rule's verdict makes the exit status non-zero (JUnit shows exactly these as failures/errors). */
export function isBlocking(rule: Pick<RuleResult, 'verdict' | 'level'>, profileDeclared: boolean): boolean {
  return (
    (rule.verdict === 'fail' || rule.verdict === 'error') &&
    (rule.level === 'documented' || (rule.level === 'profile' && profileDeclared))
  );
}

export function ruleVerdict(checks: readonly CheckResult[]): { verdict: Verdict; reason: string } {
  if (checks.length === 0) return { verdict: 'error', reason: 'no check' };
  const worst = checks.reduce((a, b) => (RANK[b.verdict] > RANK[a.verdict] ? b : a));
  if (worst.verdict === 'pass') {
    const skipped = checks.filter((c) => c.verdict === 'skipped').length;
    return {
      verdict: 'pass',
      reason:
        skipped > 0
          ? `${skipped} of ${checks.length} checks skipped: ${checks.find((c) => c.verdict === 'skipped')!.message}`
          : '',
    };
  }
  return { verdict: worst.verdict, reason: worst.message };
}

function oneLine(message: string): string {
  // Escape CR, tabs and blanks closing a quoted literal first: trimming the lines would erase them.
  // Plain words before the cut, so matcher noise at the end cannot survive as "// Objec...".
  const line = plainReason(
    showInvisible(message)
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .join(' '),
  );
  return line.length > 400 ? `${line.slice(0, 397)}...` : line;
}

/** Locale-independent order (localeCompare depends on the machine's ICU data; reports must not). */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A check's evidence as one of its rules shows it: the exchange that rule was judged on first and
 * alone marked judged (those of the check's other rules stay as context), so a rule's evidence and
 * repro are the same exchange.
 */
function evidenceOfRule(evidence: readonly EvidenceExchange[], judgedAt: number | undefined): EvidenceExchange[] {
  const own = judgedAt === undefined ? undefined : evidence[judgedAt];
  if (!own) return [...evidence];
  const context = evidence.filter((x) => x !== own).map(({ judged: _judged, ...x }) => x);
  return [{ ...own, judged: true }, ...context];
}
