import { plural } from '../reporters/text.js';
import { type RuleLevel, selectedByOnly } from '../spec/rules.js';
import { checkKey } from './core/check-key.js';
import type { DeclaredCheck } from './coverage.js';
import { type NoteCosts, noteCostOf } from './note-costs.js';

/**
 * The run's plan under a note cap, made before the first check runs: which checks fit the notes
 * the cap allows. Without it the first checks to run took the notes and two capped runs with one
 * seed judged different rules (issue 20); with it the same checks run every time.
 *
 * Greedy set cover, in two rounds: first the checks that judge documented rules, then the rest;
 * within a round, the check that judges the most rules not yet covered per note it costs (checks
 * that create no note always run). Ties go to the check key, so the plan is the same on any
 * machine. A note cost comes from kit/note-costs.json (measured against the fake, kept current by
 * test/kit/cap-plan.test.ts).
 */

export interface CapPlan {
  /** Check key -> why it is skipped (naming the cap). */
  skipped: Record<string, string>;
  /** Notes the planned checks are expected to create. */
  notes: number;
  /** Rules with at least one planned check, and rules whose every check was left out for the cap. */
  rulesInPlan: number;
  rulesCut: number;
}

export interface PlanInput {
  checks: readonly DeclaredCheck[];
  costs: NoteCosts;
  cap: number;
  /** What the cap is, for the skip reason: "--max-notes 60" or "the remote cap of 150 notes". */
  capWhat: string;
  levels: ReadonlyMap<string, RuleLevel>;
  /** Whether a check is in the run at all (--only, the tier): others take no notes and count for nothing. */
  inRun: (check: DeclaredCheck) => boolean;
  /** --only: the rules the run reports (a check's other rules are left out of the plan's figures too). */
  only?: readonly string[];
}

interface Candidate {
  key: string;
  cost: number;
  rules: readonly string[];
}

export function planUnderCap(input: PlanInput): CapPlan {
  // One note of headroom: the run's guard refuses any create once the cap is reached, also one the
  // target should refuse (a check of bad input), so a plan that filled the cap would starve those.
  const room = Math.max(0, input.cap - 1);
  const reported = (id: string) => selectedByOnly(id, input.only ?? []);
  const candidates: Candidate[] = input.checks
    .filter(input.inRun)
    .map((c) => {
      const key = checkKey(c.file, c.name);
      const rules = c.rules.filter(reported);
      return { key, cost: noteCostOf(input.costs, key), rules };
    })
    .sort((a, b) => a.key.localeCompare(b.key));
  const chosen = new Set<string>();
  const covered = new Set<string>();
  let notes = 0;
  const take = (c: Candidate) => {
    chosen.add(c.key);
    notes += c.cost;
    for (const id of c.rules) covered.add(id);
  };
  for (const c of candidates) if (c.cost === 0) take(c);
  const documented = (id: string) => input.levels.get(id) === 'documented';
  for (const counts of [documented, () => true]) {
    for (;;) {
      let best: { c: Candidate; value: number } | undefined;
      for (const c of candidates) {
        if (chosen.has(c.key) || notes + c.cost > room) continue;
        const gained = c.rules.filter((id) => counts(id) && !covered.has(id)).length;
        if (gained === 0) continue;
        const value = gained / c.cost;
        if (!best || value > best.value) best = { c, value };
      }
      if (!best) break;
      take(best.c);
    }
  }
  // What is left and still fits (a check that covers no new rule but judges its rules once more).
  for (const c of candidates) if (!chosen.has(c.key) && notes + c.cost <= room) take(c);
  const skipped: Record<string, string> = {};
  for (const c of candidates) {
    if (chosen.has(c.key)) continue;
    skipped[c.key] =
      `not in this run: ${input.capWhat} leaves no room for its ${c.cost} note(s) ` +
      '(the plan runs the checks with the most rules per note first, documented rules before others)';
  }
  const all = new Set(candidates.flatMap((c) => c.rules));
  return {
    skipped,
    notes,
    rulesInPlan: covered.size,
    rulesCut: [...all].filter((id) => !covered.has(id)).length,
  };
}

/**
 * The plan in one line, printed before the first check runs: the rules of the run (--only's) with
 * a check within the cap, and those with none, which the run skips naming the cap unless the
 * oracle judges them from other checks' answers.
 */
export function planLine(cap: number, plan: CapPlan): string {
  return (
    `notes-conformance: ${cap} notes: ${plural(plan.rulesInPlan, 'rule')} within the cap, ${plan.rulesCut} skipped for the cap` +
    `${plan.rulesCut > 0 ? " (unless the run's oracle judges them from other checks' answers)" : ''}\n`
  );
}
