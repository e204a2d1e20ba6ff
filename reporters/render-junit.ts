import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import {
  byArea,
  differsNote,
  documentQuote,
  REPRO_WORDS,
  replayWords,
  standingOf,
  uncountedErrorNote,
} from './group.js';
import type { ConformanceReport, RuleResult } from './report.js';
import { clip, plainReason } from './text.js';

/**
 * JUnit XML, one suite per area and one test case per rule. Failures and errors are exactly the
 * rules that make the exit status non-zero (plus a `run` suite for run errors and an interruption),
 * so CI and the kit agree. Rules that differ from the reference profile, uncounted errors, skipped rules and
 * "not run" rules are <skipped message="...">; advisory warnings pass with their note in system-out.
 * The structure is decided here, the XML is written by xmlbuilder2 (escaping, characters XML 1.0
 * cannot carry replaced by U+FFFD).
 */
export function renderJunit(report: ConformanceReport): string {
  // Times are wall times: the run's own, and a suite or test case never longer than it (a check that
  // judges several rules ran once, so it counts once in a suite; summing per rule overstated a run ~3x).
  const wall = report.duration_ms !== undefined ? report.duration_ms / 1000 : checkSeconds(report.rules);
  const within = (seconds: number) => Math.min(seconds, wall);
  const suites = byArea(report).map((area) => ({
    name: area.area,
    seconds: within(checkSeconds(area.rules)),
    cases: area.rules.map((rule) => ruleCase(report, rule, within(checkSeconds([rule])))),
  }));
  const runCases: Case[] = [
    ...report.run_errors.map(
      (e, i): Case => ({
        className: 'notes-conformance.run',
        name: `run error ${i + 1}`,
        seconds: 0,
        outcome: { kind: 'error', message: clip(e, 1000), type: 'RunError' },
      }),
    ),
    ...(report.interrupted
      ? [
          {
            className: 'notes-conformance.run',
            name: 'run interrupted',
            seconds: 0,
            outcome: {
              kind: 'error',
              message: `interrupted by ${report.interrupted.signal}; exit ${report.interrupted.exit_code}: ${report.exit_reason}`,
              type: 'Interrupted',
            },
          } satisfies Case,
        ]
      : []),
  ];
  if (runCases.length > 0) suites.push({ name: 'run', seconds: 0, cases: runCases });

  const doc = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '\ufffd' });
  const root = doc.ele('testsuites', {
    name: oneLine(`notes-conformance ${report.target}`),
    ...counts(
      suites.flatMap((s) => s.cases),
      wall,
    ),
  });
  for (const suite of suites) {
    const element = root.ele('testsuite', { name: oneLine(suite.name), ...counts(suite.cases, suite.seconds) });
    for (const c of suite.cases) writeCase(element, c);
  }
  return `${doc.end({ prettyPrint: true, indent: '  ' })}\n`;
}

interface Case {
  className: string;
  name: string;
  seconds: number;
  /** `text`: the element's own text (a failure's: the document's words it breaks). */
  outcome?: { kind: 'failure' | 'error' | 'skipped'; message: string; type?: string; text?: string };
  out?: string;
}

/** Seconds the checks of these rules ran, each check counted once (by file and name). */
function checkSeconds(rules: readonly RuleResult[]): number {
  const checks = new Map<string, number>();
  for (const rule of rules) for (const c of rule.checks) checks.set(`${c.file}\u0000${c.name}`, c.duration_ms ?? 0);
  return [...checks.values()].reduce((sum, ms) => sum + ms, 0) / 1000;
}

function ruleCase(report: ConformanceReport, rule: RuleResult, seconds: number): Case {
  const details = rule.checks
    .map(
      (c) =>
        `${c.verdict.toUpperCase()} ${c.name} (${c.file})${c.message ? `: ${plainReason(c.message)}` : ''}` +
        `${c.seed !== undefined ? ` [seed ${c.seed}]` : ''}${c.replayed ? `\n  ${replayWords(c.replayed)}` : ''}` +
        `${c.repro ? `\n  repro (${REPRO_WORDS}):\n${c.repro}` : ''}`,
    )
    .join('\n');
  const reason = clip(plainReason(rule.reason), 1000);
  const base = {
    className: `notes-conformance.${rule.area}`,
    name: `${rule.id} (${rule.level})`,
    seconds,
    ...(details ? { out: details } : {}),
  };
  switch (standingOf(report, rule)) {
    case 'failing':
      return {
        ...base,
        outcome:
          rule.verdict === 'fail'
            ? { kind: 'failure', message: reason, type: 'NonConformance', text: documentQuote(rule) }
            : { kind: 'error', message: reason, type: 'KitError' },
      };
    case 'differs':
      return { ...base, outcome: { kind: 'skipped', message: clip(plainReason(differsNote(rule)), 1200) } };
    case 'skipped':
      return { ...base, outcome: { kind: 'skipped', message: reason } };
    case 'warn':
      // An error that does not count could not be judged: skipped, with why; an advisory warning passes.
      return rule.verdict === 'error'
        ? { ...base, outcome: { kind: 'skipped', message: clip(plainReason(uncountedErrorNote(rule)), 1200) } }
        : { ...base, out: `WARN (${rule.level}, not counted): ${reason}\n${details}` };
    default:
      return base;
  }
}

function writeCase(suite: XMLBuilder, c: Case): void {
  const element = suite.ele('testcase', {
    classname: oneLine(c.className),
    name: oneLine(c.name),
    time: c.seconds.toFixed(3),
  });
  if (c.outcome) {
    const outcome = element.ele(c.outcome.kind, {
      message: oneLine(c.outcome.message),
      ...(c.outcome.type ? { type: c.outcome.type } : {}),
    });
    if (c.outcome.text) outcome.txt(c.outcome.text);
  }
  if (c.out) element.ele('system-out').txt(c.out);
}

function counts(cases: readonly Case[], seconds: number): Record<string, string> {
  const n = (kind: string) => String(cases.filter((c) => c.outcome?.kind === kind).length);
  return {
    tests: String(cases.length),
    failures: n('failure'),
    errors: n('error'),
    skipped: n('skipped'),
    time: seconds.toFixed(3),
  };
}

/**
 * Attribute values on one line: a parser turns a line break or tab in an attribute into a blank
 * anyway (XML attribute-value normalisation), and xmlbuilder2 writes them raw; the text with its
 * line breaks is in <system-out>.
 */
function oneLine(value: string): string {
  return value.replace(/\r\n|[\r\n\t]/g, ' ');
}
