import { describe, expect, it } from 'vitest';
import { REMOTE_BUDGETS } from '../../../kit/budgets.js';
import type { DeclaredCheck } from '../../../kit/coverage.js';
import { loadNoteCosts, noteCostOf } from '../../../kit/note-costs.js';
import { type PlanInput, planLine, planUnderCap } from '../../../kit/plan.js';
import { packageRoot } from '../../../spec/paths.js';
import type { RuleLevel } from '../../../spec/rules.js';

/** The planner alone (kit/plan.ts), on made-up checks: which fit a cap, and why. */

const check = (name: string, rules: string[]): DeclaredCheck => ({
  file: `${packageRoot}/suites/area/x.check.ts`,
  name: `${name} [${rules.join(' ')}]`,
  rules,
});
const key = (name: string) => `suites/area/x.check.ts::${name}`;

function input(over: Partial<PlanInput>): PlanInput {
  const levels = new Map<string, RuleLevel>([
    ['d1', 'documented'],
    ['d2', 'documented'],
    ['d3', 'documented'],
    ['p1', 'profile'],
    ['p2', 'profile'],
  ]);
  return {
    checks: [],
    costs: {},
    cap: 10,
    capWhat: '--max-notes 10',
    levels,
    inRun: () => true,
    ...over,
  };
}

describe('the plan under a note cap', () => {
  it('always runs checks that create no note, and fills the cap by rules per note', () => {
    const plan = planUnderCap(
      input({
        checks: [check('free', ['d1']), check('cheap', ['d2']), check('dear', ['d3']), check('wide', ['d2', 'd3'])],
        costs: { [key('cheap')]: 2, [key('dear')]: 9, [key('wide')]: 3 },
        cap: 6,
      }),
    );
    // wide: 2 new documented rules for 3 notes (0.67/note) beats cheap (0.5) and dear; then cheap fits
    // (2), one note kept free for creates the target should refuse.
    expect(Object.keys(plan.skipped)).toEqual([key('dear')]);
    expect(plan.notes).toBe(5);
    expect(plan.rulesInPlan).toBe(3);
    expect(plan.rulesCut).toBe(0);
    expect(plan.skipped[key('dear')]).toMatch(/^not in this run: --max-notes 10 leaves no room for its 9 note\(s\)/);
  });

  it('takes documented rules before profile rules, whatever their rules per note', () => {
    const plan = planUnderCap(
      input({
        checks: [check('profiles', ['p1', 'p2']), check('documented', ['d1'])],
        costs: { [key('profiles')]: 1, [key('documented')]: 4 },
        cap: 5,
      }),
    );
    expect(Object.keys(plan.skipped)).toEqual([key('profiles')]);
    expect(planLine(5, plan)).toBe(
      "notes-conformance: 5 notes: 1 rule within the cap, 2 skipped for the cap (unless the run's oracle judges them from other checks' answers)\n",
    );
  });

  it('is the same plan whatever order the checks come in, and leaves out checks not in the run', () => {
    const checks = ['a', 'b', 'c', 'd', 'e'].map((n) => check(n, [`d${(n.charCodeAt(0) % 3) + 1}`]));
    const costs = Object.fromEntries(checks.map((c, i) => [key(c.name.split(' [')[0]!), 2 + (i % 2)]));
    const one = planUnderCap(input({ checks, costs, cap: 6 }));
    const two = planUnderCap(input({ checks: [...checks].reverse(), costs, cap: 6 }));
    expect(two).toEqual(one);
    const narrowed = planUnderCap(input({ checks, costs, cap: 6, inRun: (c) => c.name.startsWith('a ') }));
    expect(Object.keys(narrowed.skipped)).toEqual([]);
  });

  it('counts the rules --only reports, not the other rules of the checks it runs', () => {
    const checks = [check('wide', ['d1', 'd2', 'p1']), check('dear', ['d3'])];
    const costs = { [key('wide')]: 2, [key('dear')]: 9 };
    const all = planUnderCap(input({ checks, costs, cap: 4 }));
    expect([all.rulesInPlan, all.rulesCut]).toEqual([3, 1]);
    const one = planUnderCap(input({ checks, costs, cap: 4, only: ['d1'] }));
    expect([one.rulesInPlan, one.rulesCut]).toEqual([1, 0]);
    expect(planUnderCap(input({ checks, costs, cap: 4, only: ['d3'] }))).toMatchObject({ rulesInPlan: 0, rulesCut: 1 });
  });

  it("reads each check's cost from the measured table; a seed-dependent one by its bound", () => {
    const costs = loadNoteCosts();
    const model = Object.keys(costs).find((k) => k.startsWith('suites/model/model.check.ts::'));
    expect(model, 'the model-based run has a bound in kit/note-costs.json').toBeDefined();
    expect(noteCostOf(costs, model!)).toBe(REMOTE_BUDGETS.model_max_commands);
    expect(noteCostOf(costs, 'suites/none.check.ts::no such check')).toBe(0);
  });
});
