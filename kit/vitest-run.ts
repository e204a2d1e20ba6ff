import { join } from 'node:path';
import type { TestUserConfig as UserConfig } from 'vitest/node';
import type { Reporter } from 'vitest/reporters';
import { packageRoot } from '../spec/paths.js';
import { QuotaLastSequencer } from './tier.js';

/**
 * How the kit runs its checks through vitest, for a run and for each row of the fault matrix:
 * the conformance project, one file at a time in one worker that keeps its modules. Against a
 * remote target one client then keeps pacing and budget for the run, and against the fake it is
 * several times faster than parallel isolated workers on a small machine (which re-import the
 * kit for every file).
 */
export function checkRunOptions(reporter: Reporter, extra: UserConfig = {}): UserConfig {
  return {
    root: packageRoot,
    config: join(packageRoot, 'vitest.config.ts'),
    project: ['conformance'],
    watch: false,
    reporters: [reporter],
    fileParallelism: false,
    isolate: false,
    maxWorkers: 1,
    // Some files must run late, the oracle's last, in every run (tier.ts): vitest's own order is by size.
    sequence: { sequencer: QuotaLastSequencer },
    ...extra,
  };
}
