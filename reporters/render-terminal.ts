import { byArea, countsLine } from './group.js';
import type { ConformanceReport } from './report.js';

const MARK: Record<string, string> = { fail: 'FAIL ', error: 'ERROR', warn: 'WARN ', skipped: 'SKIP ', pass: 'PASS ' };

/** The terminal summary: counts per area, then each rule that did not pass with a one-line reason. */
export function renderTerminal(report: ConformanceReport, options: { quiet?: boolean; showSkipped?: boolean } = {}): string {
  const lines: string[] = [];
  const total = report.rules.length;
  const headline = `notes-conformance: ${total} rules against ${report.target} (profile ${report.profile}${report.profile_declared ? '' : ', assumed'}): ${countsLine(report.summary)}; ${report.requests} requests, ${report.leftovers} left behind`;
  if (options.quiet) return `${headline}\n`;
  lines.push('');
  for (const area of byArea(report)) {
    lines.push(`  ${area.area.padEnd(12)} ${countsLine(area.counts)}`);
  }
  const notable = report.rules.filter((r) => r.verdict === 'fail' || r.verdict === 'error' || r.verdict === 'warn' || (options.showSkipped && r.verdict === 'skipped'));
  if (notable.length > 0) lines.push('');
  for (const rule of notable) {
    lines.push(`  ${MARK[rule.verdict]} ${rule.id} (${rule.level}): ${rule.reason}`);
  }
  for (const error of report.run_errors) lines.push(`  RUN ERROR ${error}`);
  const skipped = report.rules.filter((r) => r.verdict === 'skipped');
  if (skipped.length > 0 && !options.showSkipped) {
    const reasons = new Map<string, number>();
    for (const r of skipped) reasons.set(r.reason, (reasons.get(r.reason) ?? 0) + 1);
    lines.push('', `  skipped: ${[...reasons].map(([reason, n]) => `${n} (${reason})`).join('; ')}`);
  }
  lines.push('', headline, `exit ${report.exit_code}: ${report.exit_reason}`, `seed ${report.seed} (replay property runs with --seed ${report.seed})`, '');
  return lines.join('\n');
}
