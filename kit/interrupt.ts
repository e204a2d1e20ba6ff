import { constants } from 'node:os';
import type { Vitest } from 'vitest/node';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Ctrl-C or SIGTERM (timeout, a CI cancel, docker stop) during a run: cancel the checks and let
 * the run command sweep what the run created before it exits. Installed before the run starts,
 * so a signal during start-up still ends in the sweep (and the container, if any, is stopped).
 */
export class Interrupt {
  /** The first signal received, if any. */
  signal: NodeJS.Signals | undefined;
  private vitest: Vitest | undefined;

  constructor(private readonly write: (text: string) => void) {
    for (const name of SIGNALS) process.on(name, this.handle);
  }

  private readonly handle = (signal: NodeJS.Signals): void => {
    if (this.signal) {
      // Exiting now would skip the sweep and leave the run's data on the target.
      this.write(`\nnotes-conformance: still cleaning up what the run created (${signal} ignored; kill -9 abandons it)\n`);
      return;
    }
    this.signal = signal;
    this.write(`\nnotes-conformance: ${signal === 'SIGINT' ? 'interrupted' : `${signal} received`}; cleaning up what the run created...\n`);
    // A rejection must not go unhandled: vitest's own handler for those exits the process.
    this.vitest?.cancelCurrentRun('keyboard-input').catch((error: Error) => this.write(`notes-conformance: cancelling the checks failed: ${error.message}\n`));
  };

  /**
   * Creates the run's vitest instance, which a signal then cancels. Its logger registers SIGINT
   * and SIGTERM handlers that exit the process a millisecond later, skipping the sweep: those
   * come off again.
   */
  async createVitest(create: () => Promise<Vitest>): Promise<Vitest> {
    const known = new Map(SIGNALS.map((name) => [name, process.listeners(name)]));
    this.vitest = await create();
    for (const name of SIGNALS) {
      for (const listener of process.listeners(name)) if (!known.get(name)!.includes(listener)) process.off(name, listener);
    }
    return this.vitest;
  }

  /** 128 + the signal number, as a shell reports a process ended by that signal; else undefined. */
  get exitCode(): number | undefined {
    return this.signal ? 128 + constants.signals[this.signal] : undefined;
  }

  dispose(): void {
    for (const name of SIGNALS) process.off(name, this.handle);
  }
}
