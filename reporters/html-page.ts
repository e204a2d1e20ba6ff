/**
 * The parts of the HTML pages (report and spec view) that do not depend on the report: escaping,
 * the style sheet, the summary bar and the inline script. No external assets: the pages work offline
 * and from a CI artifact.
 */
import { countsLine } from './group.js';
import { type ConformanceReport, VERDICTS } from './report.js';

export function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export const VERDICT_COLOUR = {
  pass: '#1a7f37',
  fail: '#cf222e',
  error: '#bc4c00',
  warn: '#9a6700',
  skipped: '#6e7781',
  // Neutral: a difference from the reference profile is information, not a failure or a warning.
  differs: '#0969da',
} as const;

/** Everything wraps: a 200,001-character body without a blank in it must not widen the page. */
export const BASE_CSS = `
*{box-sizing:border-box}
html{overflow-wrap:anywhere}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;padding:1rem 1.5rem;max-width:1200px;color:#1f2328;background:#fff}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.15rem;margin:1.4rem 0 .5rem}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px;padding:.5rem;margin:.3rem 0;white-space:pre-wrap;word-break:break-word;overflow-wrap:anywhere;max-width:100%;max-height:24em;overflow:auto}
.v{display:inline-block;color:#fff;border-radius:3px;padding:0 .4rem;font-size:12px;font-weight:600;min-width:3.6em;text-align:center}
${Object.entries(VERDICT_COLOUR)
  .map(([v, c]) => `.v-${v}{background:${c}}`)
  .join('')}
.bar{display:flex;height:.7rem;border-radius:4px;overflow:hidden;margin:.6rem 0 .3rem}
.bar span{min-width:.3rem}
.legend{display:flex;flex-wrap:wrap;gap:.3rem .5rem;list-style:none;padding:0;margin:0 0 .4rem}
.headline{font-size:1.1rem;font-weight:600;margin:.3rem 0}
.headline.failing{color:${VERDICT_COLOUR.fail}}.headline.passing{color:${VERDICT_COLOUR.pass}}.headline.interrupted{color:${VERDICT_COLOUR.error}}
.meta{color:#57606a;margin:.2rem 0}
.copyable{position:relative}
.copy{position:absolute;top:.35rem;right:.35rem;font-size:11px;padding:.1rem .45rem;border:1px solid #d0d7de;border-radius:3px;background:#fff;cursor:pointer}
.copyable>pre{padding-right:4rem}
summary{cursor:pointer}
`;

/**
 * The verdict counts as a proportional bar, and as a legend of their own below it: labels inside
 * the segments were cut where a segment is narrow (a few warnings in a 390 px window).
 */
export function summaryBar(report: ConformanceReport): string {
  const shown = VERDICTS.filter((v) => report.summary[v] > 0);
  const segments = shown.map(
    (v) => `<span class="v-${v}" style="flex-grow:${report.summary[v]}" title="${report.summary[v]} ${v}"></span>`,
  );
  const legend = shown.map((v) => `<li><span class="v v-${v}">${report.summary[v]} ${v}</span></li>`);
  const label = countsLine(report.summary, true);
  return `<div class="bar" role="img" aria-label="${esc(label)}">${segments.join('')}</div><ul class="legend">${legend.join('')}</ul>`;
}

/** A <pre> with a copy button; text longer than `fold` shows its start and folds the whole. */
export function copyableBlock(text: string, className: string, fold = 4000): string {
  const button = '<button type="button" class="copy" title="copy to the clipboard">copy</button>';
  if (text.length <= fold) return `<div class="copyable">${button}<pre class="${className}">${esc(text)}</pre></div>`;
  return (
    `<div class="copyable">${button}<pre class="${className} preview">${esc(text.slice(0, fold))}\n...</pre>` +
    `<details class="whole"><summary>all ${text.length.toLocaleString('en-US')} characters</summary><pre class="${className} full">${esc(text)}</pre></details></div>`
  );
}

/** Copy buttons: the whole text (the folded full copy when there is one); the clipboard API, else a selection. */
export const COPY_SCRIPT = `
document.addEventListener('click', function (event) {
  var button = event.target.closest && event.target.closest('button.copy');
  if (!button) return;
  var box = button.closest('.copyable');
  var source = box.querySelector('pre.full') || box.querySelector('pre');
  var text = source.textContent;
  var done = function () { button.textContent = 'copied'; setTimeout(function () { button.textContent = 'copy'; }, 1500); };
  var fallback = function () {
    var area = document.createElement('textarea');
    area.value = text; document.body.appendChild(area); area.select();
    try { document.execCommand('copy'); done(); } catch (e) { button.textContent = 'select and copy'; }
    area.remove();
  };
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, fallback); else fallback();
});
`;

/**
 * Records the layout on the root element (data-scroll-width, data-client-width, and data-clipped:
 * the labels and headings whose text is cut by their box): the browser test reads them from
 * --dump-dom to check that nothing widens the page and no label is cut.
 */
export const MEASURE_SCRIPT = `
function measure() {
  var root = document.documentElement;
  root.setAttribute('data-scroll-width', String(root.scrollWidth));
  root.setAttribute('data-client-width', String(root.clientWidth));
  // Cut: the text's own box reaches past the element's (overflow hidden, or centred past both edges).
  var cut = Array.prototype.filter.call(document.querySelectorAll('.v, .bar span, h1, h2, .filters label'), function (e) {
    if (e.offsetParent === null || !e.textContent.trim()) return false;
    var range = document.createRange();
    range.selectNodeContents(e);
    var text = range.getBoundingClientRect(), box = e.getBoundingClientRect();
    return text.left < box.left - 1 || text.right > box.right + 1;
  });
  root.setAttribute('data-clipped', cut.map(function (e) { return e.textContent.trim(); }).join(' | '));
}
`;
