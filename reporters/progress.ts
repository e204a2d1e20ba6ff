/**
 * Progress in rules, the unit every report counts: a rule is done when the last of its checks in the
 * run has finished (the run knows its checks, and their rules, before the first one starts).
 */
export class RuleProgress {
  /** Checks still to finish, per rule of the run. */
  private readonly pending = new Map<string, number>();
  private finished = 0;

  /** `checks`: the rules of each check of the run; `inRun`: whether a rule is in the run (--only). */
  constructor(checks: ReadonlyArray<{ rules: readonly string[] }>, inRun: (id: string) => boolean = () => true) {
    for (const check of checks)
      for (const id of new Set(check.rules)) if (inRun(id)) this.pending.set(id, (this.pending.get(id) ?? 0) + 1);
  }

  get total(): number {
    return this.pending.size;
  }

  get done(): number {
    return this.finished;
  }

  /** A check finished (passed, failed or skipped): its rules with no check left are done. */
  checkDone(rules: readonly string[]): void {
    for (const id of new Set(rules)) {
      const left = this.pending.get(id);
      if (left === undefined || left === 0) continue;
      this.pending.set(id, left - 1);
      if (left === 1) this.finished++;
    }
  }
}
