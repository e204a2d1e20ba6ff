import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/** Records which install a directory of kept modules serves, so that a prune can tell when that install is gone. */
export function markInstall(modulesDir: string | undefined, installRoot: string): void {
  if (!modulesDir) return;
  const file = join(modulesDir, INSTALL_FILE);
  // Vitest clears the directory when the lockfile changes: written again whenever it is missing.
  if (!existsSync(file)) keepCached(file, installRoot);
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
 * module directories of installs whose package root is gone (or, unrecorded, untouched for
 * PRUNE_AFTER_MS). Another install's modules are removed only once its root is gone, so no run can
 * be reading them; this install's own directory is vitest's to manage (it reads a file right after
 * checking it exists, so no file is removed from under it). Answers the paths it removed; never throws.
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
    const dir = join(parent, name);
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
    const unused = (ms: number) => now - stat.mtimeMs > ms;
    // Gone: the install is removed, or its tsconfig changed (it names another directory now; a day
    // unused, so that no run started before the change still reads it), or nothing says and a month passed.
    const gone =
      root === undefined
        ? unused(PRUNE_AFTER_MS)
        : !existsSync(join(root, 'package.json')) || (modulesDirName(root) !== name && unused(PRUNE_EVERY_MS));
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

/** The package root a modules directory serves, if it recorded one. */
function installOf(dir: string): string | undefined {
  try {
    const root = readFileSync(join(dir, INSTALL_FILE), 'utf8');
    return isAbsolute(root) ? root : undefined;
  } catch {
    return undefined;
  }
}
