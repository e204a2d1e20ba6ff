import {
  type CheckResult,
  type ConformanceReport,
  type Interruption,
  isBlocking,
  type RuleResult,
  ruleVerdict,
  VERDICTS,
  type Verdict,
} from './report.js';
import { plural } from './text.js';

/** The reason given to a check, or a rule, that an interrupted run never got to. */
export const NOT_RUN = 'not run';

/** The interruption a signal stands for: the shell's exit status 128 + the signal number. */
export function interruptionOf(signal: 'SIGINT' | 'SIGTERM'): Interruption {
  return { signal, exit_code: signal === 'SIGINT' ? 130 : 143 };
}

/**
 * The report of a run a signal ended early (the CLI calls this after buildReport when its Interrupt
 * caught a signal). Checks vitest cancelled before they started, and rules no check reached, are
 * `skipped` with the reason "not run" rather than errors; the exit code is 130/143 as the process's.
 * Pure: returns a new report.
 */
export function markInterrupted(report: ConformanceReport, interruption: Interruption): ConformanceReport {
  const rules = report.rules.map((rule): RuleResult => {
    if (rule.checks.length === 0) return { ...rule, verdict: 'skipped', reason: NOT_RUN };
    const checks = rule.checks.map(
      (c): CheckResult => (neverRan(c) ? { ...c, verdict: 'skipped', message: NOT_RUN } : c),
    );
    if (checks.every((c, i) => c === rule.checks[i])) return rule;
    return { ...rule, ...ruleVerdict(checks), checks };
  });
  const summary = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const r of rules) summary[r.verdict]++;
  const notRun = rules.filter((r) => r.verdict === 'skipped' && r.reason === NOT_RUN).length;
  const blocking = rules.filter((r) => isBlocking(r, report.profile_declared)).length;
  const exit_reason =
    `interrupted by ${interruption.signal}: ${notRun} of ${plural(rules.length, 'rule')} not run` +
    (blocking > 0 ? `; ${plural(blocking, 'rule')} failed or errored before that` : '');
  return { ...report, summary, exit_code: interruption.exit_code, exit_reason, interrupted: interruption, rules };
}

/**
 * vitest marks the pending checks of the file it was running as skipped with its abort message,
 * aborts the running one with that message (TestRunAbortError), and never starts later files (those
 * checks do not reach the report: their rules have no check). A skip without a note is cancelled too.
 */
function neverRan(check: CheckResult): boolean {
  if (check.verdict !== 'skipped' && check.verdict !== 'error') return false;
  return ABORTED.test(check.message) || (check.verdict === 'skipped' && check.message === 'skipped');
}

/** vitest's cancel, and a check whose request the signal stopped (the worker's KitError). */
const ABORTED = /The test run was aborted|the run was (stopped|interrupted) \((SIGINT|SIGTERM)\)/;
