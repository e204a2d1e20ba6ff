import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestUserConfig as UserConfig } from 'vitest/node';
import type { Reporter } from 'vitest/reporters';
import { packageRoot } from '../spec/paths.js';
import { keepParsedYamlIn, PARSED_YAML_CACHE_ENV } from '../spec/yaml-file.js';
import { QuotaLastSequencer } from './tier.js';

/**
 * How the kit runs its checks through vitest, for a run and for each row of the fault matrix:
 * the conformance project, one file at a time in one worker that keeps its modules. Against a
 * remote target one client then keeps pacing and budget for the run, and against the fake it is
 * several times faster than parallel isolated workers on a small machine (which re-import the
 * kit for every file). A run against the embedded fake asks for two such workers in `extra`
 * (kit/run.ts, kit/leave-one-out.ts), each as its own users. Vitest starts a new worker for every run of one instance (each row of the
 * fault matrix), so what a worker prepares at start must be cheap: the spec files it reads are
 * parsed once per kit process (sharedParsedYaml) and schemas are compiled on use.
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
    // The kit's own order in every run (tier.ts): the late files last, the longest first.
    sequence: { sequencer: QuotaLastSequencer },
    // No results cache: the order is the kit's, and every fault-matrix row (a module of its own,
    // `?matrix-row=N`) would add an entry to node_modules/.vite/vitest/*/results.json for good.
    cache: false,
    env: { [PARSED_YAML_CACHE_ENV]: sharedParsedYaml() },
    // Where a run's time goes (bench/profile-kit-run.js): V8 CPU profiles of the check worker.
    ...(process.env.NOTES_CPU_PROFILE
      ? { execArgv: ['--cpu-prof', `--cpu-prof-dir=${process.env.NOTES_CPU_PROFILE}`] }
      : {}),
    ...extra,
  };
}

let parsedYamlDir: string | undefined;

/**
 * The directory where this process and its workers share parsed YAML (spec/yaml-file.ts), made
 * on first call and removed at exit. Called before the process reads the spec files, so that
 * workers find them parsed.
 */
export function sharedParsedYaml(): string {
  if (parsedYamlDir) return parsedYamlDir;
  const dir = mkdtempSync(join(tmpdir(), 'notes-conformance-yaml-'));
  parsedYamlDir = dir;
  keepParsedYamlIn(dir);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
