import { inject } from 'vitest';
import type { KitContext } from '../../kit/core/context.js';

/**
 * The run the worker's checks belong to. Vitest provides one per run of a vitest instance; the
 * fault matrix runs many rows (a fault each, a run each) in one vitest run, so that one worker
 * serves them all (a worker costs about a second to start), and switches rows itself.
 */
let matrixRow: KitContext | undefined;

export function runContext(): KitContext {
  return matrixRow ?? inject('kit');
}

/**
 * Called by the fault matrix's row files (kit/matrix.ts) before they import a check file: asks
 * the matrix for the row's run, which it starts once the previous row has ended and been swept.
 */
export async function enterMatrixRow(controlUrl: string, row: number): Promise<void> {
  const answer = await fetch(`${controlUrl}/row/${row}`);
  const body = await answer.text();
  if (!answer.ok) throw new Error(`the fault matrix could not start row ${row}: ${body}`);
  matrixRow = JSON.parse(body) as KitContext;
}
