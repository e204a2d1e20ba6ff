import { setMaxListeners } from 'node:events';
import { rmSync } from 'node:fs';
import { KitError } from '../../spec/verdicts.js';
import { writeWorkerFile } from './run-folder.js';

/**
 * How a worker takes the signals that reach its whole process group (Ctrl-C; SIGTERM from
 * `timeout` or a CI cancel), when the run command sweeps after them. Dying mid-request would
 * lose a resource the target had just created, before the journal heard of it: the sweep could
 * neither delete nor count it. So Ctrl-C is left to the run command, which cancels the workers
 * gracefully, and SIGTERM ends the worker between requests. A request or a wait still in flight
 * STOP_GRACE_MS after SIGTERM is aborted (its client honours stopSignal()), so the worker ends
 * within seconds whatever the target does (trickles a body, asks to wait 59 s); the price is that
 * a create aborted that late may leave its resource unknown to the sweep.
 */
export const STOP_GRACE_MS = 1000;

// On globalThis: files may share a worker process but each evaluate this module afresh.
const STATE = Symbol.for('notes-conformance.worker-signals');
interface State {
  inFlight: number;
  terminating: boolean;
  onTerm?: () => void;
  stop: AbortController;
  workerFiles: Set<string>;
}
const state = ((globalThis as Record<symbol, unknown>)[STATE] ??= {
  inFlight: 0,
  terminating: false,
  stop: stopController(),
  workerFiles: new Set(),
}) as State;

function stopController(): AbortController {
  const controller = new AbortController();
  // Every paced or rate-limited request of the worker listens to it while it waits: many at once is normal.
  setMaxListeners(0, controller.signal);
  return controller;
}

/** Aborted STOP_GRACE_MS after the worker's SIGTERM: the clients end what is in flight. */
export function stopSignal(): AbortSignal {
  return state.stop.signal;
}

/**
 * Names this worker in the run directory (removed when it exits): a signal that reaches only
 * the run command (`kill PID`, `timeout`) is passed on to it.
 */
export function registerWorker(runDir: string): void {
  const file = writeWorkerFile(runDir);
  // One listener for all runs a worker serves (the fault matrix runs many in one worker).
  if (state.workerFiles.size === 0)
    process.once('exit', () => {
      for (const f of state.workerFiles) rmSync(f, { force: true });
    });
  state.workerFiles.add(file);
}

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
    if (!state.terminating) {
      setTimeout(
        () => state.stop.abort(new KitError('the run was stopped (SIGTERM) while this was in flight')),
        STOP_GRACE_MS,
      ).unref();
    }
    state.terminating = true;
    dieWhenIdle();
  };
  process.on('SIGINT', () => {});
  process.on('SIGTERM', state.onTerm);
}
