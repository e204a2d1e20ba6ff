import type { ConformanceReport, RuleResult, Verdict } from './report.js';

/** A rule whose verdict moved between two runs (absent: not in that run's report). */
export interface RuleChange {
  id: string;
  before?: Verdict;
  after?: Verdict;
  /** The newer run's reason (the older one's, for a rule it no longer reports). */
  reason: string;
}

export interface Comparison {
  /** Failing or erroring now, and not before. */
  newlyFailing: RuleChange[];
  /** Passing now, after failing, erroring, warning or differing. */
  newlyPassing: RuleChange[];
  /** Judged before (pass, fail, warn, differs), and skipped or not reported now. */
  coverageLost: RuleChange[];
  /** Judged now, after a skip or absence, and not failing. */
  newlyJudged: RuleChange[];
  /** Every other move (fail to error, pass to warn, ...). */
  changed: RuleChange[];
  /** What differs in how the two runs were made (target, profile, tier, kit), which explains moves. */
  setting: string[];
}

const FAILING: ReadonlySet<Verdict | undefined> = new Set(['fail', 'error']);
const JUDGED: ReadonlySet<Verdict | undefined> = new Set(['pass', 'fail', 'warn', 'differs']);

/** What changed between an older and a newer run, rule by rule: what a pull request's CI wants. */
export function compareReports(before: ConformanceReport, after: ConformanceReport): Comparison {
  const old = new Map(before.rules.map((r) => [r.id, r]));
  const now = new Map(after.rules.map((r) => [r.id, r]));
  const ids = [...new Set([...old.keys(), ...now.keys()])].sort();
  const out: Comparison = {
    newlyFailing: [],
    newlyPassing: [],
    coverageLost: [],
    newlyJudged: [],
    changed: [],
    setting: [],
  };
  for (const id of ids) {
    const was: RuleResult | undefined = old.get(id);
    const is: RuleResult | undefined = now.get(id);
    if (was?.verdict === is?.verdict) continue;
    const change: RuleChange = {
      id,
      ...(was ? { before: was.verdict } : {}),
      ...(is ? { after: is.verdict } : {}),
      reason: (is ?? was)!.reason,
    };
    if (FAILING.has(is?.verdict) && !FAILING.has(was?.verdict)) out.newlyFailing.push(change);
    else if (JUDGED.has(was?.verdict) && !JUDGED.has(is?.verdict) && !FAILING.has(is?.verdict))
      out.coverageLost.push(change);
    else if (is?.verdict === 'pass' && was && was.verdict !== 'skipped') out.newlyPassing.push(change);
    else if (JUDGED.has(is?.verdict) && !JUDGED.has(was?.verdict) && !FAILING.has(was?.verdict))
      out.newlyJudged.push(change);
    else out.changed.push(change);
  }
  const setting = (what: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.setting.push(`${what} ${show(a)} -> ${show(b)}`);
  };
  setting('kit', before.kit.version, after.kit.version);
  setting('target', before.target, after.target);
  setting('profile', before.profile, after.profile);
  setting('tier', before.tier, after.tier);
  setting('only', before.only, after.only);
  return out;
}

/** Whether the newer run is worse: a rule fails that did not, or a rule once judged is judged no more. */
export function isWorse(comparison: Comparison): boolean {
  return comparison.newlyFailing.length > 0 || comparison.coverageLost.length > 0;
}

/** The comparison in plain lines: each group with its rules, then one line saying whether it got worse. */
export function renderComparison(comparison: Comparison, names: { before: string; after: string }): string {
  const lines = [`notes-conformance compare: ${names.before} -> ${names.after}`];
  if (comparison.setting.length > 0) lines.push(`  the runs differ: ${comparison.setting.join('; ')}`);
  const group = (title: string, changes: readonly RuleChange[], withReason: boolean) => {
    if (changes.length === 0) return;
    lines.push('', `${title} (${changes.length}):`);
    for (const c of changes) {
      const move = `${c.before ?? 'not reported'} -> ${c.after ?? 'not reported'}`;
      lines.push(`  ${c.id}: ${move}${withReason && c.reason ? `: ${c.reason}` : ''}`);
    }
  };
  group('newly failing', comparison.newlyFailing, true);
  group('coverage lost', comparison.coverageLost, true);
  group('newly passing', comparison.newlyPassing, false);
  group('newly judged', comparison.newlyJudged, false);
  group('other changes', comparison.changed, true);
  const { newlyFailing, coverageLost, newlyPassing } = comparison;
  const worse = isWorse(comparison);
  lines.push(
    '',
    worse
      ? `WORSE: ${newlyFailing.length} newly failing, ${coverageLost.length} no longer judged; exit 1`
      : `${newlyPassing.length > 0 ? 'BETTER' : 'NO WORSE'}: nothing newly failing, no coverage lost; exit 0`,
  );
  return `${lines.join('\n')}\n`;
}

function show(value: unknown): string {
  return Array.isArray(value) ? `[${value.join(', ')}]` : String(value);
}
