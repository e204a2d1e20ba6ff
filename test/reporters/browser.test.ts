import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../reporters/render-html.js';
import { renderSpecHtml } from '../../reporters/render-spec.js';
import { specFile } from '../../spec/paths.js';
import { catalogueReport } from './fixtures.js';

/**
 * The HTML report in a real headless browser (Debian's `chromium` package; .ci/run installs it):
 * with a 200,001-character body in the evidence the page keeps a 1280 px window's width and a
 * 390 px phone's, no label or heading is cut at either, failures come first, and the filter in the
 * URL hash works, the headings counting what it shows. The page's inline script writes its layout and
 * filter state onto <html> (data-scroll-width, data-shown-rules, ...), which --dump-dom shows.
 * The screenshots stay in reports/browser/ (git-ignored) for a person to look at.
 */
const OUT = resolve('reports/browser');
const WIDTH = 1280;

function findChromium(): string | undefined {
  const candidates = [
    process.env.CHROMIUM_BIN,
    'chromium',
    'chromium-browser',
    'google-chrome',
    'google-chrome-stable',
  ].filter((c): c is string => !!c);
  for (const name of candidates) {
    const found = spawnSync('sh', ['-c', `command -v "$1"`, 'sh', name], { encoding: 'utf8' }).stdout.trim();
    if (found) return found;
  }
  return undefined;
}

const chromium = findChromium();
const NO_BROWSER =
  'no chromium binary found (apt-get install chromium, or set CHROMIUM_BIN): the browser checks of the HTML report did not run';
if (!chromium) console.warn(`browser.test.ts: SKIPPED: ${NO_BROWSER}`);

const profileDir = mkdtempSync(join(tmpdir(), 'nc-chromium-'));
afterAll(() => rmSync(profileDir, { recursive: true, force: true }));

function browse(url: string, ...extra: string[]): string {
  return browseAt(WIDTH, url, ...extra);
}

function browseAt(width: number, url: string, ...extra: string[]): string {
  return execFileSync(
    chromium!,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-extensions',
      `--user-data-dir=${profileDir}`,
      `--window-size=${width},900`,
      ...extra,
      url,
    ],
    { encoding: 'utf8', timeout: 45_000, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 },
  );
}

/**
 * The attributes a page's script wrote on its <html>, laid out `width` px wide: headless chromium
 * lays a window out at least 500 px wide (its screenshots are cut to the size asked), so the page
 * is measured in a frame of that width, whose attributes the frame's page copies onto its own.
 */
function framedAt(width: number, page: string): Record<string, string> {
  const frame = join(OUT, `frame-${width}.html`);
  // The frame's page copies the data-* attributes the framed page's script wrote onto its own <html>.
  const copy = [
    "document.getElementById('f').addEventListener('load', function () {",
    '  var own = document.documentElement;',
    '  Array.prototype.forEach.call(this.contentDocument.documentElement.attributes, function (a) {',
    "    if (a.name.indexOf('data-') === 0) own.setAttribute(a.name, a.value);",
    '  });',
    '});',
  ].join('\n');
  const style = `width:${width}px;height:900px;border:0`;
  writeFileSync(
    frame,
    `<!doctype html><html><body style="margin:0"><iframe id="f" src="${pathToFileURL(page).href}" style="${style}"></iframe>` +
      `<script>${copy}</script></body></html>`,
  );
  return rootAttributes(browseAt(1280, pathToFileURL(frame).href, '--allow-file-access-from-files', '--dump-dom'));
}

/** The attributes the page's script wrote on <html>. */
function rootAttributes(dom: string): Record<string, string> {
  const root = /<html([^>]*)>/.exec(dom)?.[1] ?? '';
  return Object.fromEntries([...root.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

describe('the HTML report in headless chromium', () => {
  const report = catalogueReport({ bigBody: 200_001 });
  mkdirSync(OUT, { recursive: true });
  const page = join(OUT, 'report.html');
  writeFileSync(page, renderHtml(report));
  const url = pathToFileURL(page).href;

  it('fits a 1280 px window with a 200,001-character body, failures first, and leaves a screenshot', (ctx) => {
    if (!chromium) return ctx.skip(NO_BROWSER);
    const screenshot = join(OUT, 'report.png');
    rmSync(screenshot, { force: true });
    browse(url, `--screenshot=${screenshot}`);
    expect(statSync(screenshot).size).toBeGreaterThan(10_000);
    expect(readFileSync(screenshot).subarray(1, 4).toString()).toBe('PNG');

    for (const view of ['', '#open=all']) {
      const dom = browse(`${url}${view}`, '--dump-dom');
      const root = rootAttributes(dom);
      // Every fold open (#open=all) shows the whole 200,001-character body: it must wrap, not widen the page.
      expect(Number(root['data-client-width'])).toBeLessThanOrEqual(WIDTH);
      expect(Number(root['data-scroll-width']), `scrollWidth with ${view || 'the default view'}`).toBeLessThanOrEqual(
        Number(root['data-client-width']),
      );
      expect(root['data-shown-rules']).toBe(String(report.rules.length));
      const failing = report.rules
        .filter((r) => r.level === 'documented' && r.verdict === 'fail')
        .map((r) => r.id)
        .sort();
      expect(root['data-first-rule']).toBe(failing[0]);
      const order = [...dom.matchAll(/data-standing="(\w+)" data-text/g)].map((m) => m[1]);
      expect(order.slice(0, 3)).toEqual(['failing', 'failing', 'failing']);
      expect(order.lastIndexOf('failing')).toBeLessThan(order.indexOf('pass'));
    }
  });

  it('cuts no label of the summary bar, heading or filter at 390 and 1280 px, and leaves a screenshot of each', (ctx) => {
    if (!chromium) return ctx.skip(NO_BROWSER);
    // Counts of two and three digits in every verdict: the widest labels a summary bar gets.
    const busy = join(OUT, 'report-busy.html');
    writeFileSync(
      busy,
      renderHtml({ ...report, summary: { pass: 137, fail: 12, error: 11, skipped: 44, warn: 10, differs: 56 } }),
    );
    for (const width of [390, WIDTH]) {
      const screenshot = join(OUT, `report-${width}.png`);
      rmSync(screenshot, { force: true });
      browseAt(width, pathToFileURL(busy).href, `--screenshot=${screenshot}`);
      expect(statSync(screenshot).size, screenshot).toBeGreaterThan(10_000);
      const root = framedAt(width, busy);
      expect({ width, clipped: root['data-clipped'] }).toEqual({ width, clipped: '' });
      expect(Number(root['data-client-width']), `the frame is ${width} px wide`).toBeLessThanOrEqual(width);
      expect(Number(root['data-scroll-width']), `scrollWidth at ${width} px`).toBeLessThanOrEqual(
        Number(root['data-client-width']),
      );
    }
  });

  it('filters by verdict, area and text from the URL hash', (ctx) => {
    if (!chromium) return ctx.skip(NO_BROWSER);
    const expected = report.rules.filter(
      (r) =>
        r.verdict === 'pass' &&
        r.area === 'notes' &&
        [r.id, r.statement, r.reason, ...r.checks.flatMap((c) => [c.name, c.message])]
          .join(' ')
          .toLowerCase()
          .includes('title'),
    );
    expect(expected.length).toBeGreaterThan(1);
    const dom = browse(`${url}#verdict=pass&area=notes&q=title`, '--dump-dom');
    const root = rootAttributes(dom);
    expect(root['data-shown-rules']).toBe(String(expected.length));
    expect(root['data-first-rule']).toBe(expected[0]!.id);
    const visible = [...dom.matchAll(/<details class="rule" id="rule-([^"]+)"(?![^>]*\bhidden\b)[^>]*>/g)].map(
      (m) => m[1],
    );
    expect(visible).toEqual(expected.map((r) => r.id));
    expect(dom).toMatch(new RegExp(`<span id="shown"[^>]*>\\d+ of ${report.rules.length} rules shown</span>`));
    // The headings count what the filter shows; the groups it empties are hidden.
    const passed = report.rules.filter((r) => r.verdict === 'pass').length;
    expect(dom).toContain(`Passed (<span class="count">${expected.length} of ${passed}</span>)`);
    expect(dom).toMatch(/<section class="group" data-standing="failing" hidden/);
  });

  it('paints a difference from the reference profile in the neutral colour, in the report and the spec view', (ctx) => {
    if (!chromium) return ctx.skip(NO_BROWSER);
    const differs = report.rules.find((r) => r.verdict === 'differs')!;
    expect(differs.level).toBe('profile');
    // A probe appended to each page writes the computed colours onto <html>, which --dump-dom shows.
    const probe = (selector: string, property: string) =>
      `<script>(function(){var e=document.querySelector(${JSON.stringify(selector)});` +
      `document.documentElement.setAttribute('data-probe',e?getComputedStyle(e)[${JSON.stringify(property)}]:'missing');})();</script>`;
    const pages: Array<[string, string, string, string]> = [
      ['report', renderHtml(report), `details.rule[data-verdict=differs] summary .v`, 'backgroundColor'],
      [
        'spec',
        renderSpecHtml(report, readFileSync(specFile('api', 'notes-collections-v2.md'), 'utf8')),
        `mark.q[data-rules~="${differs.id}"]`,
        'borderBottomColor',
      ],
    ];
    for (const [name, html, selector, property] of pages) {
      const file = join(OUT, `${name}-differs.html`);
      writeFileSync(file, html.replace('</body>', `${probe(selector, property)}</body>`));
      const colour = rootAttributes(browse(pathToFileURL(file).href, '--dump-dom'))['data-probe'];
      expect(colour, name).toBe('rgb(9, 105, 218)');
    }
  });

  it('shows the spec view within the window too', (ctx) => {
    if (!chromium) return ctx.skip(NO_BROWSER);
    const spec = join(OUT, 'spec.html');
    writeFileSync(spec, renderSpecHtml(report, readFileSync(specFile('api', 'notes-collections-v2.md'), 'utf8')));
    const screenshot = join(OUT, 'spec.png');
    rmSync(screenshot, { force: true });
    browse(pathToFileURL(spec).href, `--screenshot=${screenshot}`);
    expect(existsSync(screenshot)).toBe(true);
    const root = rootAttributes(browse(pathToFileURL(spec).href, '--dump-dom'));
    expect(Number(root['data-scroll-width'])).toBeLessThanOrEqual(Number(root['data-client-width']));
    const narrow = framedAt(390, spec);
    expect({ clipped: narrow['data-clipped'], fits: Number(narrow['data-scroll-width']) <= 390 }).toEqual({
      clipped: '',
      fits: true,
    });
  });
});
