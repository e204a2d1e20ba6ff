import { KitError } from './errors.js';

/**
 * How a worker takes the signals that reach its whole process group (Ctrl-C; SIGTERM from
 * `timeout` or a CI cancel), when the run command sweeps after them. Dying mid-request would
 * lose a resource the target had just created, before the journal heard of it: the sweep could
 * neither delete nor count it. So Ctrl-C is left to the run command, which cancels the workers
 * gracefully, and SIGTERM ends the worker between requests.
 */

// On globalThis: files may share a worker process but each evaluate this module afresh.
const STATE = Symbol.for('notes-conformance.worker-signals');
interface State { inFlight: number; terminating: boolean; onTerm?: () => void }
const state = ((globalThis as Record<symbol, unknown>)[STATE] ??= { inFlight: 0, terminating: false }) as State;

/** Wraps every request of the worker: none starts after SIGTERM, and the last one to end lets the worker go. */
export async function tracked<T>(request: () => Promise<T>): Promise<T> {
  if (state.terminating) throw new KitError('the run was stopped (SIGTERM)');
  state.inFlight++;
  try {
    return await request();
  } finally {
    state.inFlight--;
    // After the caller's continuation (which journals what was created) has run.
    if (state.terminating) setImmediate(dieWhenIdle);
  }
}

function dieWhenIdle(): void {
  if (state.inFlight > 0) return;
  // Die of the signal itself, as without a handler (vitest makes process.exit throw in workers).
  if (state.onTerm) process.off('SIGTERM', state.onTerm);
  process.kill(process.pid, 'SIGTERM');
}

/** Once per worker process. */
export function leaveSignalsToRunCommand(): void {
  if (state.onTerm) return;
  state.onTerm = () => {
    state.terminating = true;
    dieWhenIdle();
  };
  process.on('SIGINT', () => {});
  process.on('SIGTERM', state.onTerm);
}
