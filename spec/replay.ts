/**
 * A failure's repro as data, and what its replay at the end of the run found (kit/confirm.ts).
 * Declared here, below every layer: the check workers write plans, the run command replays them,
 * the reporters show the outcome.
 */

/**
 * A request the run can send again itself: each variable's value (a credential, an id the replay
 * makes again) as its marker (kit/core/repro.ts), so a plan holds no credential.
 */
export interface PlannedRequest {
  readonly method: string;
  /** Path and query, relative to the target's base URL. */
  readonly path: string;
  /** The Authorization header as sent, absent when none was. */
  readonly authorization?: string;
  /** The body's Content-Type, null for a body sent without one. */
  readonly contentType?: string | null;
  /** The body as text, or bytes that are no text (then without markers). */
  readonly body?: string;
  readonly bodyBase64?: string;
}

/** A failure's script (kit/core/repro-script.ts) as steps: the failing request last. */
export interface ReplayPlan {
  /** `makes`: the variable the step's answer gives its value (the id of a create the target named). */
  readonly steps: ReadonlyArray<PlannedRequest & { readonly makes?: string }>;
  /** Variables of ids the kit gave its creates: a replay gives fresh ones (create-only ids). */
  readonly fresh: readonly string[];
  /** Each id variable's value in the run, to read a replay's answer as the run's. */
  readonly ids: Readonly<Record<string, string>>;
  /** The run's answer to the failing request. */
  readonly answered: { readonly status: number; readonly text: string };
}

/**
 * A failed rule's replay: `reproduced` (the replay broke the rule again), `not-reproduced` (it
 * did not: a timing or index-lag effect, or a state the repro does not make again; the failure
 * still counts), `inconclusive` (a list, search or related notes that did not break it again: the
 * repro does not make the rest of the account again), or `not-replayed` (the budget, a credential
 * the run no longer has).
 */
export interface Replayed {
  readonly result: 'reproduced' | 'not-reproduced' | 'inconclusive' | 'not-replayed';
  /** How it was decided, in one line: what the replay's answer showed, or why there was none. */
  readonly detail: string;
  /** Requests the replay sent. */
  readonly requests: number;
}
