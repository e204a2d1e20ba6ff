import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userCacheDir } from '../../spec/user-cache.js';
import {
  markInstall,
  modulesDirName,
  PRUNE_AFTER_MS,
  PRUNE_EVERY_MS,
  pruneUserCache,
} from '../../spec/user-cache-prune.js';

const DAY = 86_400_000;
const uid = process.getuid?.();

/** What the user's cache keeps for nobody goes; what an install may still read stays. */
describe.runIf(uid !== undefined)('pruneUserCache', () => {
  let root = '';
  let installs = '';
  const now = Date.now();
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'nc-prune-'));
    installs = mkdtempSync(join(tmpdir(), 'nc-installs-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(installs, { recursive: true, force: true });
  });

  const aged = (path: string, ms: number) => utimesSync(path, new Date(now - ms), new Date(now - ms));
  /** A file in one of the cache's directories, last written `ageMs` ago. */
  const kept = (dir: string, name: string, ageMs: number) => {
    const file = join(userCacheDir(dir, root)!, name);
    writeFileSync(file, 'x');
    aged(file, ageMs);
    return file;
  };
  /** An install with a package.json and a tsconfig.json. */
  const install = (name: string, tsconfig = '{}') => {
    const dir = join(installs, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), '{}');
    writeFileSync(join(dir, 'tsconfig.json'), tsconfig);
    return dir;
  };
  /** A modules directory under `name`, recording `installRoot` if given, unused for `ageMs`. */
  const modules = (name: string, installRoot: string | undefined, ageMs: number) => {
    const dir = userCacheDir(name, root)!;
    writeFileSync(join(dir, 'some-module.js'), '// kept');
    aged(join(dir, 'some-module.js'), ageMs);
    if (installRoot) markInstall(dir, installRoot, now - ageMs);
    aged(dir, ageMs);
    return dir;
  };

  it('removes hashed files unwritten for 30 days, and keeps the rest', () => {
    const old = ['parsed-yaml', 'validators', 'collected-checks'].map((d) => kept(d, 'old', PRUNE_AFTER_MS + DAY));
    const fresh = kept('validators', 'fresh', PRUNE_AFTER_MS - DAY);
    const removed = pruneUserCache({ root, now, force: true });
    expect(removed.sort()).toEqual(old.sort());
    for (const file of old) expect(existsSync(file)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });

  it('removes the modules of installs that are gone or renamed, never those an install may read', () => {
    const current = install('current');
    const kept = install('kept');
    const renamed = install('renamed', '{"old": true}');
    const removedInstall = install('removed');
    const mine = modules(modulesDirName(current)!, current, 2 * PRUNE_AFTER_MS);
    const other = modules(modulesDirName(kept)!, kept, 2 * PRUNE_AFTER_MS);
    const oldName = modules(modulesDirName(renamed)!, renamed, 2 * DAY);
    const oldNameJustUsed = modules(`${modulesDirName(renamed)!}x`, renamed, DAY / 2);
    writeFileSync(join(renamed, 'tsconfig.json'), '{"new": true}');
    const ofRemoved = modules(modulesDirName(removedInstall)!, removedInstall, 2 * DAY);
    // A root missing here but used today: another host sharing this cache, or a run still going.
    const ofRemovedJustUsed = modules(`${modulesDirName(removedInstall)!}x`, removedInstall, DAY / 2);
    rmSync(removedInstall, { recursive: true });
    const unrecordedOld = modules('vitest-modules-0000000000000000', undefined, PRUNE_AFTER_MS + DAY);
    const unrecordedRecent = modules('vitest-modules-1111111111111111', undefined, DAY);
    // Unrecorded (a kit from before the records) and unwritten for a month, but read yesterday.
    const unrecordedRead = modules('vitest-modules-2222222222222222', undefined, PRUNE_AFTER_MS + DAY);
    const read = join(unrecordedRead, 'some-module.js');
    utimesSync(read, new Date(now - DAY), new Date(now - PRUNE_AFTER_MS - DAY));
    aged(unrecordedRead, PRUNE_AFTER_MS + DAY);

    const removed = pruneUserCache({ root, now, force: true, keep: mine });

    expect(removed.sort()).toEqual([oldName, ofRemoved, unrecordedOld].sort());
    for (const dir of [mine, other, oldNameJustUsed, ofRemovedJustUsed, unrecordedRecent, unrecordedRead])
      expect(existsSync(dir), dir).toBe(true);
  });

  it('follows no link planted at a cache name', () => {
    const elsewhere = mkdtempSync(join(root, 'elsewhere-'));
    const victim = join(elsewhere, 'old');
    writeFileSync(victim, 'x');
    aged(victim, PRUNE_AFTER_MS + DAY);
    mkdirSync(join(root, 'notes-conformance'), { mode: 0o700 });
    symlinkSync(elsewhere, join(root, 'notes-conformance', 'validators'));
    pruneUserCache({ root, now, force: true });
    expect(existsSync(victim)).toBe(true);
  });

  it('runs at most once a day', () => {
    const first = kept('parsed-yaml', 'a', PRUNE_AFTER_MS + DAY);
    expect(pruneUserCache({ root, now })).toEqual([first]);
    const second = kept('parsed-yaml', 'b', PRUNE_AFTER_MS + DAY);
    expect(pruneUserCache({ root, now: now + PRUNE_EVERY_MS - 60_000 })).toEqual([]);
    expect(existsSync(second)).toBe(true);
    expect(pruneUserCache({ root, now: now + PRUNE_EVERY_MS + 60_000 })).toEqual([second]);
  });

  it('names a modules directory as vitest.config.ts always did, and records its install once', () => {
    const dir = install('named', '{"compilerOptions": {}}');
    const hash = createHash('sha256').update(`${dir}\0{"compilerOptions": {}}`).digest('hex').slice(0, 16);
    expect(modulesDirName(dir)).toBe(`vitest-modules-${hash}`);
    expect(modulesDirName(join(installs, 'none'))).toBeUndefined();
    const modulesDir = userCacheDir(modulesDirName(dir)!, root)!;
    markInstall(modulesDir, dir);
    markInstall(modulesDir, '/elsewhere');
    expect(readFileSync(join(modulesDir, 'install-root'), 'utf8')).toBe(dir);
  });
});
