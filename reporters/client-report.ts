import type { EvidenceExchange } from '../spec/check-meta.js';
import { loadRules } from '../spec/rules.js';
import { kitVersion } from '../spec/version.js';
import { renderHtml } from './render-html.js';
import { renderJson } from './render-json.js';
import { renderMarkdown } from './render-markdown.js';
import { buildReport, type CheckOutcome, type ConformanceReport } from './report.js';

/**
 * `notes-conformance fake --client-report FILE`: what the fake's clients broke, as a conformance
 * report of the client (the same catalogue and renderers as the kit's reports). A rule a request
 * broke fails (a profile rule differs, as in a run without a declared profile); a rule the client
 * relied on beyond the document (names it does not show) warns. The shape of the fake's
 * ClientReportData, restated: reporters/ reads nothing of fake/.
 */
export interface ClientFindingInput {
  rule: string;
  kind: 'broke' | 'relied';
  count: number;
  first: { at: string; method: string; url: string; status: number; field?: string; message?: string };
  names: string[];
}
export interface ClientReportInput {
  since: string;
  requests: number;
  profile: string;
  findings: ClientFindingInput[];
}

export function clientConformanceReport(data: ClientReportInput, target: string): ConformanceReport {
  const known = new Map(loadRules().map((r) => [r.id, r]));
  const findings = data.findings.filter((f) => known.has(f.rule));
  const outcomes: CheckOutcome[] = findings.map((f) => ({
    name: `${f.kind === 'broke' ? 'requests that broke it' : 'requests that relied on it'} (${f.count})`,
    file: 'client requests',
    rules: [f.rule],
    state: 'failed',
    errors: [],
    // Both judged against the rule; a reliance is turned into a warning below (checks have no warn).
    verdicts: { [f.rule]: { verdict: 'fail', message: line(f, known.get(f.rule)!.quote), judged: 0 } },
    evidence: [evidence(f)],
  }));
  const report = buildReport({
    version: kitVersion(),
    target,
    profileName: data.profile,
    // Judged by the document, as the fake was started: a profile rule broken "differs".
    profileDeclared: false,
    seed: 0,
    only: [],
    rules: [...new Set(findings.map((f) => f.rule))].map((id) => known.get(id)!),
    outcomes,
    requests: data.requests,
    leftovers: 0,
    runErrors: [],
  });
  // A name the document does not show is the client's reliance, not a fault: a warning.
  for (const rule of report.rules)
    if (findings.every((f) => f.rule !== rule.id || f.kind === 'relied')) {
      report.summary[rule.verdict]--;
      rule.verdict = 'warn';
      for (const check of rule.checks) check.verdict = 'warn';
      report.summary.warn++;
    }
  return report;
}

export type ClientReportFormat = 'json' | 'md' | 'html';

export function renderClientReport(data: ClientReportInput, format: ClientReportFormat, target: string): string {
  const report = clientConformanceReport(data, target);
  return format === 'md' ? renderMarkdown(report) : format === 'html' ? renderHtml(report) : renderJson(report);
}

function line(f: ClientFindingInput, quote: readonly string[]): string {
  const field = f.first.field ? ` (${f.first.field})` : '';
  const names = f.names.length > 0 ? `; names the document does not show: ${f.names.join(', ')}` : '';
  const first = `first ${f.first.at}: ${f.first.method} ${f.first.url}${field} answered ${f.first.status}`;
  const words = quote.map((q) => `"${q}"`).join(' and ');
  return `${f.count} request(s); ${first}${f.first.message ? `: ${f.first.message}` : ''}${names}; the document: ${words}`;
}

function evidence(f: ClientFindingInput): EvidenceExchange {
  return {
    method: f.first.method,
    path: f.first.url,
    requestHeaders: {},
    status: f.first.status,
    headers: {},
    text: f.first.message ?? '',
    judged: true,
  };
}
