import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../reporters/render-html.js';
import { renderJunit } from '../../reporters/render-junit.js';
import { renderMarkdown } from '../../reporters/render-markdown.js';
import { renderSpecHtml } from '../../reporters/render-spec.js';
import { renderTerminal } from '../../reporters/render-terminal.js';
import { buildReport, type CheckOutcome, type ConformanceReport } from '../../reporters/report.js';
import { specFile } from '../../spec/paths.js';
import { loadRules } from '../../spec/rules.js';
import { outcome } from './fixtures.js';

/**
 * Issue 21 item 4: a target without a profile whose title keeps heading markers, where the reference
 * strips none (or the other way round): the profile rule breaks the reference profile's choice, which
 * the target never declared. Every rendering shows it as a neutral difference with the observed value,
 * never a failure, and every rendering counts it the same way.
 */
const RULE = 'notes.title.heading-markers';
const OBSERVED = "title came back as 'Heading' for the first line '# Heading'";
const documentText = readFileSync(specFile('api', 'notes-collections-v2.md'), 'utf8');
const ESC = '\u001b[';

function reportFor(profileDeclared: boolean): ConformanceReport {
  const rules = loadRules();
  const outcomes: CheckOutcome[] = rules.map((r) =>
    r.id === RULE
      ? outcome({
          name: 'a heading first line gives the declared title',
          rules: [RULE],
          state: 'failed',
          errors: [{ name: 'NonConformance', message: OBSERVED }],
        })
      : outcome({ name: `check ${r.id}`, rules: [r.id], state: 'passed' }),
  );
  return buildReport({
    version: '1.0.0',
    target: 'http://127.0.0.1:4010',
    profileName: profileDeclared ? 'mine' : 'assumed (reference fake defaults)',
    profileDeclared,
    seed: 7,
    only: [],
    rules,
    outcomes,
    requests: 10,
    leftovers: 0,
    runErrors: [],
  });
}

describe('a profile rule that differs from the reference profile, with no profile given', () => {
  const report = reportFor(false);
  const rule = report.rules.find((r) => r.id === RULE)!;

  it('is its own verdict, counted apart from fail, and the run passes', () => {
    expect(rule.verdict).toBe('differs');
    expect(rule.checks.map((c) => c.verdict)).toEqual(['differs']);
    expect(report.summary.fail).toBe(0);
    expect(report.summary.differs).toBe(1);
    expect(report.exit_code).toBe(0);
  });

  it('reads "differs from the reference profile (not judged)" with the observed value in the terminal, neutral', () => {
    const text = renderTerminal(report);
    expect(text).not.toMatch(/^ {2}FAIL/m);
    const line = text.split('\n').find((l) => l.includes(RULE))!;
    expect(line).toContain('DIFF');
    expect(line).toContain('differs from the reference profile (not judged)');
    expect(line).toContain(OBSERVED.slice(0, 40));
    expect(line).toContain('title.derivation');
    const headline = text.split('\n').find((l) => l.startsWith('notes-conformance: '))!;
    expect(headline).toMatch(/^notes-conformance: PASS: /);
    expect(headline).toContain('0 fail');
    expect(headline).toContain('1 differ from the reference profile (not judged)');
    // Coloured: cyan, neither the failure red nor the warning yellow.
    const coloured = renderTerminal(report, { color: true })
      .split('\n')
      .find((l) => l.includes(RULE))!;
    expect(coloured).toContain(`${ESC}36mDIFF `);
    expect(coloured).not.toContain(`${ESC}31m`);
    expect(coloured).not.toContain(`${ESC}33m`);
  });

  it('is a <skipped> JUnit case with the same words, so JUnit counts no failure either', () => {
    const junit = renderJunit(report);
    expect(junit).toMatch(/<testsuites [^>]*failures="0" errors="0"/);
    const entry = junit.slice(junit.indexOf(`name="${RULE} (profile)"`));
    expect(entry.slice(0, entry.indexOf('</testcase>'))).toMatch(
      /<skipped message="differs from the reference profile \(not judged\): [^"]*observed: title came back as/,
    );
  });

  it('is folded under its own heading in Markdown, and the headline says PASS', () => {
    const md = renderMarkdown(report);
    expect(md).toMatch(/^## notes-conformance: PASS: .*1 differ from the reference profile \(not judged\)/);
    expect(md).not.toContain('Rules that fail the run');
    expect(md).toContain('<details><summary>Rules that differ from the reference profile (not judged) (1)</summary>');
    expect(md).toContain(`| \`${RULE}\` | profile | differs | differs from the reference profile (not judged)`);
  });

  it('is neutral in the HTML report and in the spec view, never painted as a failure', () => {
    const html = renderHtml(report);
    expect(html).toContain('<p class="headline passing">PASS: ');
    expect(html).toMatch(new RegExp(`<details class="rule" id="rule-${RULE}" data-verdict="differs"`));
    expect(html).toContain('.v-differs{background:#0969da}');
    expect(html).toContain('<section class="group" data-standing="differs"><h2>Rules that differ from');
    expect(html).not.toContain('data-verdict="fail"');
    const spec = renderSpecHtml(report, documentText);
    const marks = [...spec.matchAll(/<mark class="q v-(\w+)" data-rules="([^"]+)"/g)].filter((m) =>
      m[2]!.split(' ').includes(RULE),
    );
    expect(marks.length).toBeGreaterThan(0);
    for (const m of marks) expect(m[1]).toBe('differs');
    expect(spec).not.toMatch(/<mark class="q v-fail"/);
    expect(spec).toContain(`<code>${RULE}</code> differs: differs from the reference profile (not judged)`);
  });

  it('counts the same in every rendering', () => {
    const terminal = renderTerminal(report);
    const junit = renderJunit(report);
    const count = report.summary.differs;
    expect(terminal.match(/^ {2}DIFF /gm)?.length).toBe(count);
    expect(junit.match(/<skipped message="differs from the reference profile/g)?.length).toBe(count);
    expect(junit).toMatch(new RegExp(`<testsuites [^>]*failures="${report.summary.fail}"`));
    expect(renderMarkdown(report)).toContain(`(not judged) (${count})</summary>`);
    expect(renderHtml(report)).toContain(`(<span class="count">${count}</span>)`);
  });
});

describe('the same observation with a profile declared', () => {
  it('fails the run: the target declared the choice and broke it', () => {
    const report = reportFor(true);
    expect(report.rules.find((r) => r.id === RULE)!.verdict).toBe('fail');
    expect(report.summary.differs).toBe(0);
    expect(report.exit_code).toBe(1);
    expect(renderTerminal(report)).toMatch(new RegExp(`^ {2}FAIL {2}${RULE.replace(/\./g, '\\.')} \\(profile\\)`, 'm'));
    expect(renderJunit(report)).toMatch(/<testsuites [^>]*failures="1"/);
  });
});
