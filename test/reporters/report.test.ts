import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../reporters/render-html.js';
import { renderJson } from '../../reporters/render-json.js';
import { renderJunit } from '../../reporters/render-junit.js';
import { renderMarkdown } from '../../reporters/render-markdown.js';
import { renderTerminal } from '../../reporters/render-terminal.js';
import { buildReport, type CheckOutcome } from '../../reporters/report.js';
import type { Rule } from '../../spec/rules.js';
import { outcome } from './fixtures.js';

const rule = (id: string, level: Rule['level'] = 'documented', profile?: string): Rule => ({
  id,
  level,
  since: '2025-06-03',
  section: '4. Endpoints',
  quote: ['q'],
  statement: `${id} holds.`,
  needs: [],
  operations: ['createNote'],
  ...(profile ? { profile } : {}),
});
const RULES = [
  rule('notes.create.a'),
  rule('notes.create.b'),
  rule('notes.update.c'),
  rule('collections.list.d', 'profile', 'list_order'),
  rule('notes.search.e', 'advisory'),
  rule('auth.bearer.f'),
];

const input = (outcomes: CheckOutcome[], profileDeclared = true) => ({
  version: '1.2.3',
  target: 'http://t',
  profileName: 'p',
  profileDeclared,
  seed: 7,
  only: [],
  rules: RULES,
  outcomes,
  requests: 42,
  leftovers: 0,
  runErrors: [],
});

describe('ConformanceReport', () => {
  it('gives each rule the worst verdict of its checks, and "no check" when it has none', () => {
    const report = buildReport(
      input([
        outcome({ rules: ['notes.create.a'], state: 'passed' }),
        outcome({
          rules: ['notes.create.a'],
          state: 'failed',
          errors: [{ name: 'AssertionError', message: 'expected 409\nmore' }],
        }),
        outcome({
          rules: ['notes.create.b', 'notes.update.c'],
          state: 'failed',
          errors: [{ name: 'KitError', message: 'connection refused' }],
        }),
        outcome({ rules: ['collections.list.d'], state: 'skipped', note: 'the profile declares no list_order' }),
        outcome({
          rules: ['notes.search.e'],
          state: 'failed',
          errors: [{ name: 'AssertionError', message: 'not ranked' }],
        }),
      ]),
    );
    const verdict = Object.fromEntries(report.rules.map((r) => [r.id, [r.verdict, r.reason]]));
    expect(verdict['notes.create.a']).toEqual(['fail', 'expected 409 more']);
    expect(verdict['notes.create.b']).toEqual(['error', 'connection refused']);
    expect(verdict['collections.list.d']).toEqual(['skipped', 'the profile declares no list_order']);
    expect(verdict['notes.search.e']).toEqual(['warn', 'not ranked']);
    expect(verdict['auth.bearer.f']).toEqual(['error', 'no check']);
    expect(report.summary).toEqual({ pass: 0, fail: 1, error: 3, skipped: 1, warn: 1, differs: 0 });
    expect(report.exit_code).toBe(1);
    expect(report.rules.map((r) => r.id)).toEqual([...RULES.map((r) => r.id)].sort());
  });

  it('attributes verify() failures to their rules only, and counts a TypeError in a check as an error', () => {
    const report = buildReport(
      input([
        outcome({
          rules: ['notes.create.a', 'notes.create.b'],
          state: 'failed',
          errors: [{ name: 'RuleFailures', message: 'notes.create.b: no' }],
          ruleFailures: { 'notes.create.b': 'no' },
        }),
        outcome({
          rules: ['notes.update.c'],
          state: 'failed',
          errors: [{ name: 'TypeError', message: 'x is undefined' }],
        }),
        outcome({
          rules: ['auth.bearer.f'],
          state: 'failed',
          errors: [{ name: 'KitError', message: 'later timeout' }],
          ruleFailures: {},
        }),
      ]),
    );
    const verdict = Object.fromEntries(report.rules.map((r) => [r.id, r.verdict]));
    expect(verdict).toMatchObject({
      'notes.create.a': 'pass',
      'notes.create.b': 'fail',
      'notes.update.c': 'error',
      'auth.bearer.f': 'error',
    });
    expect(report.rules.find((r) => r.id === 'notes.update.c')!.reason).toMatch(/^TypeError in the check/);
  });

  it('reads a rule the check skipped (skipRule) as skipped, also when the check passed', () => {
    const report = buildReport(
      input([
        outcome({
          rules: ['notes.create.a', 'notes.create.b'],
          state: 'passed',
          ruleSkips: { 'notes.create.b': 'not in the smoke tier' },
        }),
      ]),
    );
    const verdict = Object.fromEntries(report.rules.map((r) => [r.id, [r.verdict, r.reason]]));
    expect(verdict['notes.create.a']).toEqual(['pass', '']);
    expect(verdict['notes.create.b']).toEqual(['skipped', 'not in the smoke tier']);
  });

  it('exits 0 when only advisory rules warn and undeclared profile rules fail', () => {
    const all = RULES.map((r) => outcome({ rules: [r.id], state: 'passed' }));
    all.push(
      outcome({ rules: ['notes.search.e'], state: 'failed', errors: [{ name: 'NonConformance', message: 'x' }] }),
    );
    all.push(
      outcome({
        rules: ['collections.list.d'],
        state: 'failed',
        errors: [{ name: 'AssertionError', message: 'oldest first' }],
      }),
    );
    expect(buildReport(input(all, false)).exit_code).toBe(0);
    expect(buildReport(input(all, true)).exit_code).toBe(1);
  });

  it('narrows to --only prefixes', () => {
    const report = buildReport({
      ...input([outcome({ rules: ['notes.create.a', 'auth.bearer.f'], state: 'passed' })]),
      only: ['notes.create'],
    });
    expect(report.rules.map((r) => r.id)).toEqual(['notes.create.a', 'notes.create.b']);
  });
});

describe('renderers', () => {
  const report = buildReport(
    input([
      outcome({
        rules: ['notes.create.a'],
        state: 'failed',
        errors: [{ name: 'AssertionError', message: 'expected 409 <got> 200 & "more"' }],
        evidence: [
          {
            method: 'POST',
            path: '/v2/notes',
            requestHeaders: { authorization: 'Bearer ***', 'content-type': 'application/json' },
            requestBody: '{"content":"it\'s"}',
            status: 200,
            headers: {},
            text: '{"id":"x"}',
          },
        ],
      }),
      ...RULES.slice(1).map((r) => outcome({ rules: [r.id], state: 'passed' })),
    ]),
  );

  it('renders JSON byte-stable and JUnit as valid-looking XML with failures', () => {
    expect(renderJson(report)).toBe(renderJson(JSON.parse(renderJson(report))));
    const xml = renderJunit(report);
    expect(xml).toMatch(/^<\?xml/);
    expect(xml).toContain(
      '<failure message="expected 409 &lt;got&gt; 200 &amp; &quot;more&quot;" type="NonConformance"',
    );
    expect(xml).toContain('name="notes.create.a (documented)"');
  });

  it('escapes what the target sent in every rendering, and quiet output is the headline', () => {
    expect(renderMarkdown(report)).toContain('expected 409 &lt;got&gt; 200 &amp; "more"');
    const html = renderHtml(report);
    expect(html).toContain('&lt;got&gt;');
    expect(html).not.toContain('<got>');
    expect(renderTerminal(report)).toMatch(/FAIL {2}notes\.create\.a \(documented\): expected 409/);
    const quiet = renderTerminal(report, { quiet: true }).trim().split('\n');
    expect(quiet).toEqual([expect.stringMatching(/^notes-conformance: FAIL: 6 rules/)]);
  });
});

describe('reasons keep invisible differences', () => {
  it('escapes a CR or a blank closing a quoted literal before the message is put on one line', () => {
    const r = buildReport(
      input([
        outcome({
          rules: ['notes.create.a'],
          state: 'failed',
          errors: [{ name: 'NonConformance', message: 'title came back as "Title\r"\nnot "Title "' }],
        }),
      ]),
    );
    expect(r.rules.find((x) => x.id === 'notes.create.a')!.reason).toBe(
      'title came back as "Title\\r" not "Title\\u0020"',
    );
  });
});
