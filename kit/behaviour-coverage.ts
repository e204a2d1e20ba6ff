import type { BehaviourCoverage, CoverageCounts, CoverageTarget } from '../reporters/report.js';
import type { KitContext } from './core/context.js';
import { allTargets, DIMENSIONS } from './core/explore/space.js';
import { unmetNeedIn } from './core/needs.js';
import type { RunJudgements } from './core/oracle/merge.js';

/**
 * The report's behaviour coverage: every target of spec/behaviour-space.yaml with whether an
 * answer of the run visited it, and for those left, why: a declaration the profile does not make,
 * the explorer's budget, or nothing of the run having gone there.
 */
export function behaviourCoverage(ctx: KitContext, run: RunJudgements): BehaviourCoverage {
  const covered = new Set(run.coverage);
  const budget = ctx.budgets.explore_requests;
  const left = !run.explored.ran
    ? 'the explorer did not run (its check was not selected or was skipped)'
    : run.explored.budgetSpent
      ? `the explorer's budget ran out first (${budget} requests, budgets.explore_requests)`
      : 'no request of the run reached it';
  const targets: CoverageTarget[] = allTargets().map((t) => {
    if (covered.has(t.id)) return { id: t.id, dimension: t.dimension, status: 'covered' };
    const unmet = t.needs.map((need) => unmetNeedIn(ctx, `profile:${need}`, Number.MAX_SAFE_INTEGER)).find(Boolean);
    return unmet
      ? { id: t.id, dimension: t.dimension, status: 'not reachable', why: unmet }
      : { id: t.id, dimension: t.dimension, status: 'not covered', why: left };
  });
  const count = (list: readonly CoverageTarget[]): CoverageCounts => ({
    covered: list.filter((t) => t.status === 'covered').length,
    reachable: list.filter((t) => t.status !== 'not reachable').length,
    total: list.length,
  });
  return {
    ...count(targets),
    by_dimension: Object.fromEntries(DIMENSIONS.map((d) => [d, count(targets.filter((t) => t.dimension === d))])),
    targets,
  };
}
