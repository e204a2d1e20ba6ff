import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../reporters/markdown-html.js';
import { placeQuotes } from '../../reporters/quote-places.js';
import { renderSpecHtml } from '../../reporters/render-spec.js';
import { specFile } from '../../spec/paths.js';
import { catalogueReport } from './fixtures.js';

const documentText = readFileSync(specFile('api', 'notes-collections-v2.md'), 'utf8');
const report = catalogueReport();

describe('the spec view', () => {
  const html = renderSpecHtml(report, documentText);

  it("finds every rule's quote in the document (the ones it cannot find are listed here)", () => {
    const { placements, missing } = placeQuotes(report.rules, documentText);
    expect(missing).toEqual([]);
    expect(placements).toHaveLength(report.rules.reduce((n, r) => n + r.quote.length, 0));
    for (const p of placements)
      expect(documentText.slice(p.start, p.end).replace(/\s+/g, ' ')).toBe(p.quote.replace(/\s+/g, ' ').trim());
  });

  it('marks every rule in the document with its verdict, next to the text it quotes', () => {
    expect(html).not.toContain('class="unplaced"');
    expect(html).not.toContain('Not marked in the document');
    const marked = new Set(
      [...html.matchAll(/<mark class="q v-\w+" data-rules="([^"]+)"/g)].flatMap((m) => m[1]!.split(' ')),
    );
    const chips = new Map(
      [...html.matchAll(/<a class="chip v-(\w+)" href="#rule-[^"]+" data-rule="([^"]+)"/g)].map((m) => [m[2]!, m[1]!]),
    );
    for (const rule of report.rules) {
      expect(marked.has(rule.id), `${rule.id} marked`).toBe(true);
      expect(chips.get(rule.id), `${rule.id} chip`).toBe(rule.verdict);
    }
    const failing = report.rules.find((r) => r.verdict === 'fail' && r.level === 'documented')!;
    expect(html).toContain(`<span class="finding"><code>${failing.id}</code> fail: `);
  });

  it('keeps quotes under the part of the document their section names', () => {
    const { placements } = placeQuotes(report.rules, documentText);
    let checked = 0;
    const partAt = (offset: number) => [...documentText.slice(0, offset).matchAll(/^## (\d+)\./gm)].at(-1)?.[1];
    for (const p of placements) {
      const rule = report.rules.find((r) => r.id === p.ruleId)!;
      const part = /^(\d+)\./.exec(rule.section)![1];
      const partText = new RegExp(`^## ${part}\\.[^]*?(?=^## |(?![^]))`, 'm')
        .exec(documentText)![0]
        .replace(/\s+/g, ' ');
      if (!partText.includes(p.quote.replace(/\s+/g, ' ').trim())) continue;
      expect(partAt(p.start), p.ruleId).toBe(part);
      checked++;
    }
    expect(checked).toBeGreaterThan(placements.length * 0.9);
  });

  it('lists a quote it cannot find instead of dropping it', () => {
    const broken = {
      ...report,
      rules: [{ ...report.rules[0]!, quote: ['words the document never says'] }, ...report.rules.slice(1)],
    };
    const page = renderSpecHtml(broken, documentText);
    expect(page).toContain(`<li>${report.rules[0]!.id}: words the document never says</li>`);
    expect(placeQuotes(broken.rules, documentText).missing).toEqual([
      `${report.rules[0]!.id}: words the document never says`,
    ]);
  });

  it('is one part per section, self-contained and byte-stable', () => {
    expect(html.match(/<section class="part" id="part-\d+">/g)).toHaveLength(9);
    expect(html).not.toMatch(/<(script|img|link)[^>]+(src|href)=/i);
    expect(renderSpecHtml(catalogueReport(), documentText)).toBe(html);
  });
});

describe('markdownToHtml', () => {
  const plain = { text: (s: number, e: number) => source.slice(s, e).replace(/</g, '&lt;'), after: () => '' };
  const source = [
    '# Title',
    '',
    'A paragraph with `code <x>` and **bold** text',
    'on two lines, and a [link](https://example.org).',
    '',
    '- one',
    '- two',
    '  continued',
    '',
    '1. first',
    '',
    '| A | B |',
    '|---|---|',
    '| a1 | `b|1` |',
    '',
    '```',
    '<raw>',
    '```',
    '',
  ].join('\n');

  it('renders headings, paragraphs, lists, tables and code', () => {
    expect(markdownToHtml(source, plain)).toBe(
      [
        '<h1>Title</h1>',
        '<p>A paragraph with <code>code &lt;x></code> and <strong>bold</strong> text\non two lines, and a <a href="https://example.org">link</a>.</p>',
        '<ul><li>one</li><li>two\n  continued</li></ul>',
        '<ol><li>first</li></ol>',
        '<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>a1</td><td>`b</td><td>1`</td></tr></tbody></table>',
        '<pre><code>&lt;raw&gt;</code></pre>',
      ].join('\n'),
    );
  });
});
