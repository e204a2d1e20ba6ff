import type { Api } from '../core/api.js';
import { deletePending } from '../core/cleanup.js';
import type { Ledger } from '../core/ledger.js';
import type { Op } from '../core/model-operations.js';
import { execute } from './execute.js';
import { differingFields, type Observation } from './normalise.js';
import { Side } from './side.js';

const DAY = 86_400_000;

/** The first step at which the two sides answered differently, after normalisation. */
export interface StepDifference {
  /** Readable lines of the executed steps, the differing one last. */
  steps: string[];
  target: Observation;
  reference: Observation;
  fields: string[];
}

export interface SequenceContext {
  targetApi: Api;
  targetLedger: Ledger;
  /** The reference fake, started with the target's profile, and how to empty it. */
  referenceApi: Api;
  resetReference(): void;
  clockToleranceMs: number;
  /** The target's timestamp precision (kit/core/timing.ts): supplied instants are whole steps of it. */
  precisionMs: number;
}

/**
 * Runs one sequence on the target and on the reference fake, emptied first (as good as fresh,
 * for a fraction of the cost of starting one),
 * step by step (both sides at once), and stops at the first difference. The target's data
 * lives in a time window of its own, carries the sequence's marker and is deleted afterwards.
 */
export async function runSequence(
  ctx: SequenceContext,
  ops: readonly Op[],
  marker: string,
): Promise<StepDifference | undefined> {
  ctx.resetReference();
  // A window of time in 2001-2019 that no other data shares, the same for both sides.
  // A whole step of the target's precision, so that the instants the sequence supplies are kept as sent.
  const start = Date.UTC(2001, 0, 1) + Math.floor(Math.random() * 18 * 365) * DAY + Math.floor(Math.random() * DAY);
  const windowStart = Math.floor(start / ctx.precisionMs) * ctx.precisionMs;
  const target = new Side(ctx.targetApi, windowStart, marker, ctx.clockToleranceMs, ctx.precisionMs);
  const reference = new Side(ctx.referenceApi, windowStart, marker, ctx.clockToleranceMs, ctx.precisionMs);
  const steps: string[] = [];
  try {
    for (const op of ops) {
      const [t, r] = await Promise.all([execute(target, op), execute(reference, op)]);
      if (!t && !r) continue;
      steps.push(t?.line ?? r!.line);
      const a = t?.observed ?? { skipped: 'not determined in this state' };
      const b = r?.observed ?? { skipped: 'not determined in this state' };
      if (JSON.stringify(a) !== JSON.stringify(b))
        return { steps, target: a, reference: b, fields: differingFields(a, b) };
    }
    return undefined;
  } finally {
    await cleanUp(ctx);
  }
}

/** Deletes what the target still holds of the run (core/cleanup.ts, as the kit's own runs do). */
async function cleanUp(ctx: SequenceContext): Promise<void> {
  await deletePending(ctx.targetLedger, { primary: ctx.targetApi });
}
