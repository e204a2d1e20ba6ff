/**
 * The one vocabulary of how a check ends when it does not pass, and the verdict each ending
 * gets. Checks throw these; the check wrapper (suites/harness/check.ts) reads them through
 * `classify` where they are thrown and records each rule's verdict as data (spec/check-meta.ts),
 * so the report never decodes an error crossing the worker boundary.
 *  - AssertionError (a failed expect), NonConformance, RuleViolation: the target breaks a rule (fail);
 *  - KitError, TimeoutError, AbortError: the kit could not judge (error): connection refused,
 *    timeout, garbage, a setup step that failed, a budget spent, a profile name the target ignores;
 *  - RuleFailures: some rules of the check failed their verify() or a RuleViolation; its other rules passed;
 *  - anything else (a TypeError in a check, say) is the kit's own problem (error).
 */
export class KitError extends Error {
  override name = 'KitError';
}

/**
 * The account's note quota is spent (the documented quota_exceeded body answered a create): the
 * rules that still need new notes cannot be judged. An error, never a fail: a quota is not a
 * conformance failure. The report gives such a run its own exit status (3).
 */
export class QuotaSpent extends KitError {
  override name = 'QuotaSpent';
}

/**
 * The run's own cap on creates (--max-notes) is reached: the check is skipped with the reason,
 * never judged on partial data.
 */
export class CreateCapReached extends KitError {
  override name = 'CreateCapReached';
}

/** The target broke the rule, in words a reviewer can act on (same verdict as a failed expect). */
export class NonConformance extends Error {
  override name = 'NonConformance';
}

/**
 * The target broke these rules (and only these): how a property or a model-based run pins its
 * failure to the rule actually broken. Thrown out of a check (or out of `t.property`), it fails
 * the named rules; the check's other rules pass.
 */
export class RuleViolation extends NonConformance {
  override name = 'RuleViolation';
  /** Rule id -> why it is broken. */
  readonly broken: ReadonlyMap<string, string>;

  constructor(rule: string, message: string);
  constructor(broken: ReadonlyMap<string, string>);
  constructor(ruleOrBroken: string | ReadonlyMap<string, string>, message?: string) {
    const broken = typeof ruleOrBroken === 'string' ? new Map([[ruleOrBroken, message ?? '']]) : new Map(ruleOrBroken);
    super([...broken].map(([rule, why]) => `${rule}: ${why}`).join('; '));
    this.broken = broken;
  }

  /** The same violations, with how to replay the run that found them (seed, path, steps). */
  withReplay(replay: string): RuleViolation {
    return new RuleViolation(new Map([...this.broken].map(([rule, why]) => [rule, `${why} (${replay})`])));
  }
}

/** Some rules of a check failed (verify() or a RuleViolation); the others passed. Reported per rule. */
export class RuleFailures extends Error {
  override name = 'RuleFailures';
}

/** A setup step (creating the data a check needs) did not succeed: the check cannot judge. */
export function setupFailed(step: string, status: number, body: unknown): KitError {
  const detail = typeof body === 'string' ? body : JSON.stringify(body);
  return new KitError(`setup step "${step}" answered ${status}${detail ? `: ${detail.slice(0, 200)}` : ''}`);
}

/** A problem with how the kit was started (bad flag, bad profile, unreachable target): exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const MEAN_ERROR = new Set(['KitError', 'TimeoutError', 'AbortError', 'QuotaSpent', 'CreateCapReached']);
const MEAN_FAIL = new Set(['AssertionError', 'NonConformance', 'RuleViolation']);

/** What a thrown error says about the target: it broke a rule, or the kit could not judge. */
export type ErrorVerdict = 'fail' | 'error';

/**
 * The verdict of an error a check ended with, from its name (and message: a matcher handed a
 * value of the wrong type, such as toMatch(undefined), throws a TypeError; that value came from
 * the target, so it is the target's failure, not a bug of the kit). RuleFailures is not judged
 * here: it stands for per-rule verdicts the check recorded.
 */
export function classify(error: unknown): ErrorVerdict {
  const { name, message } = nameAndMessage(error);
  if (MEAN_FAIL.has(name)) return 'fail';
  if (MEAN_ERROR.has(name)) return 'error';
  if (name === 'TypeError' && isMatcherTypeError(message)) return 'fail';
  return 'error';
}

/** Whether the error is the kit's "could not judge" (as opposed to the kit's own bug or the target's failure). */
export function isKitError(error: unknown): boolean {
  return MEAN_ERROR.has(nameAndMessage(error).name);
}

/** A TypeError from a matcher becomes the NonConformance it stands for; other errors stay as they are. */
export function asVerdict(error: unknown): unknown {
  if (error instanceof TypeError && isMatcherTypeError(error.message)) {
    const failure = new NonConformance(error.message);
    failure.stack = error.stack;
    return failure;
  }
  return error;
}

function isMatcherTypeError(message: string): boolean {
  return /^\.\w+\(\) expects/.test(message);
}

function nameAndMessage(error: unknown): { name: string; message: string } {
  if (error && typeof error === 'object') {
    const { name, message } = error as { name?: unknown; message?: unknown };
    return { name: typeof name === 'string' ? name : 'Error', message: typeof message === 'string' ? message : '' };
  }
  return { name: 'Error', message: String(error) };
}

/**
 * Runs `fn` and pins a failure in it (a failed expect, a NonConformance) to `rule`: inside a
 * property or a model-based run, this is how each case says which rule it judges.
 */
export async function pinTo(rule: string, fn: () => void | Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    if (classify(error) !== 'fail' || error instanceof RuleViolation) throw error;
    throw new RuleViolation(rule, (error as Error).message.split('\n')[0]!);
  }
}

/** Whether a check ended because the account's quota is spent (by name: errors cross the worker boundary as name + message). */
export function isQuotaSpent(error: unknown): boolean {
  return nameAndMessage(error).name === QuotaSpent.name;
}

/** Whether a check ended because the run's cap on creates (--max-notes) is reached. */
export function isCreateCapReached(error: unknown): boolean {
  return nameAndMessage(error).name === CreateCapReached.name;
}

/** What the documented quota_exceeded body (spec/api part 7) said, as reports and reasons name it. */
export interface QuotaInfo {
  used?: string | number;
  limit?: string | number;
  reset_time?: string | number;
  message?: string;
}

/** "the account's note quota is spent (quota_exceeded: used 150 of 150, resets ...)": the words every rendering uses. */
export function quotaWords(quota: QuotaInfo): string {
  const used =
    quota.used !== undefined || quota.limit !== undefined
      ? `used ${quota.used ?? '?'} of ${quota.limit ?? '?'}`
      : 'usage not given';
  return `the account's note quota is spent (quota_exceeded: ${used}${quota.reset_time !== undefined ? `, resets ${quota.reset_time}` : ''})`;
}

/** The skip reason of a rule no check of the smoke tier judges (the headline counts these apart). */
export const NOT_IN_SMOKE = 'not in the smoke tier (run --tier full to judge it)';
