import { coverageLine } from './coverage.js';
import {
  byArea,
  causes,
  countsLine,
  documentQuote,
  headline,
  leftIds,
  replayWords,
  requestsWords,
  rulesInDisplayOrder,
  shownReason,
  skipReasons,
} from './group.js';
import type { ConformanceReport, RuleResult } from './report.js';
import { clip, plainReason, plural } from './text.js';

export interface TerminalOptions {
  /** Only the headline (--quiet): status, counts, requests and what was left behind, on one line. */
  quiet?: boolean;
  /** Each skipped rule on its own line instead of the grouped reasons. */
  showSkipped?: boolean;
  /** ANSI colours. The caller decides: stdout is a TTY and NO_COLOR is unset (see useColour). */
  color?: boolean;
}

/** Colours on a TTY unless NO_COLOR is set to anything non-empty (https://no-color.org). */
export function useColour(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}

const MARK: Record<string, string> = {
  fail: 'FAIL ',
  error: 'ERROR',
  warn: 'WARN ',
  skipped: 'SKIP ',
  pass: 'PASS ',
  differs: 'DIFF ',
};
// A difference from the reference profile is not a failure: cyan, neither red nor the warning yellow.
const SGR: Record<string, string> = {
  fail: '31',
  differs: '36',
  error: '33',
  warn: '33',
  skipped: '2',
  pass: '32',
  bold: '1',
  dim: '2',
};
const REASON_MAX = 240;
const _LINE_MAX = 118;
const SKIP_REASON_MAX = 160;
const SKIP_REASONS_SHOWN = 6;

/** The terminal summary: counts per area, each rule that did not pass with a plain reason, skips grouped. */
export function renderTerminal(report: ConformanceReport, options: TerminalOptions = {}): string {
  const paint = (code: string, text: string) => (options.color ? `\u001b[${SGR[code]}m${text}\u001b[0m` : text);
  const head = paint(
    'bold',
    `notes-conformance: ${headline(report)}; ${requestsWords(report)}, ${report.leftovers} left behind${leftIds(report)}${unconfirmed(report)}`,
  );
  const exit = paint(report.exit_code === 0 ? 'pass' : 'fail', `exit ${report.exit_code}: ${report.exit_reason}`);
  const seed = `seed ${report.seed} (replay property runs with --seed ${report.seed})`;
  if (options.quiet) return `${head}\n`;
  const lines: string[] = [''];
  for (const area of byArea(report)) lines.push(`  ${area.area.padEnd(12)} ${countsLine(area.counts)}`);
  // The causes first: a partial server's report is then a short to-do list, its rules under them.
  const grouped = causes(report);
  const underCause = new Set(grouped.flatMap((c) => c.ids));
  if (grouped.length > 0) lines.push('', '  causes:');
  for (const c of grouped)
    lines.push(
      `  ${paint('error', 'CAUSE')} ${clip(c.cause, REASON_MAX)}: ${plural(c.ids.length, 'rule')} cannot be judged`,
      paint('dim', `        ${clip(c.ids.join(', '), REASON_MAX)}`),
    );
  const notable = rulesInDisplayOrder(report).filter(
    (r) => r.verdict !== 'pass' && !underCause.has(r.id) && (options.showSkipped || r.verdict !== 'skipped'),
  );
  if (notable.length > 0) lines.push('');
  for (const rule of notable) {
    lines.push(ruleLine(report, rule, paint));
    // A failed rule: the words of the document it breaks, under it.
    // With what its replay at the end of the run found, if it was replayed (kit/confirm.ts).
    const replay = replayWords(rule.checks.find((c) => c.replayed)?.replayed, false);
    if (rule.verdict === 'fail')
      lines.push(paint('dim', `        ${clip(`${replay ? `[${replay}] ` : ''}${documentQuote(rule)}`, REASON_MAX)}`));
  }
  for (const error of report.run_errors)
    lines.push(`  ${paint('error', 'RUN ERROR')} ${clip(plainReason(error), REASON_MAX)}`);
  const skips = skipReasons(report.rules);
  if (skips.length > 0 && !options.showSkipped) {
    lines.push(
      '',
      `  skipped ${plural(
        skips.reduce((n, s) => n + s.count, 0),
        'rule',
      )}:`,
    );
    // The most frequent reasons; the rest counted (--show-skipped lists every skipped rule).
    for (const skip of skips.slice(0, SKIP_REASONS_SHOWN))
      lines.push(
        paint('dim', `    ${String(skip.count).padStart(3)} x ${clip(plainReason(skip.reason), SKIP_REASON_MAX)}`),
      );
    const rest = skips.slice(SKIP_REASONS_SHOWN);
    if (rest.length > 0)
      lines.push(
        paint(
          'dim',
          `    ${String(rest.reduce((n, s) => n + s.count, 0)).padStart(3)} x for ${rest.length} other reasons (--show-skipped lists them)`,
        ),
      );
  }
  // What the run looked at, beside what it judged (the JSON report lists every target).
  const coverage = coverageLine(report);
  lines.push('', head, exit, seed, ...(coverage ? [paint('dim', coverage)] : []), '');
  return lines.join('\n');
}

function ruleLine(report: ConformanceReport, rule: RuleResult, paint: (code: string, text: string) => string): string {
  const mark = paint(rule.verdict, MARK[rule.verdict]!);
  return `  ${mark} ${rule.id} (${rule.level}): ${clip(plainReason(shownReason(report, rule)), REASON_MAX)}`;
}

/** ", and 2 unknown (note 1f2e..., a note created without an id)": creates the kit could not confirm either way. */
export function unconfirmed(report: ConformanceReport): string {
  const ids = report.leftovers_unconfirmed ?? [];
  if (ids.length === 0) return '';
  const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? `, ${ids.length - 5} more` : '');
  return `, and ${ids.length} unknown (${shown})`;
}
