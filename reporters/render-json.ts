import type { ConformanceReport } from './report.js';

/**
 * The report as JSON: keys in a fixed order, rules sorted by id, no timestamps and no durations
 * (check durations vary run to run; they are in the JUnit `time` attributes), so two runs with the
 * same outcome give the same bytes on any machine.
 */
export function renderJson(report: ConformanceReport): string {
  return `${JSON.stringify(report, (key, value: unknown) => (key === 'duration_ms' ? undefined : value), 2)}\n`;
}
