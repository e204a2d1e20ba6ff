import { byArea, countsLine, curlOf } from './group.js';
import type { ConformanceReport } from './report.js';

const esc = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A Markdown matrix for reviews: summary, a table per area, and evidence for what did not pass. */
export function renderMarkdown(report: ConformanceReport): string {
  const out: string[] = [
    `# Conformance report: ${report.target}`,
    '',
    `Profile **${report.profile}**${report.profile_declared ? '' : ' (assumed: no profile given)'}, seed ${report.seed}, ${report.requests} requests, ${report.leftovers} resource(s) left behind.`,
    '',
    `**${countsLine(report.summary)}**. Exit ${report.exit_code}: ${report.exit_reason}.`,
    '',
  ];
  for (const area of byArea(report)) {
    out.push(`## ${area.area}`, '', countsLine(area.counts), '', '| Rule | Level | Verdict | Reason |', '|---|---|---|---|');
    for (const rule of area.rules) out.push(`| \`${rule.id}\` | ${rule.level} | ${rule.verdict} | ${esc(rule.reason)} |`);
    out.push('');
  }
  const failing = report.rules.filter((r) => r.verdict === 'fail' || r.verdict === 'error');
  if (failing.length > 0) out.push('## Evidence', '');
  for (const rule of failing) {
    out.push(`### ${rule.id}`, '', `${rule.statement} (${rule.section})`, '');
    for (const check of rule.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'error')) {
      out.push(`- **${check.verdict}** ${check.name} (\`${check.file}\`): ${esc(check.message)}${check.seed !== undefined ? ` (seed ${check.seed})` : ''}`);
      for (const x of check.evidence ?? []) {
        out.push('', '  ```', `  ${curlOf(report.target, x)}`, `  # -> ${x.status} ${x.text.slice(0, 300).replace(/\n/g, ' ')}`, '  ```');
      }
    }
    out.push('');
  }
  return `${out.join('\n')}\n`;
}
