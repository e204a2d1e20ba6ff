import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markInterrupted } from '../../reporters/interrupted.js';
import { renderJson } from '../../reporters/render-json.js';
import { REPORT_FORMAT_VERSION, REPORT_SCHEMA } from '../../reporters/report.js';
import { reportProblems, reportSchema } from '../../reporters/report-schema.js';
import { packageRoot } from '../../spec/paths.js';
import { catalogueReport } from './fixtures.js';

/**
 * spec/report.schema.json describes the JSON report (the proofs hold every report they make to it:
 * test/report-schema-setup.ts). Here: a report of every verdict, with evidence, a repro, a seed,
 * a quota and an interruption validates, and what the schema exists to refuse is refused.
 */
const asJson = (value: unknown) => JSON.parse(renderJson(value as never)) as Record<string, unknown>;

describe('the JSON report schema', () => {
  const report = asJson(catalogueReport({ bigBody: 10 }));

  it('names itself and the one format version the report carries', () => {
    const schema = reportSchema() as { $id: string; properties: Record<string, { const?: unknown }> };
    expect(schema.$id).toBe(REPORT_SCHEMA);
    expect(schema.properties.$schema?.const).toBe(REPORT_SCHEMA);
    expect(schema.properties.format_version?.const).toBe(REPORT_FORMAT_VERSION);
    expect(Object.keys(report).slice(0, 2)).toEqual(['$schema', 'format_version']);
  });

  it('validates a report of every verdict, and an interrupted one with a spent quota', () => {
    expect(reportProblems(report)).toEqual([]);
    const interrupted = markInterrupted(
      { ...catalogueReport(), quota: { used: 150, limit: 150, reset_time: '2026-01-01T00:00:00Z' } },
      { signal: 'SIGTERM', exit_code: 143 },
    );
    expect(reportProblems(asJson({ ...interrupted, leftovers_unconfirmed: ['id-1'] }))).toEqual([]);
  });

  it('lists every field the report type has (a field added to the report is added here too)', () => {
    const source = readFileSync(join(packageRoot, 'reporters', 'report.ts'), 'utf8');
    const type = /export interface ConformanceReport \{([\s\S]*?)\n\}/.exec(source)![1]!;
    const fields = [...type.matchAll(/^ {2}(\$?[a-z_]+)\??:/gm)].map((m) => m[1]!);
    const schema = reportSchema() as { properties: Record<string, unknown> };
    // duration_ms is left out of the JSON (it is the run's wall time, for JUnit only).
    expect(fields.filter((f) => f !== 'duration_ms' && !(f in schema.properties))).toEqual([]);
  });

  it('refuses an unknown field, a missing one, a wrong verdict and another format version', () => {
    const rules = report.rules as Array<Record<string, unknown>>;
    expect(reportProblems({ ...report, extra: 1 })).toEqual(['/extra: unknown field']);
    const { tier: _tier, ...noTier } = report;
    expect(reportProblems(noTier)).toEqual(['/tier: required field is missing']);
    expect(reportProblems({ ...report, rules: [{ ...rules[0], verdict: 'passed' }] }).join('\n')).toMatch(
      /^\/rules\/0\/verdict: must be one of \["pass","fail","error","skipped","warn","differs"\]/,
    );
    expect(reportProblems({ ...report, format_version: 2 })).toEqual([
      '/format_version: must be equal to constant (got 2)',
    ]);
  });
});
