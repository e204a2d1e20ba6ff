import { type ConformanceReport, type RuleResult, VERDICTS, type Verdict } from './report.js';

export interface AreaSummary {
  area: string;
  counts: Record<Verdict, number>;
  rules: RuleResult[];
}

/** Rules grouped by area (the first segment of their id), areas sorted by name. */
export function byArea(report: ConformanceReport): AreaSummary[] {
  const areas = new Map<string, AreaSummary>();
  for (const rule of report.rules) {
    let area = areas.get(rule.area);
    if (!area) areas.set(rule.area, (area = { area: rule.area, counts: Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>, rules: [] }));
    area.counts[rule.verdict]++;
    area.rules.push(rule);
  }
  return [...areas.values()].sort((a, b) => a.area.localeCompare(b.area));
}

export function countsLine(counts: Record<Verdict, number>): string {
  return VERDICTS.map((v) => `${counts[v]} ${v}`).join(', ');
}

/** A curl command that replays an exchange; the token stays in the environment. */
export function curlOf(target: string, x: { method: string; path: string; requestHeaders: Record<string, string>; requestBody?: string }): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const parts = ['curl -sS', `-X ${x.method}`, quote(`${target.replace(/\/$/, '')}${x.path}`)];
  for (const [name, value] of Object.entries(x.requestHeaders)) {
    if (name === 'authorization') parts.push(value.endsWith('***') ? `-H "Authorization: Bearer $NOTES_TOKEN"` : `-H ${quote(`${name}: ${value}`)}`);
    else if (name !== 'accept') parts.push(`-H ${quote(`${name}: ${value}`)}`);
  }
  if (x.requestBody !== undefined) parts.push(`--data-raw ${quote(x.requestBody)}`);
  return parts.join(' ');
}
