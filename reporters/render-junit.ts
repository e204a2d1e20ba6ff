import junitModule from 'junit-report-builder';

// CommonJS default export: under NodeNext the builder arrives as the module's default.
const junit = ((junitModule as unknown as { default?: typeof junitModule }).default ?? junitModule) as unknown as import('junit-report-builder').Builder;
import { byArea } from './group.js';
import type { ConformanceReport } from './report.js';

/** JUnit XML: one suite per area, one test case per rule (fail -> failure, error -> error, skipped/warn -> skipped). */
export function renderJunit(report: ConformanceReport): string {
  const builder = junit.newBuilder().name(`notes-conformance ${report.target}`);
  for (const area of byArea(report)) {
    const suite = builder.testSuite().name(area.area);
    for (const rule of area.rules) {
      const test = suite.testCase().className(`notes-conformance.${rule.area}`).name(`${rule.id} (${rule.level})`);
      const details = rule.checks.map((c) => `${c.verdict.toUpperCase()} ${c.name}${c.message ? `: ${c.message}` : ''}`).join('\n');
      if (rule.verdict === 'fail') test.failure(rule.reason, 'NonConformance').standardOutput(details);
      else if (rule.verdict === 'error') test.error(rule.reason, 'KitError').standardOutput(details);
      else if (rule.verdict === 'skipped') test.skipped().standardOutput(rule.reason);
      else if (rule.verdict === 'warn') test.standardOutput(`WARN (advisory): ${rule.reason}\n${details}`);
    }
  }
  return builder.build();
}
