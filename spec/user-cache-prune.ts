import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { keepCached, userCacheDir } from './user-cache.js';

/**
 * What the user's cache keeps for nobody, removed (spec/user-cache.ts keeps it; nothing removed it):
 * a directory of transformed modules for every install path and tsconfig (a CI runner that checks
 * out to a new path per job grew it by one each job), and a file per version of the kit in the
 * caches named by content hash. All of it is made again on use, so a prune can only cost a rebuild.
 */

/** A kept file unwritten this long, or modules of an unrecorded install unused this long, is removed. */
export const PRUNE_AFTER_MS = 30 * 86_400_000;
/** A prune runs at most this often (the time of its stamp file), so a run pays one stat. */
export const PRUNE_EVERY_MS = 86_400_000;
/** The caches whose files are named by a hash of what they hold: readers treat a missing file as not kept yet. */
const HASHED = ['parsed-yaml', 'validators', 'collected-checks'];
/** The prefix of vitest's module directories (vitest.config.ts), one per install path and tsconfig. */
const MODULES_PREFIX = 'vitest-modules-';
/** Inside such a directory: the package root it serves. */
const INSTALL_FILE = 'install-root';
/** Inside such a directory: touched at every vitest start of its install (vitest's reads leave no trace). */
const USED_FILE = 'last-used';

/**
 * The name of the directory of transformed modules of the install at `installRoot` (vitest.config.ts):
 * one per install path and tsconfig, since vitest keys a module by its content and config, not by
 * tsconfig.json, and clears the whole directory when the lockfile changes (two installs sharing one
 * would clear each other's modules mid-run). Undefined when the install has no readable tsconfig.json.
 */
export function modulesDirName(installRoot: string): string | undefined {
  let tsconfig: string;
  try {
    tsconfig = readFileSync(join(installRoot, 'tsconfig.json'), 'utf8');
  } catch {
    return undefined;
  }
  const hash = createHash('sha256').update(`${installRoot}\0${tsconfig}`).digest('hex').slice(0, 16);
  return `${MODULES_PREFIX}${hash}`;
}

/**
 * Records which install a directory of kept modules serves, and that it is in use now, so that a
 * prune can tell when that install is gone and no run of it can still be reading the directory.
 */
export function markInstall(modulesDir: string | undefined, installRoot: string, now = Date.now()): void {
  if (!modulesDir) return;
  const file = join(modulesDir, INSTALL_FILE);
  // Vitest clears the directory when the lockfile changes: written again whenever it is missing.
  if (!existsSync(file)) keepCached(file, installRoot);
  const used = join(modulesDir, USED_FILE);
  try {
    utimesSync(used, new Date(now), new Date(now));
  } catch {
    keepCached(used, '');
    try {
      utimesSync(used, new Date(now), new Date(now));
    } catch {
      // No record of use: judged by the directory's time, as an unrecorded one.
    }
  }
}

export interface PruneOptions {
  /** The modules directory of this install: never removed (its files may be read by a run right now). */
  readonly keep?: string;
  readonly now?: number;
  /** The cache root ($XDG_CACHE_HOME or ~/.cache by default). */
  readonly root?: string;
  /** Prune even if the last prune was less than PRUNE_EVERY_MS ago. */
  readonly force?: boolean;
}

/**
 * At most once a day: removes the files of the hashed caches not written for PRUNE_AFTER_MS, and the
 * module directories no run can be reading: of installs gone or renamed and unused for a day, or,
 * unrecorded, untouched for PRUNE_AFTER_MS. This install's own directory is vitest's to manage (it
 * reads a file right after checking it exists, so nothing is removed from under it, or from under
 * a run of another install in progress). Answers the paths it removed; never throws.
 */
export function pruneUserCache(options: PruneOptions = {}): string[] {
  const now = options.now ?? Date.now();
  const stampDir = userCacheDir('pruned', options.root);
  if (!stampDir) return [];
  const stamp = join(stampDir, 'last');
  try {
    if (!options.force && now - statSync(stamp).mtimeMs < PRUNE_EVERY_MS) return [];
  } catch {
    // Never pruned here.
  }
  try {
    // Stamped first: processes starting together do not all prune.
    writeFileSync(stamp, new Date(now).toISOString());
  } catch {
    return [];
  }
  const parent = dirname(stampDir);
  const removed: string[] = [];
  const remove = (path: string) => {
    try {
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // Left for the next prune.
    }
  };
  for (const name of HASHED) {
    // Through userCacheDir: a link planted at the name, or a directory of another owner, is not followed.
    const dir = userCacheDir(name, options.root);
    if (!dir) continue;
    for (const file of entries(dir)) {
      const stat = lstatOrUndefined(join(dir, file));
      if (stat?.isFile() && now - stat.mtimeMs > PRUNE_AFTER_MS) remove(join(dir, file));
    }
  }
  for (const name of entries(parent)) {
    const dir = join(parent, name);
    if (!name.startsWith(MODULES_PREFIX) || dir === options.keep) continue;
    const stat = lstatOrUndefined(dir);
    if (!stat?.isDirectory()) continue;
    const root = installOf(dir);
    const used = lastUsed(dir);
    // Removed only when no run can be reading it: unused for a day at least (a run lasts minutes; a
    // root missing here may be another host's, sharing this cache, that still uses it daily), and
    // either its install is gone or names another directory now (its tsconfig changed). A directory
    // of a kit from before these records: when nothing in it was written or read for a month.
    const gone =
      root === undefined || used === undefined
        ? now - newestUse(dir, stat.mtimeMs) > PRUNE_AFTER_MS
        : now - used > PRUNE_EVERY_MS && (!existsSync(join(root, 'package.json')) || modulesDirName(root) !== name);
    if (gone) remove(dir);
  }
  return removed;
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** When the install of a modules directory last started vitest, if it recorded it. */
function lastUsed(dir: string): number | undefined {
  const stat = lstatOrUndefined(join(dir, USED_FILE));
  return stat?.isFile() ? stat.mtimeMs : undefined;
}

/**
 * The latest time anything in a directory was written or read (reads as far as the file system
 * records them: with relatime, a read at least once a day), and the directory's own time.
 */
function newestUse(dir: string, dirMtime: number): number {
  let newest = dirMtime;
  for (const name of entries(dir)) {
    const stat = lstatOrUndefined(join(dir, name));
    if (stat) newest = Math.max(newest, stat.mtimeMs, stat.atimeMs);
  }
  return newest;
}

/** The package root a modules directory serves, if it recorded one. */
function installOf(dir: string): string | undefined {
  try {
    const root = readFileSync(join(dir, INSTALL_FILE), 'utf8');
    return isAbsolute(root) ? root : undefined;
  } catch {
    return undefined;
  }
}
