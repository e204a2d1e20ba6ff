import { inject } from 'vitest';
import type { KitContext } from '../../kit/core/context.js';

/**
 * The run the worker's checks belong to. Vitest provides one per run of a vitest instance; the
 * fault matrix runs many rows (a fault each, a run each) in one vitest run, so that one worker
 * serves them all (a worker costs about a second to start), and switches rows itself.
 */
let matrixRow: KitContext | undefined;

export function runContext(): KitContext {
  if (matrixRow) return matrixRow;
  const ctx = inject('kit');
  return (ctx.workers ?? 1) > 1 ? asWorker(ctx) : ctx;
}

/**
 * With several check workers, each is its own pair of users (vitest numbers its workers from 1 in
 * VITEST_POOL_ID): files running side by side never see each other's notes in a list.
 */
function asWorker(ctx: KitContext): KitContext {
  const slot = Number(process.env.VITEST_POOL_ID ?? 1) - 1;
  const pair = ctx.workerTokens?.[slot];
  if (!pair) throw new Error(`no user pair for check worker ${slot + 1} of ${ctx.workers}`);
  return { ...ctx, tokens: pair };
}

/**
 * Called before a check file of a fault-matrix row is imported (suites/harness/matrix-row.ts): asks
 * the matrix for the row's run, which it starts once the previous row has ended and been swept.
 */
export async function enterMatrixRow(controlUrl: string, row: number): Promise<void> {
  const answer = await fetch(`${controlUrl}/row/${row}`);
  const body = await answer.text();
  if (!answer.ok) throw new Error(`the fault matrix could not start row ${row}: ${body}`);
  matrixRow = JSON.parse(body) as KitContext;
}
