import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userCacheDir } from '../../spec/user-cache.js';

/** The per-user cache directory: parsed spec files and transformed modules are read back as rules and code. */
describe('userCacheDir', () => {
  let root = '';
  const uid = process.getuid?.();
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'nc-user-cache-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it.runIf(uid !== undefined)('makes both levels 0700 and answers the leaf', () => {
    const dir = userCacheDir('things', root)!;
    expect(dir).toBe(join(root, 'notes-conformance', 'things'));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, '..')).mode & 0o777).toBe(0o700);
  });

  it.runIf(uid !== undefined)(
    'closes a leaf another tool remade with its own mode (vitest clears and remakes its cache)',
    () => {
      const dir = userCacheDir('modules', root)!;
      rmSync(dir, { recursive: true });
      mkdirSync(dir, { mode: 0o755 });
      chmodSync(dir, 0o755);
      expect(userCacheDir('modules', root)).toBe(dir);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    },
  );

  it.runIf(uid !== undefined)('trusts no parent others could write to, and follows no link', () => {
    const parent = join(root, 'notes-conformance');
    mkdirSync(parent);
    chmodSync(parent, 0o777);
    expect(userCacheDir('x', root)).toBeUndefined();
    rmSync(parent, { recursive: true });
    const elsewhere = mkdtempSync(join(root, 'elsewhere-'));
    symlinkSync(elsewhere, parent);
    expect(userCacheDir('x', root)).toBeUndefined();
  });
});
