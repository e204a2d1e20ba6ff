import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { ConformanceReport } from '../reporters/report.js';
import { reportProblems } from '../reporters/report-schema.js';

/** A JSON report the CLI wrote, held to spec/report.schema.json as it is read. */
export function readReportFile(path: string): ConformanceReport {
  const report = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  expect(reportProblems(report), `${path} against spec/report.schema.json`).toEqual([]);
  return report as ConformanceReport;
}
