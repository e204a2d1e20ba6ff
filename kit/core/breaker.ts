import { KitError } from '../../spec/verdicts.js';

export type Unavailability = 'no-answer' | 'rate-limited';

/**
 * The target gave no usable answer: none at all (timeout, connection refused or reset, not HTTP),
 * or only 429s beyond what the kit waits for. Still a KitError: the check could not judge.
 */
export class TargetUnavailable extends KitError {
  constructor(
    message: string,
    readonly why: Unavailability,
  ) {
    super(message);
  }
}

/** Failures in a row after which the target counts as gone. */
const LIMIT = 3;

/**
 * Keeps a run from waiting out the timeout (or the Retry-After) of every remaining check once the
 * target has stopped answering: after LIMIT requests in a row end without a usable answer, later
 * requests fail at once with the reason. One request per cooldown still goes through as a trial,
 * so a target that comes back (restarted mid-run) is judged again.
 */
export class Breaker {
  private failures = 0;
  private last: TargetUnavailable | undefined;
  private openedAt: number | undefined;

  constructor(private readonly cooldownMs = 30_000) {}

  /** Before a request: throws while open, except for the trial once per cooldown. */
  admit(what: string): void {
    if (this.openedAt === undefined || !this.last) return;
    if (Date.now() - this.openedAt >= this.cooldownMs) {
      this.openedAt = Date.now(); // the trial; others wait for the next cooldown
      return;
    }
    const streak =
      this.last.why === 'no-answer' ? 'got no answer' : 'were refused with 429 beyond the waits the kit allows';
    throw new TargetUnavailable(
      `${what} not sent: the target stopped answering (${this.failures} requests in a row ${streak}; the last: ${this.last.message})`,
      this.last.why,
    );
  }

  /** Any usable answer, whatever its status: the target is there. */
  answered(): void {
    this.failures = 0;
    this.last = undefined;
    this.openedAt = undefined;
  }

  failed(error: TargetUnavailable): void {
    this.failures++;
    this.last = error;
    if (this.failures >= LIMIT) this.openedAt = Date.now();
  }
}
