import type { Reporter, TestModule, TestSpecification } from 'vitest/node';
import { markChecksEnded } from './core/run-folder.js';
import { runsLate } from './tier.js';

/**
 * With several check workers, the oracle's file (run last by the sequencer, in whichever worker
 * is free) must wait for the files still running in the others: this reporter, in the run
 * command, marks the run folder once every other check file has ended (its worker's oracle
 * record written by then, in the file's last hook).
 */
export class ChecksEndedMarker implements Reporter {
  private readonly pending = new Set<string>();

  /** `runDir`: the run's folder; a vitest instance that serves several runs sets each one's before it starts. */
  constructor(public runDir: string) {}

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.pending.clear();
    for (const spec of specifications) if (!isOracleFile(spec.moduleId)) this.pending.add(spec.moduleId);
    if (this.pending.size === 0) markChecksEnded(this.runDir);
  }

  onTestModuleEnd(module: TestModule): void {
    if (!this.pending.delete(module.moduleId)) return;
    if (this.pending.size === 0) markChecksEnded(this.runDir);
  }
}

const isOracleFile = (file: string) => runsLate(file) === 2;
