import { describe, expect, it } from 'vitest';
import { convert } from 'xmlbuilder2';
import { blockingRules } from '../../reporters/group.js';
import { renderJson } from '../../reporters/render-json.js';
import { renderJunit } from '../../reporters/render-junit.js';
import { buildReport } from '../../reporters/report.js';
import { catalogueReport, outcome, rule } from './fixtures.js';

type XmlObject = { [key: string]: XmlValue };
type XmlValue = string | XmlObject | XmlValue[];

/** The XML as xmlbuilder2 reads it (its object form keeps the five entities escaped: decoded here). */
function parse(xml: string): XmlObject {
  return convert(xml, { format: 'object' }) as unknown as XmlObject;
}

function decoded(value: XmlValue | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const entities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
  return value.replace(/&(lt|gt|amp|quot|apos);/g, (_m, name: string) => entities[name]!);
}

function elements(value: XmlValue | undefined): XmlObject[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter(
    (v): v is XmlObject => typeof v === 'object' && !Array.isArray(v),
  );
}

/** Test case name -> the element inside it (failure, error, skipped) or 'pass'. */
function outcomes(xml: string): Map<string, { kind: string; message?: string; time: string }> {
  const cases = new Map<string, { kind: string; message?: string; time: string }>();
  for (const suite of elements((parse(xml).testsuites as XmlObject).testsuite)) {
    for (const testCase of elements(suite.testcase)) {
      const kind = ['failure', 'error', 'skipped'].find((k) => k in testCase) ?? 'pass';
      const message = kind === 'pass' ? undefined : decoded((testCase[kind] as XmlObject)['@message']);
      cases.set(decoded(testCase['@name'])!, {
        kind,
        time: decoded(testCase['@time'])!,
        ...(message !== undefined ? { message } : {}),
      });
    }
  }
  return cases;
}

/** The counts of the root element or of one suite. */
function countsOf(element: XmlObject): Record<string, string | undefined> {
  return Object.fromEntries(['tests', 'failures', 'errors', 'skipped'].map((k) => [k, decoded(element[`@${k}`])]));
}

describe('renderJunit', () => {
  it('has failures and errors for exactly the rules that make the exit status non-zero', () => {
    for (const profileDeclared of [false, true]) {
      const report = catalogueReport({ profileDeclared });
      const xml = renderJunit(report);
      const red = [...outcomes(xml)]
        .filter(([, o]) => o.kind === 'failure' || o.kind === 'error')
        .map(([name]) => name.replace(/ \(.*\)$/, ''))
        .sort();
      expect(red).toEqual(
        blockingRules(report)
          .map((r) => r.id)
          .sort(),
      );
      expect(red.length > 0).toBe(report.exit_code !== 0);
      expect(red).toHaveLength(profileDeclared ? 4 : 3);
    }
  });

  it('reports a profile rule judged on assumed defaults as skipped, with what was seen and the key that declares it', () => {
    const report = catalogueReport({ profileDeclared: false });
    const profileRule = report.rules.find((r) => r.level === 'profile' && r.verdict === 'differs')!;
    const entry = outcomes(renderJunit(report)).get(`${profileRule.id} (profile)`)!;
    expect(entry.kind).toBe('skipped');
    expect(entry.message).toContain('differs from the reference profile (not judged)');
    expect(entry.message).toContain('observed: oldest first');
    expect(entry.message).toContain(`declare \`${profileRule.profile_field}\` in a profile`);
  });

  it('gives every <skipped> its reason and every test case a time', () => {
    const report = catalogueReport();
    const xml = renderJunit(report);
    const all = outcomes(xml);
    for (const [name, o] of all) if (o.kind === 'skipped') expect(o.message, name).toMatch(/\S/);
    expect(all.size).toBe(report.rules.length);
    for (const [, o] of all) expect(o.time).toMatch(/^\d+\.\d{3}$/);
    const slow = report.rules.find((r) => r.checks.some((c) => c.duration_ms === 1234))!;
    expect(all.get(`${slow.id} (${slow.level})`)!.time).toBe('1.234');
    expect([...all.values()].filter((o) => o.kind === 'skipped').map((o) => o.message)).toContain(
      'no quota on this target',
    );
    const root = parse(xml).testsuites as XmlObject;
    expect(decoded(root['@name'])).toBe('notes-conformance http://127.0.0.1:4010');
    expect(countsOf(root)).toEqual({ tests: String(report.rules.length), failures: '2', errors: '1', skipped: '4' });
    expect(decoded(root['@time'])).toMatch(/^\d+\.\d{3}$/);
  });

  it('adds run errors as errors of a `run` suite, and escapes what XML cannot carry', () => {
    const report = { ...catalogueReport(), run_errors: ['suites/x.check.ts: SyntaxError: bad <token> "\u0001"'] };
    const xml = renderJunit(report);
    const run = elements((parse(xml).testsuites as XmlObject).testsuite).find((s) => decoded(s['@name']) === 'run')!;
    expect({ ...countsOf(run), time: decoded(run['@time']) }).toEqual({
      tests: '1',
      failures: '0',
      errors: '1',
      skipped: '0',
      time: '0.000',
    });
    expect(outcomes(xml).get('run error 1')).toEqual({
      kind: 'error',
      time: '0.000',
      message: 'suites/x.check.ts: SyntaxError: bad <token> "\ufffd"',
    });
    // Escaped where XML needs it, never a raw control character.
    expect(xml).toContain('bad &lt;token&gt;');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 cannot carry these; the test looks for them
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  });
});

describe('JUnit times', () => {
  /** Three rules of one area judged by one 100 s check, one rule of another by a 30 s check; the run took 140 s. */
  function sharedCheckReport(durationMs?: number) {
    const ids = ['notes.a.one', 'notes.a.two', 'notes.a.three', 'collections.b.one'];
    return buildReport({
      version: '1.0.0',
      target: 'http://127.0.0.1:4010',
      profileName: 'default',
      profileDeclared: true,
      seed: 1,
      only: [],
      rules: ids.map((id) => rule(id)),
      outcomes: [
        outcome({ name: 'the long check', rules: ids.slice(0, 3), state: 'passed', durationMs: 100_000 }),
        outcome({ name: 'another check', rules: [ids[3]!], state: 'passed', durationMs: 30_000 }),
      ],
      requests: 1,
      leftovers: 0,
      runErrors: [],
      ...(durationMs !== undefined ? { durationMs } : {}),
    });
  }
  const times = (xml: string) => {
    const root = parse(xml).testsuites as XmlObject;
    const suites = elements(root.testsuite);
    return {
      run: Number(decoded(root['@time'])),
      suites: Object.fromEntries(suites.map((s) => [decoded(s['@name'])!, Number(decoded(s['@time']))])),
      cases: suites.flatMap((s) => elements(s.testcase).map((c) => Number(decoded(c['@time'])))),
    };
  };

  it("give the suite the run's wall time, count a check judging several rules once, and no case exceeds the run", () => {
    const t = times(renderJunit(sharedCheckReport(140_000)));
    expect(t.run).toBe(140);
    // Summing per rule would give 330 s for a 140 s run (issue 21: 1,292 s for a 377 s run).
    expect(t.suites).toEqual({ notes: 100, collections: 30 });
    expect([...t.cases].sort((a, b) => a - b)).toEqual([30, 100, 100, 100]);
    for (const seconds of t.cases) expect(seconds).toBeLessThanOrEqual(t.run);
    expect(Object.values(t.suites).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(t.run);
  });

  it('clip a case and a suite to the run when checks overlapped (parallel workers)', () => {
    const t = times(renderJunit(sharedCheckReport(60_000)));
    expect(t.run).toBe(60);
    expect(Math.max(...t.cases, ...Object.values(t.suites))).toBe(60);
  });

  it('without a wall time (an older report), add each check once', () => {
    expect(times(renderJunit(sharedCheckReport())).run).toBe(130);
  });

  it('keep the wall time out of the JSON, which stays byte-stable', () => {
    expect(renderJson(sharedCheckReport(140_000))).toBe(renderJson(sharedCheckReport(9_000)));
    expect(renderJson(sharedCheckReport(140_000))).not.toContain('duration_ms');
  });
});
