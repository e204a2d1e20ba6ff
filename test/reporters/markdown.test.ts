import { describe, expect, it } from 'vitest';
import { MARKDOWN_MAX_BYTES, renderMarkdown } from '../../reporters/render-markdown.js';
import { buildReport, type CheckOutcome, type ConformanceReport } from '../../reporters/report.js';
import { catalogueReport, exchange, outcome, rule } from './fixtures.js';

const AREAS = ['notes', 'collections', 'membership', 'auth', 'limits'];
const huge = (label: string, n: number) => `${label} ${'x'.repeat(n)} | <b>*not markup*</b> \`\`\` end`;

/** 300 rules; every `failEvery`-th fails with huge messages, statements and repro bodies. */
function syntheticReport(failEvery: number): ConformanceReport {
  const rules = Array.from({ length: 300 }, (_, i) => ({
    ...rule(`${AREAS[i % AREAS.length]}.op${String(i).padStart(3, '0')}.prop`),
    statement: `${huge('statement', 3000)}.`,
  }));
  const outcomes: CheckOutcome[] = rules.map((r, i) =>
    i % failEvery === 0
      ? outcome({
          name: `check ${r.id}`,
          rules: [r.id],
          state: 'failed',
          errors: [{ name: 'AssertionError', message: huge('message', 50_000) }],
          evidence: [exchange('y'.repeat(200_001))],
        })
      : outcome({ name: `check ${r.id}`, rules: [r.id], state: 'passed' }),
  );
  const report = buildReport({
    version: '1',
    target: 'http://t',
    profileName: 'p',
    profileDeclared: true,
    seed: 1,
    only: [],
    rules,
    outcomes,
    requests: 1,
    leftovers: 0,
    runErrors: [],
  });
  for (const r of report.rules) {
    for (const c of r.checks)
      if (c.verdict === 'fail')
        c.repro = `curl -sS --data-binary @- 'http://t/v2/notes' <<'JSON'\n${huge('body', 200_001)}\nJSON`;
    // A report read back from JSON may carry reasons of any length: the renderer must not trust buildReport's clipping.
    if (r.verdict === 'fail') r.reason = huge('reason', 100_000);
  }
  return report;
}

function assertWellFormed(md: string): void {
  expect(md.match(/<details>/g)?.length ?? 0).toBe(md.match(/<\/details>/g)?.length ?? 0);
  const fences = md.split('\n').filter((l) => /^\s*`{3,}/.test(l));
  expect(fences.length % 2).toBe(0);
}

describe('renderMarkdown', () => {
  it('stays under 60,000 bytes when all 300 rules fail with huge messages, and says where the rest is', () => {
    const md = renderMarkdown(syntheticReport(1), { fullReport: 'reports/conformance.html' });
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(MARKDOWN_MAX_BYTES);
    expect(md).toMatch(/^## notes-conformance: FAIL: 300 rules against http:\/\/t/);
    expect(md).toMatch(
      /\*\*Truncated\*\* to stay under 60,000 bytes: \d+ failing rules?[^\n]* not shown\. See the full report: reports\/conformance\.html\.\n$/,
    );
    assertWellFormed(md);
    expect(md).toContain('Reproduce (a sh script: it makes again what the failing request names, then sends it;');
    expect(md).not.toContain('<b>');
  });

  it('shows the failures first, open, with reason and repro, and folds everything else', () => {
    const report = syntheticReport(37);
    const md = renderMarkdown(report);
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(MARKDOWN_MAX_BYTES);
    assertWellFormed(md);
    const failing = report.rules.filter((r) => r.verdict === 'fail').map((r) => r.id);
    expect(failing).toHaveLength(9);
    const firstFold = md.indexOf('<details>');
    for (const id of failing) {
      expect(md.indexOf(`#### \`${id}\``)).toBeGreaterThan(0);
      expect(md.indexOf(`#### \`${id}\``)).toBeLessThan(firstFold);
    }
    const open = md.slice(0, firstFold);
    expect(open).not.toMatch(/\| documented \| pass \|/);
    expect(open).toContain("```sh\n  curl -sS --data-binary @- 'http://t/v2/notes' <<'JSON'");
    expect(md.slice(firstFold)).toContain(`<details><summary>All 300 rules by area</summary>`);
  });

  it('keeps a small run whole, with every rule listed', () => {
    const report = catalogueReport();
    const md = renderMarkdown(report);
    expect(md).not.toContain('Truncated');
    for (const r of report.rules) expect(md).toContain(`\`${r.id}\``);
    expect(md).toContain('<details><summary>Rules that differ from the reference profile (not judged) (1)</summary>');
    expect(md).toContain('<details><summary>Skipped (3)</summary>');
    expect(renderMarkdown(report)).toBe(md);
  });

  it('honours a smaller limit', () => {
    const md = renderMarkdown(catalogueReport(), { maxBytes: 5000 });
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(5000);
    expect(md).toContain('**Truncated** to stay under 5,000 bytes');
    assertWellFormed(md);
  });

  it('counts UTF-8 bytes, not characters: text of two and four bytes a character stays under the limit', () => {
    const report = syntheticReport(1);
    for (const r of report.rules) {
      r.reason = 'é'.repeat(3000);
      for (const c of r.checks) c.message = '😀'.repeat(3000);
    }
    const md = renderMarkdown(report);
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(MARKDOWN_MAX_BYTES);
    expect(Buffer.byteLength(md)).toBeGreaterThan(MARKDOWN_MAX_BYTES * 0.9);
    // Cut by characters, this text would have run past the limit by this much.
    expect(Buffer.byteLength(md) - md.length).toBeGreaterThan(10_000);
    assertWellFormed(md);
  });

  it('keeps the counts of every area under the headline when it cuts the rest', () => {
    const md = renderMarkdown(syntheticReport(1));
    expect(md).toContain('Truncated');
    const table = md.slice(0, md.indexOf('### Rules that fail the run'));
    expect(table).toContain('| Area | pass | fail | error | skipped | warn | differs |');
    for (const area of AREAS) expect(table).toMatch(new RegExp(`\\| ${area} \\| 0 \\| 60 \\| 0 \\| 0 \\| 0 \\| 0 \\|`));
  });
});
