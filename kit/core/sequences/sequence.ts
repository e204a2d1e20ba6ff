import type { Op } from './ops.js';
import type { Runner } from './runner.js';
import { runStep } from './steps.js';

/**
 * Runs a sequence step by step, and stops after the first step whose answers the oracle found
 * breaking a rule: answers the number of steps taken then (the failing one last), or undefined
 * when every step's answers held. fast-check shrinks a failing sequence by running shorter ones.
 */
export async function runOps(run: Runner, ops: readonly Op[]): Promise<number | undefined> {
  for (const op of ops) {
    const before = run.failures();
    await runStep(run, op);
    if (run.failures() > before) return run.steps.length;
  }
  return undefined;
}
