// The augmented module must be imported for the augmentation to apply to its re-exported TaskMeta.
import type {} from 'vitest';
import type { Need } from './needs.js';
import type { Replayed, ReplayPlan } from './replay.js';

/**
 * What a check carries to the report as data (vitest `TaskMeta`): its rules, what it needs, its
 * cost, and, when it did not pass, its evidence. Declared here, below every layer, so the check
 * wrapper (suites/harness/check.ts) that writes it and the collector (reporters/) that reads it
 * share one type.
 */
export interface CheckMeta {
  /** The rule ids this check verifies. */
  rules?: string[];
  /** Those of them the oracle judges on the check's answers (the check sets up their situation). */
  oracle?: string[];
  /** The check judges whatever its traffic shows (a model-based run): a rule it never reached is skipped, not an error. */
  generalist?: boolean;
  /**
   * Why the oracle may judge none of the check's answers on a rule: the profile leaves undeclared
   * the field the rule follows (statuses.validation, say). Such a rule unjudged is skipped with
   * that reason rather than an error.
   */
  unjudged?: Record<string, string>;
  /** A failed check's exchanges, redacted: those a failure judged first (marked), then context (evidence.ts). */
  evidence?: EvidenceExchange[];
  /**
   * The check's verdict for each of its rules, decided by the check wrapper where the ending is
   * known as it happened (suites/harness/check.ts): the report reads these, never an error's name.
   */
  verdicts?: Record<string, RuleOutcome>;
  requests?: number;
  /** fast-check seed of a property that ran. */
  seed?: number;
  /** The check belongs to the smoke tier (`--tier smoke`: one cheap judgement per area for every deploy). */
  smoke?: boolean;
  /** Notes the check created in the tokens' accounts (counted against the run's cap; kit/note-costs.json). */
  notes?: number;
  /** What the check needs beyond what every target offers (kit/core/needs.ts). */
  needs?: Need[];
}

/** How a check ended for one rule (the report turns `fail` of an advisory rule into `warn`). */
export type CheckVerdict = 'pass' | 'fail' | 'error' | 'skipped';

export interface RuleOutcome {
  verdict: CheckVerdict;
  /** Why, in one line: the failed expectation, the skip reason, what stopped the check. */
  message: string;
  /** The position in the check's `evidence` of the exchange that judged this rule. */
  judged?: number;
  /** A shell command replaying that exchange (kit/core/repro.ts). */
  repro?: string;
  /** The same as data, for the run's replay of the failure at its end (kit/confirm.ts; not in the report). */
  plan?: ReplayPlan;
  /** What that replay found (kit/confirm.ts). */
  replayed?: Replayed;
  /** The check stopped because the account's note quota is spent (the run's exit 3, not a failure). */
  quota?: true;
}

/** One exchange of evidence, as recorded by the kit (redacted). */
export interface EvidenceExchange {
  method: string;
  path: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The answer a failed assertion judged (these come first in a check's evidence). */
  judged?: boolean;
  /** Its entry in the run's recording (`--har`; kit/core/har.ts), when it is recorded. */
  id?: string;
  /** The same entry as the report names it: the recording's file and the entry's `_id`. */
  har_entry?: { file: string; id: string };
}

declare module 'vitest' {
  export interface TaskMeta extends CheckMeta {}
}
