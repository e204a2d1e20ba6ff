import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepParsedYamlIn, PARSED_YAML_CACHE_ENV, readYamlFile } from '../../spec/yaml-file.js';

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
