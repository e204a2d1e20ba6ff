import { constants } from 'node:os';
import type { Vitest } from 'vitest/node';
import { KitError } from '../spec/verdicts.js';
import { workerPids } from './core/run-folder.js';
import { STOP_GRACE_MS } from './core/signals.js';

/**
 * How long after a signal the run waits for vitest to wind its workers down before it goes on
 * to the sweep without them: a worker ends its last request within STOP_GRACE_MS, and one that
 * a signal ended between files never answers vitest's "stop" (which then waits 60 s).
 */
export const WIND_DOWN_MS = STOP_GRACE_MS + 1000;

/**
 * The same bound while the checks still run: a worker ends itself once what it has in flight has
 * ended and been journaled (at most STOP_GRACE_MS after the signal, then its abort path), and the
 * run waits for that; a worker killed before it journaled a create would leave a resource the
 * sweep cannot know. Within the README's 5 s for an interrupted run.
 */
export const CHECKS_WIND_DOWN_MS = STOP_GRACE_MS + 3000;

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** What a signal after the last run of the process does (Interrupt.dispose): one listener a process. */
const afterRun: { installed: boolean; active: boolean; code: number | undefined } = {
  installed: false,
  active: false,
  code: undefined,
};

/**
 * A run error that is the interrupt's own doing: a worker's request stopped by the signal
 * (signals.ts, client.ts), vitest's cancel, or its pool reporting workers that ended on it.
 */
export function causedByInterrupt(message: string): boolean {
  return /the run was (stopped|interrupted)|\[vitest-pool\]|Worker (forks|threads) emitted error|aborted|cancel/i.test(
    message,
  );
}

/**
 * Ctrl-C or SIGTERM (timeout, a CI cancel, docker stop) during a run: cancel the checks and let
 * the run command sweep what the run created before it exits. Installed before the run starts,
 * so a signal during start-up still ends in the sweep (and the container, if any, is stopped).
 */
export class Interrupt {
  /** The first signal received, if any. */
  signal: NodeJS.Signals | undefined;
  private vitest: Vitest | undefined;
  private runDir: string | undefined;
  /** Set once every check has ended: the workers left are idle, and a signal kills them. */
  private checksEnded = false;
  /** Whether a worker of the run was ever seen: none alive means they ended only if one was. */
  private sawWorkers = false;
  private readonly controller = new AbortController();

  /** Aborted by the first signal: the run's start-up (the probe, a wait for a rate limit) honours it. */
  get stopped(): AbortSignal {
    return this.controller.signal;
  }

  constructor(private readonly write: (text: string) => void) {
    // A run in the same process (the proofs run several) takes its signals itself.
    afterRun.active = false;
    for (const name of SIGNALS) process.on(name, this.handle);
    process.on('uncaughtException', this.onUncaught);
  }

  /**
   * When a signal sent to the process group has ended a worker, vitest's pool may still write
   * "stop" to it; the EPIPE it gets is emitted where nothing listens, which ended the run process
   * at once with exit 1, no sweep and no report (2 runs in 40 with SIGTERM to the group under
   * load; it can come before the run's own handler has seen the signal). The worker is gone either
   * way: that error is dropped. Anything else is left to the process's other listeners (vitest's,
   * in the proofs) or, with none, ends the process as node would.
   */
  private readonly onUncaught = (error: Error & { code?: string }): void => {
    if (isWorkerPipeError(error)) return;
    if (process.listenerCount('uncaughtException') > 1) return;
    process.stderr.write(`${error.stack ?? String(error)}\n`);
    process.exit(1);
  };

  private readonly handle = (signal: NodeJS.Signals): void => {
    if (this.signal) {
      // Exiting now would skip the sweep and leave the run's data on the target. Said only to a
      // person at a terminal: a log keeps the interrupted run's one line (interruptionLine).
      if (process.stderr.isTTY)
        this.write(`\nnotes-conformance: still cleaning up (${signal} ignored; kill -9 abandons it)\n`);
      return;
    }
    this.signal = signal;
    this.controller.abort(new KitError(`the run was interrupted (${signal})`));
    // A rejection must not go unhandled: vitest's own handler for those exits the process.
    this.vitest
      ?.cancelCurrentRun('keyboard-input')
      .catch((error: Error) => this.write(`notes-conformance: cancelling the checks failed: ${error.message}\n`));
    this.stopWorkers();
  };

  /** The run directory in which workers name themselves (kit/core/signals.ts): they get the signal passed on. */
  watchWorkers(runDir: string): void {
    this.runDir = runDir;
    if (this.signal) this.stopWorkers();
  }

  /**
   * Cancelling lets the running check go on until it ends, which against a target that trickles
   * or rate-limits can take minutes. A signal sent to the process group reaches the workers
   * anyway; one sent to this process alone (kill PID, a supervisor) is passed on as SIGTERM, on
   * which a worker sends nothing more and aborts what is in flight within a second.
   */
  private stopWorkers(): void {
    // Once the checks have ended the workers are idle (their cleanup ran in the checks' own
    // hooks): nothing in flight is lost, and waiting for vitest's pool to stop them can take its
    // 60 s when one of them has already died of a signal sent to the group.
    this.signalWorkers(this.checksEnded ? 'SIGKILL' : 'SIGTERM');
  }

  private signalWorkers(signal: NodeJS.Signals): void {
    for (const pid of this.liveWorkers()) {
      try {
        process.kill(pid, signal);
      } catch {
        // gone since
      }
    }
  }

  /** The run's workers still alive (a worker that died of a signal leaves its pid file behind). */
  private liveWorkers(): number[] {
    if (!this.runDir) return [];
    const pids = workerPids(this.runDir);
    // A worker that died of a signal leaves its pid file: it was seen too.
    if (pids.length > 0) this.sawWorkers = true;
    return pids.filter((pid) => {
      if (pid === process.pid) return false;
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
  }

  /** Every check has ended (vitest's run resolved): a signal from now on kills the idle workers. */
  endChecks(): void {
    this.checksEnded = true;
  }

  /**
   * Waits for `work` (vitest's run of the checks, or its winding down), but no longer than
   * `windDownMs` after a signal, whenever it came: the sweep and the reports must not wait on a
   * worker that died of the signal between two files (vitest waits 60 s for its answer). Once
   * every worker seen has ended, nothing is waited for; one still alive at the bound has nothing
   * in flight worth keeping and is killed, so none outlives the run. Answers whether `work` itself
   * ended (not the bound).
   */
  async bounded(work: Promise<unknown>, windDownMs = WIND_DOWN_MS): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    let start = () => {};
    const windDown = new Promise<'signal'>((resolve) => {
      let deadline: number | undefined;
      // Polled: vitest stops listening for a worker's exit once it has asked it to stop.
      const poll = () => {
        deadline ??= Date.now() + windDownMs;
        const ended = this.liveWorkers().length === 0 && this.sawWorkers;
        if (Date.now() >= deadline || ended) resolve('signal');
        else timer = setTimeout(poll, 50);
      };
      start = poll;
    });
    if (this.signal) start();
    else this.stopped.addEventListener('abort', start, { once: true });
    try {
      const first = await Promise.race([work.then(() => 'work' as const), windDown]);
      if (first === 'signal') this.signalWorkers('SIGKILL');
      return first === 'work';
    } finally {
      this.stopped.removeEventListener('abort', start);
      clearTimeout(timer);
    }
  }

  /**
   * Creates the run's vitest instance, which a signal then cancels. Its logger registers SIGINT
   * and SIGTERM handlers that exit the process a millisecond later, skipping the sweep: those
   * come off again.
   */
  async createVitest(create: () => Promise<Vitest>): Promise<Vitest> {
    const known = new Map(SIGNALS.map((name) => [name, process.listeners(name)]));
    this.vitest = await create();
    for (const name of SIGNALS) {
      for (const listener of process.listeners(name))
        if (!known.get(name)!.includes(listener)) process.off(name, listener);
    }
    return this.vitest;
  }

  /**
   * What an interrupted run prints, and all it prints: "interrupted by SIGINT after 41 of 266
   * rules; 12 resources deleted, 0 left; exit 130" (rules, as the progress line and every report count).
   */
  line(
    rules: { done: number; total: number },
    totals: { deleted: number; leftovers: number; unconfirmed: readonly string[] },
  ): string {
    const ran = rules.total > 0 ? `after ${rules.done} of ${rules.total} rules` : 'before the checks started';
    const resources = `${totals.deleted} ${totals.deleted === 1 ? 'resource' : 'resources'} deleted`;
    const n = totals.unconfirmed.length;
    const unknown = n > 0 ? ` (${n} unknown: ${totals.unconfirmed.join(', ')})` : '';
    return `interrupted by ${this.signal} ${ran}; ${resources}, ${totals.leftovers} left${unknown}; exit ${this.exitCode}`;
  }

  /** 128 + the signal number, as a shell reports a process ended by that signal; else undefined. */
  get exitCode(): number | undefined {
    return this.signal ? 128 + constants.signals[this.signal] : undefined;
  }

  dispose(): void {
    // The run has swept and reported. A signal from now on ends the process as signalled (130/143,
    // or the first signal's status after an interrupt), never with the default "killed by signal"
    // and never as a clean exit: the listener goes in before the run's handler comes off, since
    // node drops a signal that arrived during the last synchronous stretch (the reports) but is
    // dispatched when no listener is left, and the process would then exit 0 as if it had never come.
    afterRun.code = this.exitCode;
    afterRun.active = true;
    if (!afterRun.installed) {
      afterRun.installed = true;
      for (const name of SIGNALS)
        process.on(name, () => {
          if (afterRun.active) process.exit(afterRun.code ?? 128 + constants.signals[name]);
        });
    }
    for (const name of SIGNALS) process.off(name, this.handle);
    process.off('uncaughtException', this.onUncaught);
  }
}

/**
 * Two turns of the event loop. A signal that came during the run's last synchronous stretch (the
 * reports) waits in libuv's signal pipe until the loop polls again, and node, with nothing left to
 * keep its loop alive, exits before it does: the run then ended 0 as if no signal had come (seen
 * under load, and in a script that signals itself in a busy loop: exit 0 without these turns,
 * 143 with them, 20 of 20 with three CPU hogs). One turn is not enough in node 20; two are.
 */
export async function pendingSignalsDispatched(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

/** vitest's pool writing to a worker whose channel has closed (the worker has died). */
function isWorkerPipeError(error: Error & { code?: string }): boolean {
  return (
    (error.code === 'EPIPE' || error.code === 'ERR_IPC_CHANNEL_CLOSED') &&
    /ForksPoolWorker\.send|PoolRunner\.(postMessage|stop)/.test(error.stack ?? '')
  );
}
