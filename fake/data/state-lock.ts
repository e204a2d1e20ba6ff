import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { DataFileError } from './errors.js';

export const lockPathOf = (statePath: string) => `${statePath}.lock`;

/**
 * Takes the state file for this process: a lock file created exclusively, holding the pid. A lock
 * whose process is gone (kill -9, a crash) is stale and taken over; a live one refuses the start,
 * so two fakes never overwrite each other's state. Returns the release function.
 */
export function lockStateFile(statePath: string): () => void {
  const path = lockPathOf(statePath);
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new DataFileError(`${path}: cannot create the lock file (${(error as NodeJS.ErrnoException).code})`);
      }
      const holder = lockHolder(path);
      if (holder !== undefined && holder !== process.pid && alive(holder)) {
        throw new DataFileError(
          `${statePath}: in use by another fake (process ${holder}); stop it or pick another --state file`,
        );
      }
      if (holder === process.pid) {
        throw new DataFileError(`${statePath}: already in use by another fake of this process`);
      }
      // Stale: its process is gone. Remove it and try once more (another starter may win the race).
      try {
        unlinkSync(path);
      } catch {}
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      try {
        if (lockHolder(path) === process.pid) unlinkSync(path);
      } catch {}
    };
  }
  throw new DataFileError(`${statePath}: another fake took the lock file ${path} while this one started`);
}

function lockHolder(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
