import type { ConformanceReport } from './report.js';

/** The report as JSON: keys in a fixed order, rules sorted by id, no timestamps (byte-stable). */
export function renderJson(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
