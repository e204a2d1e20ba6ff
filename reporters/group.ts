import {
  byCodePoint,
  type ConformanceReport,
  isBlocking,
  QUOTA_EXIT_CODE,
  quotaWords,
  type RuleResult,
  VERDICTS,
  type Verdict,
} from './report.js';

export interface AreaSummary {
  area: string;
  counts: Record<Verdict, number>;
  rules: RuleResult[];
}

/** Rules grouped by area (the first segment of their id), areas sorted by name. */
export function byArea(report: ConformanceReport): AreaSummary[] {
  const areas = new Map<string, AreaSummary>();
  for (const rule of report.rules) {
    let area = areas.get(rule.area);
    if (!area)
      areas.set(
        rule.area,
        (area = {
          area: rule.area,
          counts: Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>,
          rules: [],
        }),
      );
    area.counts[rule.verdict]++;
    area.rules.push(rule);
  }
  return [...areas.values()].sort((a, b) => byCodePoint(a.area, b.area));
}

export function countsLine(counts: Record<Verdict, number>): string {
  return VERDICTS.map((v) => `${counts[v]} ${v}`).join(', ');
}

/** A curl command that replays an exchange; the token stays in the environment. */
export function curlOf(
  target: string,
  x: { method: string; path: string; requestHeaders: Record<string, string>; requestBody?: string },
): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const parts = ['curl -sS', `-X ${x.method}`, quote(`${target.replace(/\/$/, '')}${x.path}`)];
  for (const [name, value] of Object.entries(x.requestHeaders)) {
    if (name === 'authorization')
      parts.push(
        value.endsWith('***') ? `-H "Authorization: Bearer $NOTES_TOKEN"` : `-H ${quote(`${name}: ${value}`)}`,
      );
    else if (name !== 'accept') parts.push(`-H ${quote(`${name}: ${value}`)}`);
  }
  if (x.requestBody !== undefined) parts.push(`--data-raw ${quote(x.requestBody)}`);
  return parts.join(' ');
}

/** The rules that make the exit status non-zero: the JUnit failures and errors, the "failures" everywhere. */
export function blockingRules(report: ConformanceReport): RuleResult[] {
  return report.rules.filter((r) => isBlocking(r, report.profile_declared));
}

/**
 * A profile rule that failed against the assumed defaults (no profile given): not the target's
 * failure, since the target never declared the behaviour; reports show what was observed and the
 * profile key that would declare it.
 */
export function judgedOnAssumedProfile(report: ConformanceReport, rule: RuleResult): boolean {
  return rule.level === 'profile' && !report.profile_declared && (rule.verdict === 'fail' || rule.verdict === 'error');
}

export function assumedProfileNote(rule: RuleResult): string {
  // The key first: the observation can be long and gets clipped in narrow renderings.
  return (
    `not counted: judged against assumed defaults (no profile given); declare \`${rule.profile_field ?? 'the profile field'}\`` +
    ` in a profile to have it judged; observed: ${rule.reason}`
  );
}

/** Display groups in the order a reader acts on them: what fails the run first, what passed last. */
export type Standing = 'failing' | 'assumed' | 'warn' | 'skipped' | 'pass';
export const STANDINGS: readonly Standing[] = ['failing', 'assumed', 'warn', 'skipped', 'pass'];

export function standingOf(report: ConformanceReport, rule: RuleResult): Standing {
  if (isBlocking(rule, report.profile_declared)) return 'failing';
  if (judgedOnAssumedProfile(report, rule)) return 'assumed';
  if (rule.verdict === 'fail' || rule.verdict === 'error' || rule.verdict === 'warn') return 'warn';
  return rule.verdict === 'skipped' ? 'skipped' : 'pass';
}

/** Rules failures first (fail before error), then by standing, then by id: the same order on every machine. */
export function rulesInDisplayOrder(report: ConformanceReport): RuleResult[] {
  const rank = (r: RuleResult) => STANDINGS.indexOf(standingOf(report, r)) * 10 + (r.verdict === 'fail' ? 0 : 1);
  return [...report.rules].sort((a, b) => rank(a) - rank(b) || byCodePoint(a.id, b.id));
}

/** Skip reasons with how many rules each, most frequent first. */
export function skipReasons(rules: readonly RuleResult[]): Array<{ reason: string; count: number; ids: string[] }> {
  const groups = new Map<string, string[]>();
  for (const r of rules) if (r.verdict === 'skipped') groups.set(r.reason, [...(groups.get(r.reason) ?? []), r.id]);
  return [...groups]
    .map(([reason, ids]) => ({ reason, count: ids.length, ids }))
    .sort((a, b) => b.count - a.count || byCodePoint(a.reason, b.reason));
}

/** The report's one-line outcome, the same words in every rendering. */
export function headline(report: ConformanceReport): string {
  const status = report.interrupted
    ? `INTERRUPTED (${report.interrupted.signal})`
    : report.exit_code === 0
      ? 'PASS'
      : report.exit_code === QUOTA_EXIT_CODE
        ? `QUOTA SPENT (${quotaWords(report.quota ?? {})})`
        : 'FAIL';
  const assumed = report.profile_declared || /assumed/i.test(report.profile) ? '' : ', assumed';
  return `${status}: ${report.rules.length} rules against ${report.target} (profile ${report.profile}${assumed}): ${countsLine(report.summary)}`;
}
