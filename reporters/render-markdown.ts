import { coverageLine, targetsLeft } from './coverage.js';
import {
  byArea,
  causes,
  countsLine,
  DIFFERS,
  differsNote,
  documentQuote,
  headline,
  leftIds,
  REPRO_WORDS,
  replayWords,
  requestsWords,
  rulesInDisplayOrder,
  shownReason,
  skipReasons,
  standingOf,
} from './group.js';
import { type CheckResult, type ConformanceReport, type RuleResult, VERDICTS } from './report.js';
import { clip, plainReason, plural } from './text.js';

/**
 * Under GitHub's 65,536 limit of a pull-request comment, with room to spare, in UTF-8 bytes: a
 * report of non-ASCII text cut at 60,000 characters held 64,000 bytes and more.
 */
export const MARKDOWN_MAX_BYTES = 60_000;
/** The share of the limit failing rules may fill in full; later ones get a line each, so more of them show. */
const DETAILED_SHARE = 0.6;

export interface MarkdownOptions {
  /** The most UTF-8 bytes the output may have (default 60,000). */
  maxBytes?: number;
  /** Where the full report is (a path or URL), for the truncation notice. */
  fullReport?: string;
}

/**
 * Markdown for a pull request or `$GITHUB_STEP_SUMMARY`: the headline, the rules that fail the run
 * with reason and repro, then everything else folded in <details>. Never longer than maxBytes: what
 * does not fit is left out with a pointer to the full report, the details first; the counts of every
 * area stay, in a table under the headline.
 */
export function renderMarkdown(report: ConformanceReport, options: MarkdownOptions = {}): string {
  const out = new Budget(options.maxBytes ?? MARKDOWN_MAX_BYTES);
  const assumed = report.profile_declared ? '' : ' (assumed: no profile given)';
  out.add(
    [
      `## notes-conformance: ${md(headline(report))}`,
      '',
      `Target \`${report.target.replace(/`/g, "'")}\` · profile **${md(report.profile)}**${assumed} · seed ${report.seed} · ${requestsWords(report)} · ${plural(report.leftovers, 'resource')} left behind${md(leftIds(report, 20))}`,
      '',
      `**Exit ${report.exit_code}**: ${md(report.exit_reason)}.`,
      '',
      `| Area | ${VERDICTS.join(' | ')} |`,
      `|---|${VERDICTS.map(() => '---:|').join('')}`,
      ...byArea(report).map((a) => `| ${md(a.area)} | ${VERDICTS.map((v) => a.counts[v]).join(' | ')} |`),
      '',
      '',
    ].join('\n'),
  );
  const grouped = causes(report);
  if (grouped.length > 0)
    out.section(
      `### Causes (${grouped.length})`,
      grouped.map(
        (c) =>
          `- **${md(c.cause)}**: ${plural(c.ids.length, 'rule')} cannot be judged (${c.ids.map((id) => `\`${id}\``).join(', ')})\n`,
      ),
      'cause(s)',
    );
  const ordered = rulesInDisplayOrder(report);
  const group = (standing: ReturnType<typeof standingOf>) => ordered.filter((r) => standingOf(report, r) === standing);
  const failing = group('failing');
  if (failing.length > 0) {
    // In full (reason, repro) while they take up to DETAILED_SHARE of the limit; the rest one line each.
    const detailed: string[] = [];
    const brief: string[] = [];
    let used = out.used;
    for (const rule of failing) {
      const block = failureBlock(rule);
      if (brief.length === 0 && used + bytes(block) <= out.max * DETAILED_SHARE) {
        detailed.push(block);
        used += bytes(block);
      } else
        brief.push(`- \`${rule.id}\` (${rule.level}) ${rule.verdict}: ${md(clip(plainReason(rule.reason), 200))}\n`);
    }
    if (brief.length > 0)
      detailed.push(
        `\n${plural(brief.length, 'more failing rule')}, in brief (their repro is in the full report):\n\n`,
      );
    out.section(`### Rules that fail the run (${failing.length})`, [...detailed, ...brief], 'failing rule(s)');
  }
  if (report.run_errors.length > 0)
    out.section(
      `### Run errors (${report.run_errors.length})`,
      report.run_errors.map((e) => `- ${md(clip(e, 1000))}\n`),
      'run error(s)',
    );
  const foldedRules = (title: string, rules: RuleResult[], line: (r: RuleResult) => string) => {
    if (rules.length > 0)
      out.folded(
        `${title} (${rules.length})`,
        rules.map((r) => `- \`${r.id}\`: ${md(clip(plainReason(line(r)), 600))}\n`),
        'rule(s)',
      );
  };
  foldedRules('Warnings and errors, not counted', group('warn'), (r) => `${r.verdict}: ${shownReason(report, r)}`);
  foldedRules(`Rules that ${DIFFERS}`, group('differs'), differsNote);
  const coverage = report.behaviour_coverage;
  if (coverage) {
    const left = targetsLeft(coverage);
    out.folded(
      `${md(coverageLine(report)!)}; ${plural(coverage.total - coverage.covered, 'target')} left`,
      left.map(
        (g) =>
          `- ${g.targets.length} ${g.status} (${md(g.why)}): ${g.targets
            .slice(0, 25)
            .map((t) => `\`${t.id}\``)
            .join(', ')}${g.targets.length > 25 ? `, ${g.targets.length - 25} more in the JSON report` : ''}\n`,
      ),
      'coverage group(s)',
    );
  }
  const skips = skipReasons(report.rules);
  if (skips.length > 0) {
    out.folded(
      `Skipped (${group('skipped').length})`,
      skips.map(
        (s) => `- ${s.count} x ${md(clip(plainReason(s.reason), 600))}: ${s.ids.map((id) => `\`${id}\``).join(', ')}\n`,
      ),
      'skip reason(s)',
    );
  }
  out.folded(
    `All ${plural(report.rules.length, 'rule')} by area`,
    byArea(report).map((area) =>
      [
        `**${md(area.area)}**: ${countsLine(area.counts)}`,
        '',
        '| Rule | Level | Verdict | Reason |',
        '|---|---|---|---|',
        ...area.rules.map(
          (r) => `| \`${r.id}\` | ${r.level} | ${r.verdict} | ${md(clip(plainReason(shownReason(report, r)), 200))} |`,
        ),
        '',
        '',
      ].join('\n'),
    ),
    'area table(s)',
  );
  return out.finish(options.fullReport);
}

function failureBlock(rule: RuleResult): string {
  const lines = [
    `#### \`${rule.id}\` (${rule.level}): ${rule.verdict}`,
    '',
    `${md(clip(rule.statement, 400))} _(${md(rule.section)})_`,
    '',
    ...(rule.verdict === 'fail' ? [`> ${md(clip(documentQuote(rule), 1000))}`, ''] : []),
  ];
  const checks = rule.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'error');
  for (const check of checks.slice(0, 5)) lines.push(...checkLines(check));
  if (checks.length > 5) lines.push(`- and ${plural(checks.length - 5, 'more check')} in the full report`, '');
  if (checks.length === 0) lines.push(`- ${md(clip(plainReason(rule.reason), 1000))}`, '');
  return `${lines.join('\n')}\n`;
}

function checkLines(check: CheckResult): string[] {
  const lines = [
    `- **${check.verdict}** ${md(check.name)} (\`${check.file}\`)${check.seed !== undefined ? `, seed ${check.seed}` : ''}: ${md(clip(plainReason(check.message), 1000))}`,
  ];
  const replay = replayWords(check.replayed);
  if (replay) lines.push('', `  _${md(clip(replay, 600))}_`);
  if (check.repro) {
    lines.push('', `  Reproduce (${REPRO_WORDS}):`, '', ...fence(clip(check.repro, 2500), 'sh').map((l) => `  ${l}`));
  } else {
    for (const x of (check.evidence ?? []).slice(-3))
      lines.push(`  - \`${x.method} ${x.path.replace(/`/g, '%60')}\` -> ${x.status}`);
  }
  lines.push('');
  return lines;
}

/** A fence longer than any backtick run inside, so a repro with ``` cannot end it early. */
function fence(body: string, lang: string): string[] {
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return [`${ticks}${lang}`, ...body.split('\n'), ticks];
}

/** Inline text: one line, Markdown punctuation and HTML escaped (GitHub renders HTML in summaries). */
function md(text: string): string {
  return text
    .replace(/\r?\n/g, ' ')
    .replace(/[\\`*_[\]|#~]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** Output that refuses to grow past its limit (in UTF-8 bytes); sections stop where their next entry would not fit. */
class Budget {
  private readonly parts: string[] = [];
  private length = 0;

  get used(): number {
    return this.length;
  }
  private omitted = new Map<string, number>();
  /** Room kept for the truncation notice and the closing of an open <details>. */
  private static readonly RESERVE = 600;

  constructor(readonly max: number) {}

  add(text: string): boolean {
    const size = bytes(text);
    if (this.omitted.size > 0 || this.length + size + Budget.RESERVE > this.max) return false;
    this.parts.push(text);
    this.length += size;
    return true;
  }

  section(title: string, entries: readonly string[], unit: string): void {
    if (!this.add(`${title}\n\n`)) {
      this.omit(unit, entries.length);
      return;
    }
    this.entries(entries, unit);
  }

  folded(summary: string, entries: readonly string[], unit: string): void {
    if (!this.add(`<details><summary>${summary.replace(/</g, '&lt;')}</summary>\n\n`)) {
      this.omit(unit, entries.length);
      return;
    }
    this.entries(entries, unit);
    // Closes even when the entries were cut (RESERVE keeps room for it).
    this.parts.push('</details>\n\n');
    this.length += 12;
  }

  private entries(entries: readonly string[], unit: string): void {
    for (let i = 0; i < entries.length; i++) {
      if (!this.add(entries[i]!)) {
        this.omit(unit, entries.length - i);
        return;
      }
    }
    this.add('\n');
  }

  private omit(unit: string, count: number): void {
    this.omitted.set(unit, (this.omitted.get(unit) ?? 0) + count);
  }

  finish(fullReport?: string): string {
    let text = this.parts.join('');
    if (this.omitted.size > 0) {
      const what = [...this.omitted]
        .filter(([, n]) => n > 0)
        .map(([unit, n]) => `${n} ${unit.replace('(s)', n === 1 ? '' : 's')}`)
        .join(', ');
      const where = fullReport ? `the full report: ${md(clip(fullReport, 200))}` : 'the full report (--json or --html)';
      text += `\n---\n**Truncated** to stay under ${this.max.toLocaleString('en-US')} bytes${what ? `: ${what} not shown` : ''}. See ${where}.\n`;
    }
    return text.endsWith('\n') ? text : `${text}\n`;
  }
}
