import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userCacheDir } from '../../spec/user-cache.js';
import { keepParsedYamlIn, PARSED_YAML_CACHE_ENV, readYamlFile } from '../../spec/yaml-file.js';

const ownCacheDir = () => userCacheDir('parsed-yaml');

/** The parsed-YAML directory a run shares with its workers, which would otherwise parse the spec files again. */
describe('parsed YAML shared with the workers', () => {
  const before = process.env[PARSED_YAML_CACHE_ENV];
  const scratch = mkdtempSync(join(tmpdir(), 'nc-yaml-file-'));
  afterEach(() => {
    if (before === undefined) delete process.env[PARSED_YAML_CACHE_ENV];
    else process.env[PARSED_YAML_CACHE_ENV] = before;
    rmSync(scratch, { recursive: true, force: true });
  });

  it('keeps what was parsed before the directory existed, so a worker reads it parsed', () => {
    delete process.env[PARSED_YAML_CACHE_ENV];
    const file = join(scratch, 'rules.yaml');
    writeFileSync(file, 'rules:\n  - id: a.b\n    level: documented\n');
    const check = { name: 'shape', run: () => {} };
    const parsed = readYamlFile(file, check);
    const dir = mkdtempSync(join(scratch, 'parsed-'));
    keepParsedYamlIn(dir);
    expect(process.env[PARSED_YAML_CACHE_ENV]).toBe(dir);
    // The fast tier shares modules between files: other files' parses may be kept too.
    const hash = createHash('sha256').update(readFileSync(file, 'utf8')).digest('hex');
    expect(readdirSync(dir)).toContain(`${hash}.shape.v8`);
    // A reader with the directory gets the kept value without running the check again.
    let checked = 0;
    expect(readYamlFile(file, { name: 'shape', run: () => void checked++ })).toEqual(parsed);
    expect(checked).toBe(0);
  });
});

/** The parse a machine keeps across runs: rules.yaml and openapi.yaml cost about 0.3 s each to parse. */
describe('parsed YAML kept on the machine', () => {
  const saved = { cache: process.env.XDG_CACHE_HOME, run: process.env[PARSED_YAML_CACHE_ENV] };
  let root = '';
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'nc-yaml-machine-'));
    process.env.XDG_CACHE_HOME = root; // the user cache's root (spec/user-cache.ts)
    delete process.env[PARSED_YAML_CACHE_ENV];
  });
  afterEach(() => {
    for (const [name, value] of [
      ['XDG_CACHE_HOME', saved.cache],
      [PARSED_YAML_CACHE_ENV, saved.run],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(root, { recursive: true, force: true });
  });

  /** Replaces the kept parse of `text` with `value`, as a stale or planted file would. */
  const plant = (dir: string, text: string, value: unknown) => {
    const hash = createHash('sha256').update(text).digest('hex');
    const [name] = readdirSync(dir).filter((f) => f.startsWith(hash));
    expect(name, 'the parse was kept').toBeDefined();
    writeFileSync(join(dir, name!), serialize(value));
  };

  it('reads a text parsed before from the machine, and still runs the check on it', () => {
    const file = join(root, 'spec.yaml');
    const text = 'a: 1\n';
    writeFileSync(file, text);
    expect(readYamlFile(file)).toEqual({ a: 1 });
    const dir = ownCacheDir()!;
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    plant(dir, text, { a: 'kept' });
    let checked = 0;
    expect(readYamlFile(file, { name: 'c', run: () => void checked++ })).toEqual({ a: 'kept' });
    expect(checked, 'a check result is never kept across runs').toBe(1);
  });

  it('trusts no directory another account could write to', () => {
    const file = join(root, 'spec.yaml');
    writeFileSync(file, 'b: 2\n');
    readYamlFile(file);
    const dir = ownCacheDir()!;
    plant(dir, 'b: 2\n', { b: 'planted' });
    // The parent is the boundary: others cannot reach the leaf through a 0700 parent.
    chmodSync(join(dir, '..'), 0o777);
    expect(ownCacheDir()).toBeUndefined();
    expect(readYamlFile(file)).toEqual({ b: 2 });
  });

  it('parses again when the kept file is unreadable', () => {
    const file = join(root, 'spec.yaml');
    writeFileSync(file, 'c: 3\n');
    readYamlFile(file);
    const hash = createHash('sha256').update('c: 3\n').digest('hex');
    const dir = ownCacheDir()!;
    for (const f of readdirSync(dir).filter((n) => n.startsWith(hash))) writeFileSync(join(dir, f), 'garbage');
    expect(readYamlFile(file)).toEqual({ c: 3 });
  });
});
