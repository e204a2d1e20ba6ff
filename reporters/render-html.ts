import { byArea, countsLine, curlOf } from './group.js';
import type { ConformanceReport, Verdict } from './report.js';

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const COLOUR: Record<Verdict, string> = { pass: '#1a7f37', fail: '#cf222e', error: '#bc4c00', warn: '#9a6700', skipped: '#57606a' };

/** One self-contained HTML file (inline CSS, no scripts): the matrix, with evidence folded per rule. */
export function renderHtml(report: ConformanceReport): string {
  const areas = byArea(report).map((area) => {
    const rows = area.rules.map((rule) => {
      const checks = rule.checks.map((c) => {
        const evidence = (c.evidence ?? []).map((x) =>
          `<pre>${esc(curlOf(report.target, x))}\n# -> ${x.status}\n${esc(x.text.slice(0, 2000))}</pre>`).join('');
        return `<li><span class="v ${c.verdict}">${c.verdict}</span> ${esc(c.name)} <code>${esc(c.file)}</code>${c.message ? `<div class="msg">${esc(c.message)}</div>` : ''}${c.seed !== undefined ? `<div class="msg">seed ${c.seed}</div>` : ''}${evidence}</li>`;
      }).join('');
      return `<tr><td><details><summary><code>${esc(rule.id)}</code></summary><p>${esc(rule.statement)}<br><small>${esc(rule.section)}</small></p><ul>${checks}</ul></details></td>`
        + `<td>${rule.level}</td><td><span class="v ${rule.verdict}">${rule.verdict}</span></td><td>${esc(rule.reason)}</td></tr>`;
    }).join('\n');
    return `<h2>${esc(area.area)}</h2><p>${countsLine(area.counts)}</p><table><thead><tr><th>Rule</th><th>Level</th><th>Verdict</th><th>Reason</th></tr></thead><tbody>${rows}</tbody></table>`;
  }).join('\n');
  const style = Object.entries(COLOUR).map(([v, c]) => `.v.${v}{background:${c}}`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance report: ${esc(report.target)}</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1f2328}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
.v{color:#fff;border-radius:3px;padding:0 .35rem;font-size:12px}${style}pre{background:#f6f8fa;padding:.5rem;overflow:auto;white-space:pre-wrap}.msg{color:#57606a}summary{cursor:pointer}</style></head>
<body><h1>Conformance report</h1>
<p>Target <code>${esc(report.target)}</code>, profile <b>${esc(report.profile)}</b>${report.profile_declared ? '' : ' (assumed)'}, seed ${report.seed}, ${report.requests} requests, ${report.leftovers} left behind.</p>
<p><b>${countsLine(report.summary)}</b>. Exit ${report.exit_code}: ${esc(report.exit_reason)}.</p>
${report.run_errors.length ? `<h2>Run errors</h2><ul>${report.run_errors.map((e) => `<li>${esc(e)}</li>`).join('')}</ul>` : ''}
${areas}
</body></html>
`;
}
