import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../reporters/render-html.js';
import { catalogueReport } from './fixtures.js';

const report = catalogueReport({ bigBody: 200_001 });
const html = renderHtml(report);

describe('renderHtml', () => {
  it('is self-contained: inline style and script, no external assets', () => {
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<(script|img|link|iframe)[^>]+(src|href)=/i);
    expect(html).not.toMatch(/url\(/);
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it('leads with the headline and a summary bar, then failing rules open, passes last and closed', () => {
    const total = report.rules.length;
    expect(html).toContain(`<p class="headline failing">FAIL: ${total} rules against http://127.0.0.1:4010`);
    expect(html).toContain(
      `<div class="bar" role="img" aria-label="${total - 8} pass, 2 fail, 1 error, 3 skipped, 1 warn, 1 differ from the reference profile (not judged)">`,
    );
    const blocks = [
      ...html.matchAll(
        /<details class="rule" id="rule-([^"]+)"( open)? data-verdict="(\w+)" data-area="[^"]*" data-standing="(\w+)"/g,
      ),
    ].map((m) => ({ id: m[1], open: m[2] !== undefined, verdict: m[3], standing: m[4] }));
    expect(blocks).toHaveLength(total);
    expect(blocks.slice(0, 3).map((b) => [b.verdict, b.standing, b.open])).toEqual([
      ['fail', 'failing', true],
      ['fail', 'failing', true],
      ['error', 'failing', true],
    ]);
    expect(blocks.slice(3).every((b) => !b.open)).toBe(true);
    // The advisory warning, then the profile rule that differs from the reference profile (no profile given).
    expect(blocks.slice(3, 5).map((b) => [b.verdict, b.standing])).toEqual([
      ['warn', 'warn'],
      ['differs', 'differs'],
    ]);
    expect(blocks.at(-1)!.standing).toBe('pass');
  });

  it('escapes what the target sent, folds long bodies and gives evidence and repro a copy button', () => {
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('<summary>all 200,0');
    expect(html).toMatch(/<pre class="response full">201\ncontent-type: application\/json\n\nx{200001}<\/pre>/);
    expect(html).toMatch(
      /<div class="repro"><b>Reproduce<\/b> <small>a sh script[^<]*<\/small><div class="copyable"><button type="button" class="copy"/,
    );
    expect(html.match(/class="copy"/g)!.length).toBeGreaterThanOrEqual(5);
  });

  it('is byte-stable', () => {
    expect(renderHtml(catalogueReport({ bigBody: 200_001 }))).toBe(html);
  });
});
