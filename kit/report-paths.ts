import { closeSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../spec/verdicts.js';

/**
 * Refuses, before anything is sent, a report path the run could not write at its end (a run of
 * many minutes must not be lost to a typo): a directory, a file under something that is not a
 * directory, a place the process cannot create files in (read-only, no permission, a
 * pseudo-filesystem such as /proc), or two reports on one file. The place is tried for real (a
 * probe file created and removed): permission bits do not tell root, a read-only mount or /proc.
 * Missing directories are fine when their nearest existing ancestor takes new files: they are
 * created when the reports are written (makeDirectories).
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

/**
 * mkdir -p, one level at a time. Node's own `recursive: true` loops for ever on some paths
 * (under /proc it spins at 100% CPU, in a synchronous call no signal can interrupt).
 */
export function makeDirectories(dir: string): void {
  const missing: string[] = [];
  let at = resolve(dir);
  while (statOf(at) === undefined) {
    missing.unshift(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const path of missing) {
    try {
      mkdirSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

function reportPathProblem(path: string): string | undefined {
  if (/[\\/]$/.test(path)) return 'is a directory; give a file name in it';
  const file = resolve(path);
  const own = statOf(file);
  if (own?.isDirectory()) return 'is a directory; give a file name in it';
  if (own) return own.isFile() ? canOpen(file, 'r+', 'the file is not writable') : 'is not a regular file';
  // The nearest existing ancestor must be a directory the run may create things in.
  let dir = dirname(file);
  for (;;) {
    const stat = statOf(dir);
    if (stat) {
      if (!stat.isDirectory()) return `${dir} is not a directory`;
      return canOpen(join(dir, `.notes-conformance-probe-${process.pid}-${Date.now()}`), 'wx', undefined, true);
    }
    const up = dirname(dir);
    if (up === dir) return 'no directory of this path exists';
    dir = up;
  }
}

/** Opens the file as a report would be written (and removes it again when `created`); the problem, if any. */
function canOpen(file: string, flags: 'r+' | 'wx', problem?: string, created = false): string | undefined {
  try {
    closeSync(openSync(file, flags));
    if (created) unlinkSync(file);
    return undefined;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (problem) return `${problem} (${code ?? message})`;
    const where = dirname(file);
    if (code === 'EACCES' || code === 'EPERM') return `cannot create files in ${where} (no write permission)`;
    if (code === 'EROFS') return `cannot create files in ${where} (a read-only file system)`;
    if (code === 'ENOENT') return `cannot create files in ${where} (it takes no new files: a pseudo-filesystem?)`;
    return `cannot create files in ${where} (${code ?? message.split('\n')[0]})`;
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
