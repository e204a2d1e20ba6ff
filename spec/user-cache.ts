import { chmodSync, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * A cache directory of this user's own (`notes-conformance/<name>` under $XDG_CACHE_HOME or
 * ~/.cache, 0700), or undefined where there can be none. Checked on every call: what is kept there
 * (parsed spec files, transformed check modules) is read back as rules and code, so a directory
 * another account could reach, or a link, is never trusted. Not the temporary directory: a cache
 * outlives runs, and a run leaves nothing behind there.
 */
export function userCacheDir(name: string, root = defaultRoot()): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined || root === undefined) return undefined;
  const parent = join(root, 'notes-conformance');
  const dir = join(parent, name);
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    // Level by level, never following a link: a link planted at either name is refused.
    for (const d of [parent, dir]) {
      try {
        mkdirSync(d, { mode: 0o700 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const stat = lstatSync(d);
      if (!stat.isDirectory() || stat.uid !== uid) return undefined;
      if ((stat.mode & 0o077) !== 0) {
        // Only the parent is the boundary; a tool that recreated the leaf with its own mode (vitest
        // clears and remakes its cache when the lockfile changes) gets it closed again.
        if (d === parent) return undefined;
        chmodSync(d, 0o700);
      }
    }
    return dir;
  } catch {
    return undefined; // no cache: the work is done again
  }
}

function defaultRoot(): string | undefined {
  const xdg = process.env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return xdg;
  try {
    return join(homedir(), '.cache');
  } catch {
    return undefined;
  }
}

/**
 * Writes a cached file whole, then renames it into place, so that a reader at the same time (another
 * run, a worker) sees all of it or nothing. A cache only: a write that fails is left undone, and the
 * next reader does the work again.
 */
export function keepCached(file: string, data: string | Uint8Array): void {
  const partial = `${file}.${process.pid}-${threadId}.tmp`;
  try {
    writeFileSync(partial, data);
    renameSync(partial, file);
  } catch {
    rmSync(partial, { force: true });
  }
}
