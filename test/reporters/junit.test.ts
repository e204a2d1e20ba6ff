import { describe, expect, it } from 'vitest';
import { blockingRules } from '../../reporters/group.js';
import { renderJunit } from '../../reporters/render-junit.js';
import { catalogueReport } from './fixtures.js';

/** Test case name -> the element inside it (failure, error, skipped) or 'pass'. */
function outcomes(xml: string): Map<string, { kind: string; message?: string; time: string }> {
  const cases = new Map<string, { kind: string; message?: string; time: string }>();
  for (const m of xml.matchAll(/<testcase classname="[^"]*" name="([^"]*)" time="([^"]*)"(\/>|>\n\s*<(failure|error|skipped|system-out)(?: message="([^"]*)")?)/g)) {
    const kind = m[4] === undefined || m[4] === 'system-out' ? 'pass' : m[4];
    cases.set(m[1]!, { kind, time: m[2]!, ...(m[5] !== undefined ? { message: m[5] } : {}) });
  }
  return cases;
}

describe('renderJunit', () => {
  it('has failures and errors for exactly the rules that make the exit status non-zero', () => {
    for (const profileDeclared of [false, true]) {
      const report = catalogueReport({ profileDeclared });
      const xml = renderJunit(report);
      const red = [...outcomes(xml)].filter(([, o]) => o.kind === 'failure' || o.kind === 'error').map(([name]) => name.replace(/ \(.*\)$/, '')).sort();
      expect(red).toEqual(blockingRules(report).map((r) => r.id).sort());
      expect(red.length > 0).toBe(report.exit_code !== 0);
      expect(red).toHaveLength(profileDeclared ? 4 : 3);
    }
  });

  it('reports a profile rule judged on assumed defaults as skipped, with what was seen and the key that declares it', () => {
    const report = catalogueReport({ profileDeclared: false });
    const profileRule = report.rules.find((r) => r.level === 'profile' && r.verdict === 'fail')!;
    const entry = outcomes(renderJunit(report)).get(`${profileRule.id} (profile)`)!;
    expect(entry.kind).toBe('skipped');
    expect(entry.message).toContain('observed: oldest first');
    expect(entry.message).toContain(`declare \`${profileRule.profile_field}\` in a profile`);
  });

  it('gives every <skipped> its reason and every test case a time', () => {
    const report = catalogueReport();
    const xml = renderJunit(report);
    expect(xml).not.toMatch(/<skipped\s*\/>/);
    const all = outcomes(xml);
    expect(all.size).toBe(report.rules.length);
    for (const [, o] of all) expect(o.time).toMatch(/^\d+\.\d{3}$/);
    const slow = report.rules.find((r) => r.checks.some((c) => c.duration_ms === 1234))!;
    expect(all.get(`${slow.id} (${slow.level})`)!.time).toBe('1.234');
    expect([...all.values()].filter((o) => o.kind === 'skipped').map((o) => o.message)).toContain('no quota on this target');
    expect(xml).toMatch(new RegExp(`<testsuites name="notes-conformance http://127\\.0\\.0\\.1:4010" tests="${report.rules.length}" failures="2" errors="1" skipped="4" time="\\d+\\.\\d{3}">`));
  });

  it('adds run errors as errors of a `run` suite, and escapes what XML cannot carry', () => {
    const report = { ...catalogueReport(), run_errors: ['suites/x.check.ts: SyntaxError: bad <token> "\u0001"'] };
    const xml = renderJunit(report);
    expect(xml).toContain('<testsuite name="run" tests="1" failures="0" errors="1" skipped="0" time="0.000">');
    expect(xml).toContain('message="suites/x.check.ts: SyntaxError: bad &lt;token&gt; &quot;\ufffd&quot;"');
    expect(xml.match(/<testcase /g)).toHaveLength(xml.match(/<\/testcase>|<testcase [^>]*\/>/g)!.length);
  });
});
