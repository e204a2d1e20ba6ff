import { headline, shownReason } from './group.js';
import { BASE_CSS, esc, MEASURE_SCRIPT, summaryBar } from './html-page.js';
import { markdownToHtml } from './markdown-html.js';
import { type Placement, placeQuotes } from './quote-places.js';
import { type ConformanceReport, type RuleResult, VERDICTS, type Verdict } from './report.js';
import { clip, plainReason } from './text.js';

/** Worst first, as a rule's verdict: the colour of text several rules quote. */
const WORST: readonly Verdict[] = ['fail', 'error', 'warn', 'differs', 'skipped', 'pass'];

/**
 * The spec view for reviewers: the API document itself, part by part, each quoted requirement
 * marked in the colour of its rules' verdicts, with the rule ids after it (and the reason where a
 * rule did not pass). `documentText` is spec/api/notes-collections-v2.md.
 */
export function renderSpecHtml(report: ConformanceReport, documentText: string): string {
  const source = documentText.replace(/\r\n?/g, '\n');
  const rules = new Map(report.rules.map((r) => [r.id, r]));
  const { placements, missing } = placeQuotes(report.rules, source);
  // For each raw offset, the rules quoting it.
  const cover: Array<Set<string> | undefined> = new Array(source.length);
  for (const p of placements) for (let i = p.start; i < p.end; i++) (cover[i] ??= new Set()).add(p.ruleId);
  const badged = new Set<Placement>();
  const parts = partRanges(source);

  const body = markdownToHtml(source, {
    text: (start, end) => markedText(source, start, end, cover, rules),
    after: (start, end) => {
      const here = placements.filter((p) => !badged.has(p) && p.end - 1 >= start && p.end - 1 < end);
      for (const p of here) badged.add(p);
      const ids = [...new Set(here.map((p) => p.ruleId))].sort();
      return ids.length === 0
        ? ''
        : ruleBadges(
            report,
            ids.map((id) => rules.get(id)!),
          );
    },
    part: (_title, index) =>
      `${index > 0 ? '</section>' : ''}<section class="part" id="part-${index + 1}">` +
      `<div class="tally">${tally(report, placements, parts[index])}</div>`,
  });
  const unplaced = [
    ...missing,
    ...placements.filter((p) => !badged.has(p)).map((p) => `${p.ruleId}: ${p.quote} (found, but outside any block)`),
  ];
  const unquoted = report.rules.filter((r) => !placements.some((p) => p.ruleId === r.id));
  const toc = parts
    .map((p, i) => `<li><a href="#part-${i + 1}">${esc(p.title)}</a> ${tally(report, placements, p)}</li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(`Spec view: ${headline(report)}`)}</title>
<style>${BASE_CSS}${SPEC_CSS}</style></head>
<body>
<header>
<h1>The API document, marked with the run's verdicts</h1>
<p class="headline ${report.interrupted ? 'interrupted' : report.exit_code === 0 ? 'passing' : 'failing'}">${esc(headline(report))}</p>
${summaryBar(report)}
<p class="meta">Target <code>${esc(report.target)}</code> · profile <b>${esc(report.profile)}</b>${report.profile_declared ? '' : ' (assumed)'} · seed ${report.seed}. Marked text is a rule's quote; its colour is the worst verdict of the rules quoting it: ${VERDICTS.map((v) => `<span class="v v-${v}">${v}</span>`).join(' ')}. The rule ids follow the sentence.</p>
${unplaced.length > 0 ? `<div class="unplaced"><b>Quotes not found in the document (${unplaced.length})</b><ul>${unplaced.map((m) => `<li>${esc(m)}</li>`).join('')}</ul></div>` : ''}
<nav><ol class="toc">${toc}</ol></nav>
</header>
<main class="document">
${body}${parts.length > 0 ? '</section>' : ''}
</main>
<section class="index"><h2>All rules (${report.rules.length})</h2><ul>${report.rules.map((r) => ruleEntry(report, r)).join('')}</ul>
${unquoted.length > 0 ? `<p>Not marked in the document: ${unquoted.map((r) => `<code>${esc(r.id)}</code>`).join(', ')}</p>` : ''}</section>
<script>${MEASURE_SCRIPT}measure();</script>
</body></html>
`;
}

interface Part {
  title: string;
  start: number;
  end: number;
}

function partRanges(source: string): Part[] {
  const heads = [...source.matchAll(/^## (.*)$/gm)];
  return heads.map((h, i) => ({
    title: h[1]!,
    start: h.index,
    end: i + 1 < heads.length ? heads[i + 1]!.index : source.length,
  }));
}

function markedText(
  source: string,
  start: number,
  end: number,
  cover: ReadonlyArray<Set<string> | undefined>,
  rules: ReadonlyMap<string, RuleResult>,
): string {
  const out: string[] = [];
  let runStart = start;
  const key = (i: number) => (cover[i] ? [...cover[i]!].sort().join(' ') : '');
  for (let i = start; i <= end; i++) {
    if (i < end && key(i) === key(runStart)) continue;
    const text = esc(source.slice(runStart, i));
    const ids = key(runStart);
    if (ids) {
      const verdicts = ids.split(' ').map((id) => rules.get(id)!.verdict);
      const worst = WORST.find((v) => verdicts.includes(v))!;
      out.push(
        `<mark class="q v-${worst}" data-rules="${esc(ids)}" title="${esc(
          ids
            .split(' ')
            .map((id) => `${id}: ${rules.get(id)!.verdict}`)
            .join('\n'),
        )}">${text}</mark>`,
      );
    } else out.push(text);
    runStart = i;
  }
  return out.join('');
}

function ruleBadges(report: ConformanceReport, rules: readonly RuleResult[]): string {
  const chips = rules
    .map(
      (r) =>
        `<a class="chip v-${r.verdict}" href="#rule-${esc(r.id)}" data-rule="${esc(r.id)}" title="${esc(`${r.verdict}: ${r.statement}`)}">` +
        `${esc(r.id)} <b>${r.verdict}</b></a>`,
    )
    .join(' ');
  const findings = rules
    .filter((r) => r.verdict !== 'pass')
    .map(
      (r) =>
        `<span class="finding"><code>${esc(r.id)}</code> ${r.verdict}: ${esc(clip(plainReason(reasonOf(report, r)), 300))}</span>`,
    )
    .join('');
  return ` <span class="rules">${chips}${findings}</span>`;
}

function reasonOf(report: ConformanceReport, rule: RuleResult): string {
  return shownReason(report, rule) || 'no reason given';
}

function tally(report: ConformanceReport, placements: readonly Placement[], part: Part | undefined): string {
  if (!part) return '';
  const ids = new Set(placements.filter((p) => p.start >= part.start && p.start < part.end).map((p) => p.ruleId));
  const counts = VERDICTS.map(
    (v) => [v, report.rules.filter((r) => ids.has(r.id) && r.verdict === v).length] as const,
  ).filter(([, n]) => n > 0);
  return counts.map(([v, n]) => `<span class="v v-${v}">${n} ${v}</span>`).join(' ');
}

function ruleEntry(report: ConformanceReport, rule: RuleResult): string {
  return (
    `<li id="rule-${esc(rule.id)}"><span class="v v-${rule.verdict}">${rule.verdict}</span> <code>${esc(rule.id)}</code> (${rule.level}, ${esc(rule.section)}): ` +
    `${esc(rule.statement)}${rule.verdict === 'pass' ? '' : ` <i>${esc(clip(plainReason(reasonOf(report, rule)), 500))}</i>`}</li>`
  );
}

const SPEC_CSS = `
main.document{line-height:1.6}
main.document table{border-collapse:collapse;margin:.5rem 0;display:block;max-width:100%;overflow-x:auto}
main.document td,main.document th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top;overflow-wrap:break-word}
section.part{border-top:2px solid #d0d7de;margin-top:1.5rem}
.tally{float:right;margin-top:.4rem}
mark.q{padding:0 1px;border-radius:2px}
mark.q.v-pass{background:#dafbe1;border-bottom:2px solid #1a7f37}
mark.q.v-fail{background:#ffebe9;border-bottom:2px solid #cf222e}
mark.q.v-error{background:#fff1e5;border-bottom:2px solid #bc4c00}
mark.q.v-warn{background:#fff8c5;border-bottom:2px solid #9a6700}
mark.q.v-skipped{background:#eaeef2;border-bottom:2px dashed #6e7781}
mark.q.v-differs{background:#ddf4ff;border-bottom:2px dotted #0969da}
.rules{display:inline}
.chip{display:inline-block;font:11px/1.5 ui-monospace,monospace;color:#fff;border-radius:3px;padding:0 .35rem;margin:1px 2px;text-decoration:none;white-space:normal}
${VERDICTS.map((v) => `.chip.v-${v} b{font-weight:700}`).join('')}
.finding{display:block;font-size:12px;color:#57606a;margin:.1rem 0 .1rem 1rem}
.unplaced{border:1px solid #cf222e;padding:.4rem .8rem;border-radius:4px;margin:.5rem 0}
ol.toc{columns:2;font-size:13px}
.index li{margin:.2rem 0}
`;
