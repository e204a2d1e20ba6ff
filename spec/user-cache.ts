import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A cache directory of this user's own under the system's temporary directory
 * (`notes-conformance-<uid>/<name>`, 0700), or undefined where there can be none. Checked on
 * every call: what is kept there (parsed spec files, transformed check modules) is read back as
 * code or rules, so a directory another account could write to is never trusted.
 */
export function userCacheDir(name: string, root = tmpdir()): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const parent = join(root, `notes-conformance-${uid}`);
  const dir = join(parent, name);
  try {
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
