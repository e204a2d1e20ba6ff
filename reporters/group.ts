import type { Replayed } from '../spec/replay.js';
import { NOT_IN_SMOKE } from '../spec/verdicts.js';
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
import { plural } from './text.js';

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

/**
 * "12 pass, 0 fail, 1 error, 3 skipped, 2 warn" and, when some rules differ from the reference profile,
 * ", 4 differ" (`long`: "4 differ from the reference profile (not judged)", for the headline).
 */
export function countsLine(counts: Record<Verdict, number>, long = false): string {
  return VERDICTS.filter((v) => v !== 'differs' || counts[v] > 0)
    .map((v) => (v === 'differs' ? `${counts[v]} ${long ? DIFFERS : 'differ'}` : `${counts[v]} ${v}`))
    .join(', ');
}

/** How a `differs` verdict reads, the same words in every rendering. */
export const DIFFERS = 'differ from the reference profile (not judged)';

/** The rules that make the exit status non-zero: the JUnit failures and errors, the "failures" everywhere. */
export function blockingRules(report: ConformanceReport): RuleResult[] {
  return report.rules.filter((r) => isBlocking(r, report.profile_declared));
}

/**
 * A profile rule that broke the reference profile's choice while no profile was given (verdict
 * `differs`): not the target's failure, since it never declared the behaviour; reports show what was
 * observed and the profile key that would have it judged.
 */
export function differsNote(rule: RuleResult): string {
  // The key first: the observation can be long and gets clipped in narrow renderings.
  return (
    `differs from the reference profile (not judged): declare \`${rule.profile_field ?? 'the profile field'}\`` +
    ` in a profile to have it judged; observed: ${rule.reason}`
  );
}

/**
 * A rule that errored without making the exit status non-zero (an advisory rule, or a profile rule
 * with no profile given): the kit could not judge it, and it is not counted.
 */
export function uncountedErrorNote(rule: RuleResult): string {
  return `could not judge (${rule.level}, not counted): ${rule.reason}`;
}

/** Display groups in the order a reader acts on them: what fails the run first, what passed last. */
export type Standing = 'failing' | 'warn' | 'differs' | 'skipped' | 'pass';
export const STANDINGS: readonly Standing[] = ['failing', 'warn', 'differs', 'skipped', 'pass'];

export function standingOf(report: ConformanceReport, rule: RuleResult): Standing {
  if (isBlocking(rule, report.profile_declared)) return 'failing';
  if (rule.verdict === 'differs') return 'differs';
  if (rule.verdict === 'fail' || rule.verdict === 'error' || rule.verdict === 'warn') return 'warn';
  return rule.verdict === 'skipped' ? 'skipped' : 'pass';
}

/** The reason a rendering shows for a rule: the differs and uncounted-error notes where they apply. */
export function shownReason(report: ConformanceReport, rule: RuleResult): string {
  if (rule.verdict === 'differs') return differsNote(rule);
  if (rule.verdict === 'error' && !isBlocking(rule, report.profile_declared)) return uncountedErrorNote(rule);
  return rule.reason;
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

/** A cause many rules share: what the target did that left them unjudged, and those rules. */
export interface Cause {
  cause: string;
  ids: string[];
}

const CAUSES: ReadonlyArray<(reason: string) => string | undefined> = [
  // kit/oracle-verdicts.ts: an operation that never accepted a request.
  (reason) => {
    const m = /^cannot judge: (\S+ \S+) never accepted a request in this run \(([^)]*)\)/.exec(reason);
    return m ? `${m[1]} answered ${m[2]} and never accepted a request` : undefined;
  },
  // kit/oracle-verdicts.ts: a check whose answers the oracle could judge none of (refused, mostly).
  (reason) =>
    reason.startsWith('not judged: the oracle judged no answer of this check')
      ? "the oracle could judge none of their checks' answers (look for refusals of the operations they use)"
      : undefined,
  // A check that needed an answer (a search finding its notes) and got a refusal.
  (reason) => {
    const m = /so the check cannot judge.*?: (GET|POST|PATCH|PUT|DELETE) (\/[^\s?]+)\S* answered (\d{3})/.exec(reason);
    return m ? `${m[1]} ${m[2]} was answered ${m[3]} where a check needed its answer` : undefined;
  },
  // A check's setup step the target refused.
  (reason) => {
    const m = /setup step "([^"]+)" answered (\d{3})/.exec(reason);
    return m ? `the setup step "${m[1]}" was answered ${m[2]}` : undefined;
  },
];

/**
 * The run's causes, first in every rendering: the errors that share one (an operation a partial
 * server lacks, a setup step it refuses), with their rules, most rules first. A cause of one rule
 * is no group: that rule's own line says it.
 */
export function causes(report: ConformanceReport): Cause[] {
  const groups = new Map<string, string[]>();
  for (const r of report.rules) {
    if (r.verdict !== 'error') continue;
    const cause = CAUSES.map((of) => of(r.reason)).find(Boolean);
    if (cause) groups.set(cause, [...(groups.get(cause) ?? []), r.id]);
  }
  return [...groups]
    .filter(([, ids]) => ids.length > 1)
    .map(([cause, ids]) => ({ cause, ids }))
    .sort((a, b) => b.ids.length - a.ids.length || byCodePoint(a.cause, b.cause));
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
  const asOf = report.as_of ? `; API as of ${report.as_of}` : '';
  const against = `against ${report.target} (profile ${report.profile}${assumed}${asOf})`;
  if (report.tier !== 'smoke')
    return `${status}: ${plural(report.rules.length, 'rule')} ${against}: ${countsLine(report.summary, true)}`;
  // The smoke tier judges a few rules of each area: its headline counts those, and the rest apart.
  const outside = report.rules.filter((r) => r.verdict === 'skipped' && r.reason === NOT_IN_SMOKE).length;
  const inTier = { ...report.summary, skipped: report.summary.skipped - outside };
  const judged = report.rules.length - outside - inTier.skipped;
  const rest = `${outside} ${outside === 1 ? 'is' : 'are'} not in the smoke tier`;
  return `SMOKE ${status}: ${plural(judged, 'rule')} judged ${against}: ${countsLine(inTier, true)}; ${rest}`;
}

/** " (note 12345, collection c-1)": what the run left, by id, so that it can be deleted by hand. */
export function leftIds(report: ConformanceReport, shown = 5): string {
  const ids = report.leftover_ids ?? [];
  if (ids.length === 0) return '';
  return ` (${ids.slice(0, shown).join(', ')}${ids.length > shown ? `, ${ids.length - shown} more` : ''})`;
}

/** "60 requests and 11 to clean up": the run's cost, its cleanup (which the budget does not stop) apart. */
export function requestsWords(report: ConformanceReport): string {
  const cleanup = report.cleanup_requests ?? 0;
  return `${plural(report.requests, 'request')}${cleanup > 0 ? ` and ${cleanup} to clean up` : ''}`;
}

/** The document's own words a rule stands on, quoted, with their section: what a failed rule breaks. */
export function documentQuote(rule: Pick<RuleResult, 'quote' | 'section'>): string {
  return `the document (${rule.section}): ${rule.quote.map((q) => `"${q}"`).join(' … ')}`;
}

/** A failure's replay at the end of the run, in a few words (kit/confirm.ts). */
export function replayWords(replayed: Replayed | undefined, withDetail = true): string | undefined {
  if (!replayed) return undefined;
  const words = {
    reproduced: 'reproduced on replay',
    'not-reproduced': 'not reproduced on replay',
    inconclusive: 'replay inconclusive',
    'not-replayed': 'not replayed',
  }[replayed.result];
  return withDetail ? `${words}: ${replayed.detail}` : words;
}

/** What a repro is, said beside it in every report (kit/core/repro-script.ts). */
export const REPRO_WORDS =
  'a sh script: it makes again what the failing request names, then sends it; the tokens come from NOTES_TOKEN and the like';
