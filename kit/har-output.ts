import { dirname, relative, resolve } from 'node:path';
import type { ConformanceReport, EvidenceExchange } from '../reporters/report.js';
import { type HarEntry, harDocument } from './core/har.js';
import { redactDeep } from './core/redact.js';

/**
 * The run's recording (`--har`) and the report, tied both ways: each evidence exchange names its
 * entry (the HTML report links it), and each entry a failing rule judged says so in its comment.
 */
export function linkHar(report: ConformanceReport, har: string, html: string | undefined): ConformanceReport {
  // The link is followed from the HTML page, so it is relative to the page's directory.
  const file = html ? relative(dirname(resolve(html)), resolve(har)) : har;
  return {
    ...report,
    rules: report.rules.map((rule) => ({
      ...rule,
      checks: rule.checks.map((check) =>
        check.evidence
          ? {
              ...check,
              evidence: check.evidence.map((x): EvidenceExchange => {
                const id = (x as EvidenceExchange & { id?: string }).id;
                return id ? { ...x, har_entry: { file, id } } : x;
              }),
            }
          : check,
      ),
    })),
  };
}

/** The HAR 1.2 text: the entries with the failing rules that judged each, redacted with every secret of the run. */
export function harText(
  entries: readonly HarEntry[],
  report: ConformanceReport,
  version: string,
  secrets: readonly string[],
): string {
  const judgedBy = new Map<string, string[]>();
  for (const rule of report.rules) {
    if (rule.verdict !== 'fail' && rule.verdict !== 'error') continue;
    for (const check of rule.checks) {
      const judged = check.evidence?.find((x) => x.judged);
      const id = (judged as (EvidenceExchange & { id?: string }) | undefined)?.id;
      if (id) judgedBy.set(id, [...(judgedBy.get(id) ?? []), `${rule.id} (${rule.verdict})`]);
    }
  }
  const annotated = entries.map((entry) => {
    const rules = judgedBy.get(entry._id);
    return rules ? { ...entry, comment: `judged by ${[...new Set(rules)].join(', ')}` } : entry;
  });
  return `${JSON.stringify(redactDeep(harDocument(annotated, version), [...secrets]), null, 1)}\n`;
}
