import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packageRoot } from '../spec/paths.js';

/**
 * How long each check file takes against the embedded fake (ms, the median of a few runs in the
 * kit's mode: one worker that keeps its modules), written by scripts/measure-check-durations.js.
 * The run starts its files longest first (kit/tier.ts), so that two workers end together: vitest's
 * own order is by the durations of the last run on this machine, else by file size, and on a fresh
 * machine (every CI job) the size order started the model-based check, a third of a run's work,
 * in the middle. The figures only order the files: a stale one costs balance, never a verdict,
 * and a new check file runs first until measured (test/kit/unit/check-order.test.ts).
 */
export const CHECK_DURATIONS_FILE = join(packageRoot, 'kit', 'check-durations.json');

let loaded: Readonly<Record<string, number>> | undefined;

/** The measured durations by file, relative to the package root (suites/...); read once. */
export function checkDurations(): Readonly<Record<string, number>> {
  loaded ??= readCheckDurations(CHECK_DURATIONS_FILE);
  return loaded;
}

/** A table that is missing or damaged orders nothing (every file then runs by path): it never stops a run. */
export function readCheckDurations(path: string): Readonly<Record<string, number>> {
  try {
    const ms = (JSON.parse(readFileSync(path, 'utf8')) as { ms?: unknown }).ms;
    const valid =
      ms !== null && typeof ms === 'object' && Object.values(ms).every((v) => typeof v === 'number' && v >= 0);
    return valid ? (ms as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/** A file's measured duration; a file the table does not name (a new check) counts as the longest. */
export function durationOf(file: string): number {
  return checkDurations()[relative(packageRoot, file).split('\\').join('/')] ?? Number.POSITIVE_INFINITY;
}
