import { assumedProfileNote, byArea, standingOf } from './group.js';
import type { ConformanceReport, RuleResult } from './report.js';
import { clip, plainReason } from './text.js';

/**
 * JUnit XML, one suite per area and one test case per rule. Failures and errors are exactly the
 * rules that make the exit status non-zero (plus a `run` suite for run errors and an interruption),
 * so CI and the kit agree. Profile rules judged against assumed defaults, skipped rules and
 * "not run" rules are <skipped message="...">; advisory warnings pass with their note in system-out.
 * Written by hand (not junit-report-builder) because the builder cannot give <skipped> a message.
 */
export function renderJunit(report: ConformanceReport): string {
  const suites = byArea(report).map((area) => suite(area.area, area.rules.map((rule) => ruleCase(report, rule))));
  const runCases = [
    ...report.run_errors.map((e, i) => testCase('notes-conformance.run', `run error ${i + 1}`, 0, `<error message="${attr(clip(e, 1000))}" type="RunError"/>`)),
    ...(report.interrupted
      ? [testCase('notes-conformance.run', 'run interrupted', 0,
        `<error message="${attr(`interrupted by ${report.interrupted.signal}; exit ${report.interrupted.exit_code}: ${report.exit_reason}`)}" type="Interrupted"/>`)]
      : []),
  ];
  if (runCases.length > 0) suites.push(suite('run', runCases));
  const total = totals(suites);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${attr(`notes-conformance ${report.target}`)}"${counts(total)}>\n${suites.map((s) => s.xml).join('')}</testsuites>\n`;
}

interface Case { xml: string; failure: number; error: number; skipped: number; seconds: number }
interface Suite extends Case { tests: number }

function ruleCase(report: ConformanceReport, rule: RuleResult): Case {
  const seconds = rule.checks.reduce((sum, c) => sum + (c.duration_ms ?? 0), 0) / 1000;
  const details = rule.checks.map((c) => `${c.verdict.toUpperCase()} ${c.name} (${c.file})${c.message ? `: ${plainReason(c.message)}` : ''}`
    + `${c.seed !== undefined ? ` [seed ${c.seed}]` : ''}${c.repro ? `\n  repro: ${c.repro}` : ''}`).join('\n');
  const reason = clip(plainReason(rule.reason), 1000);
  const className = `notes-conformance.${rule.area}`;
  const name = `${rule.id} (${rule.level})`;
  const out = details ? `<system-out>${text(details)}</system-out>` : '';
  switch (standingOf(report, rule)) {
    case 'failing':
      return rule.verdict === 'fail'
        ? testCase(className, name, seconds, `<failure message="${attr(reason)}" type="NonConformance"/>${out}`)
        : testCase(className, name, seconds, `<error message="${attr(reason)}" type="KitError"/>${out}`);
    case 'assumed':
      return testCase(className, name, seconds, `<skipped message="${attr(clip(plainReason(assumedProfileNote(rule)), 1200))}"/>${out}`);
    case 'skipped':
      return testCase(className, name, seconds, `<skipped message="${attr(reason)}"/>${out}`);
    case 'warn':
      return testCase(className, name, seconds, `<system-out>${text(`WARN (${rule.level}, not counted): ${reason}\n${details}`)}</system-out>`);
    default:
      return testCase(className, name, seconds, out);
  }
}

function testCase(className: string, name: string, seconds: number, body: string): Case {
  const open = `    <testcase classname="${attr(className)}" name="${attr(name)}" time="${seconds.toFixed(3)}"`;
  return {
    xml: body ? `${open}>\n      ${body}\n    </testcase>\n` : `${open}/>\n`,
    failure: body.startsWith('<failure') ? 1 : 0,
    error: body.startsWith('<error') ? 1 : 0,
    skipped: body.startsWith('<skipped') ? 1 : 0,
    seconds,
  };
}

function suite(name: string, cases: readonly Case[]): Suite {
  const total = totals(cases.map((c) => ({ ...c, tests: 1 })));
  return { ...total, xml: `  <testsuite name="${attr(name)}"${counts(total)}>\n${cases.map((c) => c.xml).join('')}  </testsuite>\n` };
}

function totals(parts: ReadonlyArray<Omit<Suite, 'xml'>>): Omit<Suite, 'xml'> {
  const sum = (key: 'tests' | 'failure' | 'error' | 'skipped' | 'seconds') => parts.reduce((n, p) => n + p[key], 0);
  return { tests: sum('tests'), failure: sum('failure'), error: sum('error'), skipped: sum('skipped'), seconds: sum('seconds') };
}

function counts(t: Omit<Suite, 'xml'>): string {
  return ` tests="${t.tests}" failures="${t.failure}" errors="${t.error}" skipped="${t.skipped}" time="${t.seconds.toFixed(3)}"`;
}

/** XML 1.0 cannot carry most control characters even escaped: they become U+FFFD. */
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function text(value: string): string {
  return value.replace(INVALID_XML, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
