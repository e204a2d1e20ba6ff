import { REMOTE_BUDGETS } from '../budgets.js';
import type { DiffOptions, DiffTarget } from './run.js';

/** A diff run is all sequences: against a target it runs two of up to 12 (a kit run's model spends less). */
const DIFF_REMOTE_BUDGETS = { ...REMOTE_BUDGETS, model_runs: 2, model_max_commands: 12 };

/**
 * How much a differential run may spend: the profile's budgets over the defaults (30 sequences
 * of up to 25 operations against an embedded fake; the remote budgets, paced, against a target).
 * Against a target it shrinks little, since every shrinking step costs the target requests.
 */
export function diffBudgets(
  target: DiffTarget,
  given: { runs?: number; maxOps?: number } = {},
): Pick<DiffOptions, 'runs' | 'maxOps' | 'shrinkBudget' | 'requestsPerSecond' | 'requestBudget' | 'timeoutMs'> {
  const budgets = {
    ...(target.embedded ? { model_runs: 30, model_max_commands: 25 } : DIFF_REMOTE_BUDGETS),
    ...target.profile.budgets,
  };
  return {
    runs: given.runs ?? budgets.model_runs ?? 2,
    maxOps:
      given.maxOps ??
      (target.embedded ? Math.min(budgets.model_max_commands ?? 25, 25) : (budgets.model_max_commands ?? 12)),
    shrinkBudget: target.embedded ? 300 : 10,
    ...(target.embedded
      ? {}
      : { requestsPerSecond: budgets.requests_per_second ?? REMOTE_BUDGETS.requests_per_second }),
    requestBudget: target.embedded
      ? Number.MAX_SAFE_INTEGER
      : (budgets.request_budget ?? REMOTE_BUDGETS.request_budget),
    timeoutMs: budgets.request_timeout_ms ?? REMOTE_BUDGETS.request_timeout_ms,
  };
}
