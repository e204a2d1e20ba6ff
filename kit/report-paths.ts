import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../suites/harness/errors.js';

/**
 * Refuses, before anything is sent, a report path the run could not write at its end (a run of
 * many minutes must not be lost to a typo): a directory, a file under something that is not a
 * directory, a place without write permission, or two reports on one file. Missing directories
 * are fine: they are created when the reports are written.
 */
export function checkReportPaths(outputs: Readonly<Record<string, string | undefined>>): void {
  const seen = new Map<string, string>();
  for (const [flag, path] of Object.entries(outputs)) {
    if (path === undefined) continue;
    const problem = reportPathProblem(path);
    if (problem) throw new UsageError(`--${flag} ${path}: ${problem}`);
    const file = resolve(path);
    const other = seen.get(file);
    if (other)
      throw new UsageError(`--${flag} ${path}: --${other} writes the same file; give each report its own file`);
    seen.set(file, flag);
  }
}

/** Refuses a file the process must be able to write later (a report, the fake's --state), in one line. */
export function checkWritableFile(flag: string, path: string): void {
  const problem = reportPathProblem(path);
  if (problem) throw new UsageError(`${flag} ${path}: ${problem}`);
}

function reportPathProblem(path: string): string | undefined {
  if (/[\\/]$/.test(path)) return 'is a directory; give a file name in it';
  const file = resolve(path);
  const own = statOf(file);
  if (own?.isDirectory()) return 'is a directory; give a file name in it';
  if (own) return writable(file) ? undefined : 'the file is not writable';
  // The nearest existing ancestor must be a directory the run may create things in.
  let dir = dirname(file);
  for (;;) {
    const stat = statOf(dir);
    if (stat) {
      if (!stat.isDirectory()) return `${dir} is not a directory`;
      return writable(dir) ? undefined : `cannot create files in ${dir} (no write permission)`;
    }
    const up = dirname(dir);
    if (up === dir) return 'no directory of this path exists';
    dir = up;
  }
}

function statOf(path: string) {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw new UsageError(`cannot check the report path ${path}: ${(error as Error).message}`);
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
