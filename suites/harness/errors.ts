/**
 * How a check ends when it does not pass. The reporter reads the error's name:
 *  - an AssertionError (expect) or NonConformance: the target breaks the rule (verdict fail);
 *  - KitError: the kit could not judge (verdict error): connection refused, timeout, garbage,
 *    a setup step that failed, a budget spent, a profile name the target does not honour.
 */
export class KitError extends Error {
  override name = 'KitError';
}

/** The target broke the rule, in words a reviewer can act on (same verdict as a failed expect). */
export class NonConformance extends Error {
  override name = 'NonConformance';
}

/** A setup step (creating the data a check needs) did not succeed: the check cannot judge. */
export function setupFailed(step: string, status: number, body: unknown): KitError {
  const detail = typeof body === 'string' ? body : JSON.stringify(body);
  return new KitError(`setup step "${step}" answered ${status}${detail ? `: ${detail.slice(0, 200)}` : ''}`);
}

export const ERROR_NAMES_THAT_MEAN_ERROR = new Set(['KitError', 'TimeoutError', 'AbortError']);
export const ERROR_NAMES_THAT_MEAN_FAIL = new Set(['AssertionError', 'NonConformance']);

/** A problem with how the kit was started (bad flag, bad profile, unreachable target): exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
