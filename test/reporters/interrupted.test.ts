import { describe, expect, it } from 'vitest';
import { interruptionOf, markInterrupted, NOT_RUN } from '../../reporters/interrupted.js';
import { renderJunit } from '../../reporters/render-junit.js';
import { renderMarkdown } from '../../reporters/render-markdown.js';
import { renderTerminal } from '../../reporters/render-terminal.js';
import { buildReport } from '../../reporters/report.js';
import { outcome, rule } from './fixtures.js';

const RULES = [
  rule('notes.create.a'),
  rule('notes.create.b'),
  rule('notes.update.c'),
  rule('notes.update.d'),
  rule('auth.bearer.e'),
];
const ABORT = 'The test run was aborted by the user.';

const report = buildReport({
  version: '1',
  target: 'http://t',
  profileName: 'p',
  profileDeclared: true,
  seed: 3,
  only: [],
  rules: RULES,
  requests: 10,
  leftovers: 0,
  runErrors: [],
  outcomes: [
    outcome({
      rules: ['notes.create.a'],
      state: 'failed',
      errors: [{ name: 'AssertionError', message: 'expected 409' }],
      durationMs: 12.6,
    }),
    // The check that was running when the signal came, and one vitest cancelled before it started.
    outcome({
      name: 'running',
      rules: ['notes.create.b'],
      state: 'failed',
      errors: [{ name: 'TestRunAbortError', message: ABORT }],
    }),
    outcome({ name: 'pending', rules: ['notes.update.c'], state: 'skipped', note: ABORT }),
    outcome({ name: 'done', rules: ['notes.update.d'], state: 'passed' }),
    // auth.bearer.e: its file never started, so no outcome at all.
  ],
});

describe('markInterrupted', () => {
  const interrupted = markInterrupted(report, interruptionOf('SIGTERM'));

  it('gives checks and rules that never ran the reason "not run", not an error, and keeps real results', () => {
    const verdicts = Object.fromEntries(interrupted.rules.map((r) => [r.id, `${r.verdict}: ${r.reason}`]));
    expect(verdicts).toEqual({
      'auth.bearer.e': `skipped: ${NOT_RUN}`,
      'notes.create.a': 'fail: expected 409',
      'notes.create.b': `skipped: ${NOT_RUN}`,
      'notes.update.c': `skipped: ${NOT_RUN}`,
      'notes.update.d': 'pass: ',
    });
    expect(interrupted.summary).toEqual({ pass: 1, fail: 1, error: 0, skipped: 3, warn: 0, differs: 0 });
    expect(report.rules.find((r) => r.id === 'auth.bearer.e')!.verdict).toBe('error'); // pure: the input is unchanged
  });

  it('carries the signal and the process exit status (128 + signal number)', () => {
    expect(interruptionOf('SIGINT')).toEqual({ signal: 'SIGINT', exit_code: 130 });
    expect(interrupted.interrupted).toEqual({ signal: 'SIGTERM', exit_code: 143 });
    expect(interrupted.exit_code).toBe(143);
    expect(interrupted.exit_reason).toBe(
      'interrupted by SIGTERM: 3 of 5 rules not run; 1 rule failed or errored before that',
    );
  });

  it('says "interrupted" and the exit code in the terminal, Markdown and JUnit', () => {
    const text = renderTerminal(interrupted);
    expect(text).toContain('notes-conformance: INTERRUPTED (SIGTERM): 5 rules');
    expect(text).toContain('exit 143: interrupted by SIGTERM');
    expect(text).not.toMatch(/ERROR/);
    expect(renderMarkdown(interrupted)).toMatch(
      /^## notes-conformance: INTERRUPTED \(SIGTERM\)[\s\S]*\*\*Exit 143\*\*/,
    );
    const xml = renderJunit(interrupted);
    expect(xml).toContain(
      '<error message="interrupted by SIGTERM; exit 143: interrupted by SIGTERM: 3 of 5 rules not run',
    );
    expect(xml.match(/<skipped message="not run"\/>/g)).toHaveLength(3);
  });
});

describe('report values added for the renderers', () => {
  it("carries check durations (rounded ms) and the rules' quotes", () => {
    const a = report.rules.find((r) => r.id === 'notes.create.a')!;
    expect(a.checks[0]!.duration_ms).toBe(13);
    expect(a.quote).toEqual(['q']);
  });
});
