import { lstatSync, mkdirSync } from 'node:fs';
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
  const dir = join(root, `notes-conformance-${uid}`, name);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const d of [dir, join(dir, '..')]) {
      const stat = lstatSync(d);
      if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) return undefined;
    }
    return dir;
  } catch {
    return undefined; // no cache: the work is done again
  }
}
