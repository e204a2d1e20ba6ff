import { coverageLine, targetsLeft } from './coverage.js';
import {
  byArea,
  causes,
  DIFFERS,
  documentQuote,
  headline,
  leftIds,
  REPRO_WORDS,
  replayWords,
  requestsWords,
  rulesInDisplayOrder,
  STANDINGS,
  type Standing,
  shownReason,
  standingOf,
} from './group.js';
import { BASE_CSS, COPY_SCRIPT, copyableBlock, esc, MEASURE_SCRIPT, summaryBar } from './html-page.js';
import {
  type CheckResult,
  type ConformanceReport,
  type EvidenceExchange,
  type RuleResult,
  VERDICTS,
} from './report.js';
import { clip, plainReason, plural } from './text.js';

const GROUP_TITLE: Record<Standing, string> = {
  failing: 'Rules that fail the run',
  warn: 'Warnings and errors (not counted)',
  differs: `Rules that ${DIFFERS}`,
  skipped: 'Skipped',
  pass: 'Passed',
};

/**
 * One self-contained HTML page: headline and summary bar, a filter (verdict, area, text; also from
 * the URL: #verdict=fail&area=notes&q=words&open=all), then the rules with what fails the run first and open.
 * Evidence and repro have copy buttons; long text wraps and folds so the page keeps the window's width.
 */
export function renderHtml(report: ConformanceReport): string {
  const ordered = rulesInDisplayOrder(report);
  const groups = STANDINGS.map((standing) => {
    const rules = ordered.filter((r) => standingOf(report, r) === standing);
    if (rules.length === 0) return '';
    return (
      `<section class="group" data-standing="${standing}"><h2>${GROUP_TITLE[standing]} (<span class="count">${rules.length}</span>)</h2>\n` +
      `${rules.map((r) => ruleBlock(report, r, standing)).join('\n')}\n</section>`
    );
  }).join('\n');
  const status = report.interrupted ? 'interrupted' : report.exit_code === 0 ? 'passing' : 'failing';
  const areas = byArea(report)
    .map((a) => `<option value="${esc(a.area)}">${esc(a.area)} (${a.rules.length})</option>`)
    .join('');
  const verdicts = VERDICTS.map((v) => `<option value="${v}">${v} (${report.summary[v]})</option>`).join('');
  const runErrors =
    report.run_errors.length === 0
      ? ''
      : `<section class="run-errors"><h2>Run errors (${report.run_errors.length})</h2><ul>${report.run_errors.map((e) => `<li>${esc(clip(e, 2000))}</li>`).join('')}</ul></section>`;
  // The causes first (group.ts causes): what the target did that left many rules unjudged.
  const grouped = causes(report);
  const causeList =
    grouped.length === 0
      ? ''
      : `<section class="run-errors causes"><h2>Causes (${grouped.length})</h2><ul>${grouped
          .map(
            (c) =>
              `<li><details><summary><b>${esc(c.cause)}</b>: ${plural(c.ids.length, 'rule')} cannot be judged</summary>${esc(c.ids.join(', '))}</details></li>`,
          )
          .join('')}</ul></section>`;
  const coverage = report.behaviour_coverage;
  const coverageList = !coverage
    ? ''
    : `<section class="coverage"><h2>Behaviour coverage</h2><p>${esc(coverageLine(report)!)}</p><ul>${targetsLeft(
        coverage,
      )
        .map(
          (g) =>
            `<li><details><summary><b>${g.targets.length} ${esc(g.status)}</b>: ${esc(g.why)}</summary>${esc(
              g.targets.map((t) => t.id).join(', '),
            )}</details></li>`,
        )
        .join('')}</ul></section>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(`notes-conformance: ${headline(report)}`)}</title>
<style>${BASE_CSS}${REPORT_CSS}</style></head>
<body>
<header>
<h1>Conformance report</h1>
<p class="headline ${status}">${esc(headline(report))}</p>
${summaryBar(report)}
<p class="meta">Target <code>${esc(report.target)}</code> · profile <b>${esc(report.profile)}</b>${report.profile_declared ? '' : ' (assumed: no profile given)'} · seed ${report.seed} · ${requestsWords(report)} · ${plural(report.leftovers, 'resource')} left behind${esc(leftIds(report, 20))} · notes-conformance ${esc(report.kit.version)}</p>
<p class="exit"><b>Exit ${report.exit_code}</b>: ${esc(report.exit_reason)}.</p>
</header>
<form id="filter" class="filters" role="search" onsubmit="return false">
<label>Verdict <select name="verdict"><option value="">all</option><option value="failing">fails the run</option>${verdicts}</select></label>
<label>Area <select name="area"><option value="">all</option>${areas}</select></label>
<label>Text <input name="q" type="search" placeholder="rule id, words of a reason or check"></label>
<label><input name="open" type="checkbox" value="all"> expand all</label>
<span id="shown" aria-live="polite"></span>
</form>
${causeList}${runErrors}
<main id="rules">
${groups}
</main>
${coverageList}
<script>${MEASURE_SCRIPT}${FILTER_SCRIPT}${COPY_SCRIPT}</script>
</body></html>
`;
}

function ruleBlock(report: ConformanceReport, rule: RuleResult, standing: Standing): string {
  const reason = shownReason(report, rule);
  const searchable = [rule.id, rule.statement, reason, ...rule.checks.flatMap((c) => [c.name, c.message])]
    .join(' ')
    .toLowerCase();
  const open = standing === 'failing' ? ' open' : '';
  return (
    `<details class="rule" id="rule-${esc(rule.id)}"${open} data-verdict="${rule.verdict}" data-area="${esc(rule.area)}" data-standing="${standing}" data-text="${esc(clip(searchable, 3000))}">` +
    `<summary><span class="v v-${rule.verdict}">${rule.verdict}</span> <code class="id">${esc(rule.id)}</code> <span class="level">${rule.level}</span>` +
    `${reason ? ` <span class="reason">${esc(clip(plainReason(reason), 400))}</span>` : ''}</summary>` +
    `<div class="body"><p class="statement">${esc(rule.statement)} <small>(${esc(rule.section)})</small></p>` +
    `${rule.verdict === 'fail' ? `<blockquote class="quote">${esc(documentQuote(rule))}</blockquote>` : ''}` +
    `${reason.length > 400 ? `<p class="full-reason">${esc(plainReason(reason))}</p>` : ''}` +
    `${rule.checks.length > 0 ? `<ul class="checks">${rule.checks.map((c) => checkItem(c, standing === 'failing')).join('')}</ul>` : ''}</div></details>`
  );
}

function checkItem(check: CheckResult, open: boolean): string {
  const seconds =
    check.duration_ms !== undefined ? ` <span class="time">${(check.duration_ms / 1000).toFixed(2)} s</span>` : '';
  const parts = [
    `<span class="v v-${check.verdict}">${check.verdict}</span> ${esc(check.name)} <code>${esc(check.file)}</code>${seconds}`,
  ];
  if (check.message) parts.push(`<div class="msg">${esc(plainReason(check.message))}</div>`);
  if (check.seed !== undefined) parts.push(`<div class="msg">seed ${check.seed}</div>`);
  const replay = replayWords(check.replayed);
  if (replay) parts.push(`<div class="msg replay replay-${check.replayed!.result}">${esc(replay)}</div>`);
  if (check.repro)
    parts.push(
      `<div class="repro"><b>Reproduce</b> <small>${esc(REPRO_WORDS)}</small>${copyableBlock(check.repro, 'repro')}</div>`,
    );
  const evidence = check.evidence ?? [];
  if (evidence.length > 0) {
    parts.push(
      `<details class="evidence"${open ? ' open' : ''}><summary>Evidence: ${plural(evidence.length, 'exchange')}</summary>${evidence.map(exchange).join('')}</details>`,
    );
  }
  return `<li class="check">${parts.join('')}</li>`;
}

function exchange(x: EvidenceExchange): string {
  const request = [
    `${x.method} ${x.path}`,
    ...Object.entries(x.requestHeaders).map(([k, v]) => `${k}: ${v}`),
    ...(x.requestBody !== undefined ? ['', x.requestBody] : []),
  ].join('\n');
  const response = [`${x.status}`, ...Object.entries(x.headers).map(([k, v]) => `${k}: ${v}`), '', x.text].join('\n');
  return (
    `<div class="exchange"><div class="x-head"><code>${esc(`${x.method} ${x.path}`)}</code> → <b>${x.status}</b>${harLink(x)}</div>` +
    `<div class="x-part">request</div>${copyableBlock(request, 'request')}<div class="x-part">response</div>${copyableBlock(response, 'response')}</div>`
  );
}

/** The exchange's entry in the run's recording (`--har`), which a browser's developer tools open. */
function harLink(x: EvidenceExchange): string {
  if (!x.har_entry) return '';
  const { file, id } = x.har_entry;
  return ` · <a class="har" href="${esc(file)}" title="open in the developer tools: Network, Import HAR">HAR entry ${esc(id)}</a>`;
}

const REPORT_CSS = `
.filters{position:sticky;top:0;background:#fff;border-bottom:1px solid #d0d7de;padding:.5rem 0;display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;z-index:1}
.filters input[type=search]{width:18rem;max-width:100%}
#shown{color:#57606a}
details.rule{border:1px solid #d0d7de;border-radius:4px;margin:.35rem 0;padding:.3rem .6rem}
details.rule[data-standing=failing]{border-left:4px solid #cf222e}
details.rule>summary .reason{color:#57606a}
details.rule .level{color:#57606a;font-size:12px}
.statement small,.time{color:#57606a}
.quote{margin:.4em 0;padding:.2em .8em;border-left:3px solid #d0d7de;color:#57606a}
ul.checks{padding-left:1.1rem;margin:.3rem 0}
.coverage ul{list-style:none;padding-left:0}
.coverage details>div,.coverage details{overflow-wrap:anywhere}
li.check{margin:.4rem 0}
.msg{color:#57606a;margin:.15rem 0}
.replay-not-reproduced{color:#9a6700}
.x-head{margin-top:.4rem}.x-part{font-size:11px;color:#57606a;text-transform:uppercase;margin-top:.2rem}
[hidden]{display:none!important}
`;

/** The filter: hides rules that do not match; the state lives in the URL hash so a filtered view can be shared. */
const FILTER_SCRIPT = `
(function () {
  var form = document.getElementById('filter');
  var rules = Array.prototype.slice.call(document.querySelectorAll('details.rule'));
  function readHash() {
    var raw = (location.hash || '').replace(/^#/, '') || location.search.replace(/^\\?/, '');
    if (raw.indexOf('=') < 0) return; // a plain anchor (#rule-...), not a filter
    var params = new URLSearchParams(raw);
    ['verdict', 'area', 'q'].forEach(function (name) { if (params.has(name)) form.elements[name].value = params.get(name); });
    form.elements.open.checked = params.get('open') === 'all';
    expand();
  }
  var initiallyOpen = Array.prototype.filter.call(document.querySelectorAll('details'), function (d) { return d.open; });
  function expand() {
    var all = form.elements.open.checked;
    Array.prototype.forEach.call(document.querySelectorAll('details'), function (d) { d.open = all || initiallyOpen.indexOf(d) >= 0; });
  }
  function apply() {
    var verdict = form.elements.verdict.value, area = form.elements.area.value;
    var words = form.elements.q.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0, first = '';
    rules.forEach(function (rule) {
      var ok = (!verdict || rule.dataset.verdict === verdict || rule.dataset.standing === verdict)
        && (!area || rule.dataset.area === area)
        && words.every(function (w) { return rule.dataset.text.indexOf(w) >= 0; });
      rule.hidden = !ok;
      if (ok) { shown++; if (!first) first = rule.id.replace(/^rule-/, ''); }
    });
    // Each heading counts what the filter shows of its group: "2 of 40" while a filter hides some.
    Array.prototype.forEach.call(document.querySelectorAll('section.group'), function (group) {
      var all = group.querySelectorAll('details.rule').length;
      var visible = group.querySelectorAll('details.rule:not([hidden])').length;
      group.hidden = visible === 0;
      group.querySelector('h2 .count').textContent = visible === all ? String(all) : visible + ' of ' + all;
    });
    document.getElementById('shown').textContent = shown + ' of ' + rules.length + ' rules shown';
    var root = document.documentElement;
    root.setAttribute('data-shown-rules', String(shown));
    root.setAttribute('data-first-rule', first);
    measure();
  }
  function update(event) {
    if (event && event.target === form.elements.open) expand();
    var params = new URLSearchParams();
    ['verdict', 'area', 'q'].forEach(function (name) { if (form.elements[name].value) params.set(name, form.elements[name].value); });
    if (form.elements.open.checked) params.set('open', 'all');
    history.replaceState(null, '', params.toString() ? '#' + params.toString() : location.pathname + location.search);
    apply();
  }
  form.addEventListener('input', update);
  form.addEventListener('change', update);
  window.addEventListener('hashchange', function () { readHash(); apply(); });
  readHash();
  apply();
})();
`;
