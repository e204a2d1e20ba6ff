import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { userCacheDir } from './spec/user-cache.js';
import { markInstall, modulesDirName, pruneUserCache } from './spec/user-cache-prune.js';

/**
 * Modules transformed once per machine, not once per run: vite's transforms held the kit's check
 * worker at its start (bench:kit: a run's median 14.3 s -> 11.9 s). Vitest keys each module by its
 * content and config, not by tsconfig.json, and clears the whole directory when the lockfile
 * changes: so one directory per install and tsconfig (two installs would clear each other's
 * modules mid-run). Kept modules are code: the directory is the user's own (spec/user-cache.ts).
 */
const packageRoot = dirname(fileURLToPath(import.meta.url));
const modulesName = modulesDirName(packageRoot);
const modules = modulesName ? userCacheDir(modulesName) : undefined;
// Each such directory names its install, and at most once a day what no install uses any more goes
// (spec/user-cache-prune.ts): the directories of removed installs, hashed files unwritten for 30 days.
markInstall(modules, packageRoot);
pruneUserCache({ ...(modules ? { keep: modules } : {}) });

/**
 * The project's own tests come in two tiers. `fast` (npm run test:fast) is the unit tier: spec,
 * fake, reporters and harness units, in-process, well under two minutes. `proofs` run the kit as a
 * user would (fault matrix, no-false-failure runs, broken targets, leftovers, differential runs,
 * the container, the CLI processes and the built package). `npm test` runs both. `conformance` is the kit's checks
 * against a target (the CLI drives it; with no target it starts the fake in-process).
 */
const PROOFS = [
  'test/kit/clean-run.test.ts',
  'test/kit/fault-matrix.test.ts',
  'test/kit/broken-targets.test.ts',
  'test/kit/leftovers.test.ts',
  'test/kit/differential.test.ts',
  'test/kit/container.test.ts',
  'test/kit/refused-token.test.ts',
  'test/kit/repro-faults.test.ts',
  'test/kit/har.test.ts',
  'test/kit/packaging.test.ts',
  'test/kit/profile-init.test.ts',
  'test/kit/quota.test.ts',
  'test/kit/cost.test.ts',
  'test/kit/cap-plan.test.ts',
  'test/kit/refused-creates.test.ts',
  'test/kit/remote-boundaries.test.ts',
  'test/kit/leave-one-out.test.ts',
  'test/fake/soak.test.ts',
  'test/kit/declared-shapes.test.ts',
  'test/kit/as-of.test.ts',
  'test/kit/undeclared-names.test.ts',
  'test/kit/three-file-rule.test.ts',
  'test/kit/positive-control.test.ts',
  'test/kit/confirmed-failures.test.ts',
  // Whole-system or hostile-size work of several seconds each: a real browser, a million-item list.
  'test/reporters/browser.test.ts',
  'test/spec/schemas-large.test.ts',
  'test/cli/**/*.test.ts',
];

/**
 * npm test's order (here, not in test/: this file is published, and every kit run loads it):
 * vitest's own (the fast tier first, then the proofs), except that the longest
 * proofs start in this order, so that those that mostly wait (the divergent fake's whole-second
 * timestamps and index lag in profile init and leftovers, the broken targets' timeouts) run
 * beside those that keep both cores busy (the fault matrix's two shards, leave-one-out's two
 * workers), not beside each other. By vitest's order (the longest first, or the largest file on
 * a machine with no timings) profile init and leftovers ran together and left the cores a third
 * idle for two minutes (a 5-second trace of /proc/stat during `npm test`).
 */
const FIRST = [
  'test/kit/fault-matrix.test.ts',
  'test/kit/profile-init.test.ts',
  'test/kit/leftovers.test.ts',
  'test/kit/leave-one-out.test.ts',
  'test/kit/broken-targets.test.ts',
  'test/kit/clean-run.test.ts',
];

class ProofsSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = FIRST.findIndex((file) => spec.moduleId.endsWith(file));
      return at === -1 ? FIRST.length : at;
    };
    // Only the proofs move; the fast tier keeps its place before them (sort is stable).
    const proofs = sorted.filter((spec) => spec.project.name === 'proofs').sort((a, b) => rank(a) - rank(b));
    return [...sorted.filter((spec) => spec.project.name !== 'proofs'), ...proofs];
  }
}

export default defineConfig({
  test: {
    // Both cores of the 2-core machines this is measured on (vitest's default leaves one idle): the
    // fast tier is CPU work (60 s -> 34 s), most proofs wait on processes, sockets and timeouts. The
    // kit's own runs keep one worker (kit/vitest-run.ts).
    maxWorkers: 2,
    sequence: { sequencer: ProofsSequencer },
    ...(modules ? { experimental: { fsModuleCache: true, fsModuleCachePath: modules } } : {}),
    projects: [
      {
        test: {
          name: 'conformance',
          include: ['suites/**/*.check.ts'],
          globalSetup: ['kit/global-setup.ts'],
          // Before each check file: in the fault matrix, the run of the file's row (kit/matrix-rows.ts).
          setupFiles: ['suites/harness/matrix-row.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...PROOFS],
          // Files share a worker's modules instead of importing the fake, spec and kit afresh
          // each (import time fell from 39 s to 9 s, CPU from 83 s to 44 s): a file must undo
          // what it changes of the process (environment variables, signal handlers, timers).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'proofs',
          include: PROOFS,
          // Every report a proof's in-process run makes is held to spec/report.schema.json.
          setupFiles: ['test/report-schema-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
