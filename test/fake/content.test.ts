import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveTitle, featuresOf } from '../../fake/service/content.js';
import { hasMarkdownFileLink, hasMarkdownImage } from '../../fake/service/markdown-links.js';
import { FEATURE } from '../../fake/store/records.js';

// The patterns the scanners replace: the reference for what counts as an image or a file link.
const IMAGE = /!\[[^\]\n]*\]\([^)\s]+(?:\s+"[^"]*")?\)/;
const FILE_LINK =
  /(?<!!)\[[^\]\n]*\]\([^)\s]+\.(?:pdf|docx?|xlsx?|pptx?|csv|zip|txt|rtf|odt|ods|odp|key|pages|numbers)(?:[?#][^)\s]*)?\)/i;
const CLOSING_HASHES = (line: string) =>
  line
    .replace(/^#{1,6}(\s+|$)/, '')
    .replace(/\s+#+\s*$/, '')
    .trim();

// Markdown-ish text built from the pieces the patterns look at, so matches and near misses are common.
const piece = fc.constantFrom(
  '!',
  '[',
  ']',
  '(',
  ')',
  '"',
  ' ',
  '\t',
  '\n',
  '\u00a0',
  '.',
  '?',
  '#',
  'a',
  'x',
  'pdf',
  'PDF',
  'docx',
  'doc',
  'Pages',
  'numbers',
  'png',
  '![',
  '](',
  '![](',
  '[r](',
  'a.pdf',
  '.txt#p',
  'K',
  '\u212a',
  ' "t"',
  '"',
  'ŝ',
);
const markdown = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));

describe('image and file-link detection', () => {
  it('agrees with the reference patterns on markdown-ish text', () => {
    fc.assert(
      fc.property(markdown, (text) => {
        expect(hasMarkdownImage(text), JSON.stringify(text)).toBe(IMAGE.test(text));
        expect(hasMarkdownFileLink(text), JSON.stringify(text)).toBe(FILE_LINK.test(text));
      }),
      { numRuns: 20_000, seed: 13 },
    );
  });

  it('agrees on ordinary markdown', () => {
    const cases: Array<[string, boolean, boolean]> = [
      ['![a](https://x/y.png)', true, false],
      ['![a](https://x/y.png "A title")', true, false],
      ['![a](https://x/y.png "unclosed', false, false],
      ['![a](https://x/y.png "unclosed ![b](z)', true, false],
      ['![a](with space)', false, false],
      ['![a\nb](x)', false, false],
      ['[r](https://x/r.pdf)', false, true],
      ['[r](https://x/r.PDF?download=1)', false, true],
      ['[r](https://x/r.docx#page=2)', false, true],
      ['[r](.pdf)', false, false],
      ['![r](https://x/r.pdf)', true, false],
      ['see [r](https://x/r.pdfx) and [s](t.csv)', false, true],
      ['[r](https://x/r.pdf x)', false, false],
      ['plain text', false, false],
    ];
    for (const [text, image, file] of cases) {
      expect([hasMarkdownImage(text), hasMarkdownFileLink(text)], text).toEqual([image, file]);
      expect([IMAGE.test(text), FILE_LINK.test(text)], `reference: ${text}`).toEqual([image, file]);
    }
  });

  it('takes linear time on 200,000 characters of unclosed links', () => {
    for (const unit of ['![](a', '[](a', '[](x.pdf![](', '![](a "', '[', '![', '](', 'a.pdf']) {
      const text = unit.repeat(Math.floor(200_000 / unit.length));
      const started = performance.now();
      const bits = featuresOf(text, []);
      const ms = performance.now() - started;
      // The backtracking patterns took seconds here; linear scans take a few milliseconds.
      expect(ms, `${unit} took ${ms.toFixed(0)} ms`).toBeLessThan(250);
      expect(bits & (FEATURE.image | FEATURE.file), unit).toBe(
        (IMAGE.test(text.slice(0, 2000)) ? FEATURE.image : 0) |
          (FILE_LINK.test(text.slice(0, 2000)) ? FEATURE.file : 0),
      );
    }
  });
});

describe('heading-marker titles', () => {
  it('strip closing hashes as the reference pattern does', () => {
    const line = fc
      .array(fc.constantFrom('#', '##', ' ', '\t', 'a', 'b c', '\u3000'), { maxLength: 20 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(line, (text) => {
        expect(deriveTitle(text, 'strip_heading_markers'), JSON.stringify(text)).toBe(CLOSING_HASHES(text.trim()));
      }),
      { numRuns: 5_000, seed: 13 },
    );
  });

  it('strip a long title line in linear time', () => {
    const text = `# a${' '.repeat(199_990)}b`;
    const started = performance.now();
    expect(deriveTitle(text, 'strip_heading_markers')).toBe(`a${' '.repeat(199_990)}b`);
    expect(performance.now() - started).toBeLessThan(250);
  });
});
