import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../reporters/render-html.js';
import { renderMarkdown } from '../../reporters/render-markdown.js';
import { renderTerminal, useColour } from '../../reporters/render-terminal.js';
import { buildReport } from '../../reporters/report.js';
import { NOT_IN_SMOKE } from '../../spec/verdicts.js';
import { catalogueReport, outcome, rule } from './fixtures.js';

const report = catalogueReport();
const ESC = '\u001b[';

describe('renderTerminal', () => {
  it('leads with failing rules in plain words and shows invisible differences', () => {
    const text = renderTerminal(report);
    const lines = text.split('\n');
    const marks = lines.filter((l) => /^ {2}(FAIL|ERROR|WARN)/.test(l));
    expect(marks[0]).toMatch(/^ {2}FAIL {2}\S+ \(documented\)/);
    // The profile rule broken with no profile given differs, after what counts, and is no FAIL line.
    const profileRule = report.rules.find((r) => r.level === 'profile' && r.verdict === 'differs')!;
    const differs =
      `  DIFF  ${profileRule.id} (profile): differs from the reference profile (not judged): ` +
      `declare \`${profileRule.profile_field}\` in a profile to have it judged; observed: oldest first`;
    expect(lines.indexOf(differs)).toBeGreaterThan(lines.findIndex((l) => l.startsWith('  ERROR')));
    expect(marks.filter((l) => l.startsWith('  FAIL'))).toHaveLength(2);
    expect(text).toContain("got 'hello\\u0020', expected 'hello'");
    expect(text).not.toContain('Object.is equality');
    expect(text).toContain('declare `');
  });

  it('puts each skip reason on its own short line', () => {
    const lines = renderTerminal(report).split('\n');
    const start = lines.findIndex((l) => l.startsWith('  skipped 3 rules:'));
    expect(lines.slice(start + 1, start + 3)).toEqual([
      expect.stringMatching(
        /^ {4} {2}2 x the profile declares no rate-limit headers \(really\)[\s\S]*characters in all\)$/,
      ),
      '      1 x no quota on this target',
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(420);
  });

  it('colours only when asked, and useColour honours NO_COLOR and the TTY', () => {
    expect(renderTerminal(report)).not.toContain(ESC);
    expect(renderTerminal(report, { color: true })).toContain(`${ESC}31mFAIL `);
    expect(useColour({ isTTY: true }, {})).toBe(true);
    expect(useColour({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(useColour({ isTTY: false }, {})).toBe(false);
    expect(useColour({}, {})).toBe(false);
  });

  it('--quiet prints the headline alone', () => {
    const quiet = renderTerminal(report, { quiet: true });
    expect(quiet).toMatch(/^notes-conformance: FAIL: \d+ rules against .*; 900 requests, 0 left behind\n$/);
    expect(renderTerminal(report).split('\n')).toContain(quiet.trimEnd());
  });

  it('is the same text on every call', () => {
    expect(renderTerminal(catalogueReport())).toBe(renderTerminal(report));
  });
});

describe('counts in words', () => {
  it('says "1 rule" and "1 request", not "1 rules" and "1 requests", in every rendering of the headline', () => {
    const one = buildReport({
      version: '1.0.0',
      target: 'http://127.0.0.1:4010',
      profileName: 'mine',
      profileDeclared: true,
      seed: 1,
      only: [],
      rules: [rule('notes.create.x')],
      outcomes: [
        outcome({ rules: ['notes.create.x'], state: 'failed', errors: [{ name: 'NonConformance', message: 'no' }] }),
      ],
      requests: 1,
      leftovers: 1,
      runErrors: [],
    });
    const texts = [renderTerminal(one), renderMarkdown(one), renderHtml(one)];
    for (const text of texts) {
      expect(text).toContain('FAIL: 1 rule against');
      expect(text).not.toMatch(/\b1 (rules|requests|resources)\b|\(s\)/);
    }
    expect(renderTerminal(one)).toContain('; 1 request, 1 left behind');
    expect(one.exit_reason).toBe('1 documented or declared rule failed or errored');
  });
});

describe('the headline of a smoke run, and what the run cost and left', () => {
  const smoke = buildReport({
    version: '1.0.0',
    target: 'http://127.0.0.1:4010',
    profileName: 'mine',
    profileDeclared: true,
    seed: 1,
    only: [],
    tier: 'smoke',
    rules: [rule('notes.create.a'), rule('notes.create.b'), rule('notes.list.c'), rule('notes.list.d')],
    outcomes: [
      outcome({ rules: ['notes.create.a', 'notes.create.b'], state: 'passed' }),
      outcome({ rules: ['notes.list.c', 'notes.list.d'], state: 'skipped', note: NOT_IN_SMOKE }),
    ],
    requests: 60,
    cleanupRequests: 11,
    leftovers: 2,
    leftoverIds: ['collection 12345', 'note note-1'],
    runErrors: [],
  });

  it('says it is the smoke tier, counts the rules it judged and those outside it apart, in every rendering', () => {
    for (const text of [renderTerminal(smoke), renderMarkdown(smoke), renderHtml(smoke)]) {
      expect(text).toContain('SMOKE PASS: 2 rules judged against');
      expect(text).toContain('2 pass, 0 fail, 0 error, 0 skipped, 0 warn; 2 are not in the smoke tier');
    }
  });

  it('counts the cleanup apart from the budgeted requests, and names what was left by id', () => {
    expect(renderTerminal(smoke)).toContain(
      '; 60 requests and 11 to clean up, 2 left behind (collection 12345, note note-1)',
    );
    expect(renderMarkdown(smoke)).toContain(
      '60 requests and 11 to clean up · 2 resources left behind (collection 12345, note note-1)',
    );
    expect(smoke.leftover_ids).toEqual(['collection 12345', 'note note-1']);
    expect(smoke.cleanup_requests).toBe(11);
  });
});

describe("a failed rule shows the document's words in every report", () => {
  const quoted = { ...rule('notes.create.offset'), quote: ['must carry a timezone offset'], section: '2. Resources' };
  const passed = { ...rule('notes.create.other'), quote: ['words of a rule that passed'] };
  const report = buildReport({
    version: '1.0.0',
    target: 'http://127.0.0.1:4010',
    profileName: 'mine',
    profileDeclared: true,
    seed: 1,
    only: [],
    rules: [quoted, passed],
    outcomes: [
      outcome({
        rules: ['notes.create.offset'],
        state: 'failed',
        errors: [{ name: 'NonConformance', message: 'a created_at without an offset was accepted' }],
        repro: '#!/bin/sh\ncurl -sS -i http://127.0.0.1:4010/v2/notes',
      }),
      outcome({ rules: ['notes.create.other'], state: 'passed' }),
    ],
    requests: 3,
    leftovers: 0,
    runErrors: [],
  });

  it('terminal, Markdown, HTML and JUnit quote it, with its section; a passing rule is not quoted', async () => {
    const { renderJunit } = await import('../../reporters/render-junit.js');
    const texts = {
      terminal: renderTerminal(report),
      markdown: renderMarkdown(report),
      html: renderHtml(report),
      junit: renderJunit(report),
    };
    for (const [where, text] of Object.entries(texts)) {
      expect(text, where).toMatch(/the document \(2\. Resources\): (&quot;|")must carry a timezone offset(&quot;|")/);
      expect(text, where).not.toContain('words of a rule that passed');
    }
    expect(texts.junit).toMatch(/<failure [^>]*>the document \(2\. Resources\): "must carry/);
    expect(texts.markdown).toContain('Reproduce (a sh script');
  });
});

describe('causes', () => {
  const never =
    'cannot judge: POST /v2/collections never accepted a request in this run (404 to all 37), so its refusals prove nothing';
  const partial = buildReport({
    version: '1.0.0',
    target: 'http://127.0.0.1:4010',
    profileName: 'mine',
    profileDeclared: true,
    seed: 1,
    only: [],
    rules: ['collections.create.a', 'collections.create.b', 'collections.create.c', 'notes.create.d'].map((id) =>
      rule(id),
    ),
    outcomes: [
      {
        ...outcome({
          rules: ['collections.create.a', 'collections.create.b', 'collections.create.c'],
          state: 'passed',
        }),
        verdicts: Object.fromEntries(
          ['a', 'b', 'c'].map((x) => [`collections.create.${x}`, { verdict: 'error' as const, message: never }]),
        ),
      },
      outcome({ rules: ['notes.create.d'], state: 'failed', errors: [{ name: 'NonConformance', message: 'no' }] }),
    ],
    requests: 40,
    leftovers: 0,
    runErrors: [],
  });

  it('come first in the terminal, each once with its rules, which are not listed again', () => {
    const lines = renderTerminal(partial).split('\n');
    const cause = lines.findIndex((l) => l.startsWith('  CAUSE '));
    expect(lines[cause]).toBe(
      '  CAUSE POST /v2/collections answered 404 to all 37 and never accepted a request: 3 rules cannot be judged',
    );
    expect(lines[cause + 1]!.trim()).toBe('collections.create.a, collections.create.b, collections.create.c');
    expect(lines.filter((l) => l.startsWith('  ERROR'))).toEqual([]);
    expect(lines.findIndex((l) => l.startsWith('  FAIL  notes.create.d'))).toBeGreaterThan(cause);
  });

  it('lead the Markdown and HTML reports', () => {
    expect(renderMarkdown(partial)).toMatch(
      /### Causes \(1\)\n\n- \*\*POST \/v2\/collections answered 404 to all 37 and never accepted a request\*\*: 3 rules cannot be judged/,
    );
    expect(renderHtml(partial)).toContain('<h2>Causes (1)</h2>');
  });
});
