import type { Profile } from '../../spec/profile.js';

export type Tier = 'smoke' | 'full';

export interface Budgets {
  property_runs: number;
  model_runs: number;
  model_max_commands: number;
  /** Sequences shrinking may run after a model-based run failed (each sends its requests again). */
  model_shrink_runs: number;
  /** Requests the explorer may send to visit behaviour targets (kit/core/explore/). */
  explore_requests: number;
  max_seed_notes: number;
  request_budget: number;
  requests_per_second: number | undefined;
  request_timeout_ms: number;
  /** Bytes read of one response at most (a bigger body is the kit's error, never read whole). */
  max_response_bytes: number;
  /** The longest stretch of rate-limit refusals the kit waits out (Retry-After, an empty bucket). */
  max_rate_limit_wait_ms: number;
}

/** The run's two test users: the main one and, if any, the second (isolation, permissions). */
export interface UserPair {
  readonly primary: string;
  readonly secondary?: string;
}

/** What every worker knows about the run (passed with vitest's provide/inject; never written to disk). */
export interface KitContext {
  readonly targetUrl: string;
  /** How the target was reached: the embedded fake, a URL, or a container image. */
  readonly targetLabel: string;
  readonly embedded: boolean;
  /** The effective profile: the user's, or the fake's defaults when none was given. */
  readonly profile: Profile;
  /** Whether the profile was declared (a file, or the embedded fake's own) rather than assumed. */
  readonly profileDeclared: boolean;
  readonly tokens: UserPair;
  /**
   * The embedded fake's user pairs, one per check worker (the first is `tokens`): workers run check
   * files side by side, each as its own users, so that none sees another's notes in its lists.
   */
  readonly workerTokens?: readonly UserPair[];
  /** Check workers running files side by side (set by kit/run.ts and kit/leave-one-out.ts); unset: one. */
  readonly workers?: number;
  readonly fixtures?: { readonly prefix: string; readonly adminToken: string; readonly offers: readonly string[] };
  readonly budgets: Budgets;
  /** Where each budget came from, for the messages (kit/budgets.ts budgetSources): a flag, the profile, a default. */
  readonly budgetSources?: Readonly<Partial<Record<keyof Budgets, string>>>;
  /** Requests the run command sent before the checks started (the start-up probe, test users): the budget's first spend. */
  readonly requestsBeforeChecks?: number;
  /** Where the caps on creates came from (kit/tier.ts capSources): "--max-notes", "the full tier's default ...". */
  readonly capSources?: { readonly notes: string; readonly collections: string };
  readonly clockToleranceMs: number;
  readonly strict: boolean;
  readonly seed: number;
  /** A marker unique to the run, written into everything it creates. */
  readonly runId: string;
  /** Scratch directory of the run: the cleanup journal and per-file request counts. */
  readonly runDir: string;
  readonly only: readonly string[];
  /** --as-of: a check whose every rule entered the API after this date is skipped (spec/revisions.ts). */
  readonly asOf?: string;
  /** Why the target cannot be judged at all (found by the start-up probe): every check reports error with it. */
  readonly targetProblem?: string;
  /** The run's deadline (epoch ms, from --max-duration): no request is sent and no wait ends after it. */
  readonly deadlineAt?: number;
  /** What the deadline is, for messages: "the run's --max-duration of 30 min". */
  readonly deadlineWhat?: string;
  /** `smoke`: only the checks marked for the per-deploy tier run (default `full`: all). */
  readonly tier?: Tier;
  /** At most this many notes and collections are created by the run (--max-notes); unset: no cap. */
  readonly createCaps?: { readonly notes: number; readonly collections: number };
  /**
   * Rules whose dedicated checks are switched off (the leave-one-out measure, kit/leave-one-out.ts):
   * only the generalists (the oracle, the model-based runs) may still judge them.
   */
  readonly switchedOff?: readonly string[];
  /**
   * Checks the run's plan leaves out to stay within createCaps (kit/plan.ts), by check key
   * (`file::name`, file relative to the package root), with the reason each is skipped.
   */
  readonly capPlan?: Readonly<Record<string, string>>;
  /**
   * false: every check makes its own copy of a per-file shared resource (shared.ts), so that its
   * note count is what it costs when it runs alone (the note-cost measurement, kit/note-costs.ts).
   */
  readonly shareResources?: boolean;
  /** Set by the run command, which cancels the workers itself on Ctrl-C and then sweeps. */
  readonly parentHandlesInterrupt?: boolean;
  /** The run records every exchange for `--har` (har.ts): each process appends to its file in runDir. */
  readonly recordHar?: boolean;
}

/** The words for where a budget came from, from a context that may not know (a unit test's own). */
export function budgetSource(ctx: Pick<KitContext, 'budgetSources'>, key: keyof Budgets): string {
  return ctx.budgetSources?.[key] ?? `budgets.${key}`;
}

/**
 * One worker's share of the run's request budget: what the start-up left of it, divided among the
 * workers, so that the run's requests never pass it (the cleanup aside); and how messages name it.
 */
export function workerBudget(ctx: KitContext): { requests: number; what: string } {
  const workers = ctx.workers ?? 1;
  const before = ctx.requestsBeforeChecks ?? 0;
  const requests = Math.max(0, Math.floor((ctx.budgets.request_budget - before) / workers));
  const shares = [
    ...(before > 0 ? [`less ${before} sent at the start`] : []),
    ...(workers > 1 ? [`shared by ${workers} workers`] : []),
  ];
  const share = shares.length > 0 ? `; the run's ${ctx.budgets.request_budget}, ${shares.join(', ')}` : '';
  return { requests, what: `${budgetSource(ctx, 'request_budget')}${share}` };
}

declare module 'vitest' {
  export interface ProvidedContext {
    kit: KitContext;
    /** Set by the fault matrix: where a check file asks for its row's run (suites/harness/matrix-row.ts). */
    matrixControl?: string;
  }
}
