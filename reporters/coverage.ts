import type { BehaviourCoverage, ConformanceReport, CoverageTarget } from './report.js';

/**
 * Behaviour coverage in words, for every renderer: one line for the terminal, the targets left
 * for Markdown and HTML, so that a user reads what the run did not look at, not only what it judged.
 */

const pct = (n: number, of: number) => (of === 0 ? '100%' : `${Math.floor((100 * n) / of)}%`);

/** "behaviour coverage: 398 of 497 reachable targets (80%): state 316/408, ...; 12 not reachable". */
export function coverageLine(report: ConformanceReport): string | undefined {
  const c = report.behaviour_coverage;
  if (!c) return undefined;
  const dims = Object.entries(c.by_dimension)
    .map(([d, n]) => `${d} ${n.covered}/${n.reachable}`)
    .join(', ');
  const unreachable = c.total - c.reachable;
  return (
    `behaviour coverage: ${c.covered} of ${c.reachable} reachable targets visited (${pct(c.covered, c.reachable)}): ${dims}` +
    (unreachable > 0 ? `; ${unreachable} not reachable with this profile` : '')
  );
}

/** The targets not covered, then those not reachable, each with why; grouped by reason. */
export function targetsLeft(c: BehaviourCoverage): Array<{ status: string; why: string; targets: CoverageTarget[] }> {
  const groups = new Map<string, { status: string; why: string; targets: CoverageTarget[] }>();
  for (const t of c.targets) {
    if (t.status === 'covered') continue;
    const key = `${t.status}\u0000${t.why ?? ''}`;
    const g = groups.get(key) ?? { status: t.status, why: t.why ?? '', targets: [] };
    g.targets.push(t);
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) =>
    a.status === b.status ? b.targets.length - a.targets.length : a.status === 'not covered' ? -1 : 1,
  );
}
