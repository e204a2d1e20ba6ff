import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CollectedChecks,
  checkFilesByRule,
  checkSourcesKey,
  collectChecks,
  filesForOnly,
} from '../../kit/coverage.js';
import { packageRoot } from '../../spec/paths.js';
import { loadRules } from '../../spec/rules.js';

/**
 * The rule ids the oracle's judgements and the predictions they compare with can name: read from
 * their sources (kit/core/oracle/, kit/core/behaviour/), so no list is kept by hand.
 */
function oracleRuleIds(): Set<string> {
  const ids = new Set<string>();
  for (const dir of ['kit/core/oracle', 'kit/core/behaviour'].map((d) => join(packageRoot, d)))
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts')))
      for (const m of readFileSync(join(dir, file), 'utf8').matchAll(
        /'((?:conventions|notes|collections|membership|auth|errors|headers|quota|attachments)\.[a-z0-9.-]+)'/g,
      ))
        ids.add(m[1]!);
  return ids;
}

/**
 * Rules and checks in both directions, read from what the checks declare (vitest meta.rules,
 * collected without running anything): no rule without a check, no check naming a rule the
 * catalogue does not know. check() refuses unknown ids when a file is collected (a collection
 * error here), and a run reports a rule without a check as `error: no check`.
 */
describe('rule coverage', () => {
  const rules = loadRules();
  let collected: CollectedChecks;
  beforeAll(async () => {
    collected = await collectChecks();
  });

  it('collects every check file without an error, and finds the checks', () => {
    expect(collected.errors).toEqual([]);
    expect(collected.checks.length).toBeGreaterThan(100);
    expect(new Set(collected.checks.map((c) => c.file)).size).toBeGreaterThan(30);
  });

  it('every rule of the catalogue is declared by a check or named by a judgement of the oracle', () => {
    const files = checkFilesByRule(collected.checks);
    const judged = oracleRuleIds();
    expect(rules.filter((r) => !files.has(r.id) && !judged.has(r.id)).map((r) => r.id)).toEqual([]);
    // And the oracle names no rule the catalogue does not know.
    const known = new Set(rules.map((r) => r.id));
    expect([...judged].filter((id) => !known.has(id))).toEqual([]);
  });

  it('every rule id a check declares is in the catalogue', () => {
    const known = new Set(rules.map((r) => r.id));
    const unknown = collected.checks.flatMap((c) =>
      c.rules.filter((id) => !known.has(id)).map((id) => `${c.name}: ${id}`),
    );
    expect(unknown).toEqual([]);
  });

  it('--only narrows a run to the files declaring a selected rule', () => {
    const files = filesForOnly(collected.checks, ['notes.update.version-stale-refused']);
    expect(files.some((f) => f.endsWith('suites/notes/update.check.ts'))).toBe(true);
    expect(files.some((f) => f.endsWith('suites/auth/bearer.check.ts'))).toBe(false);
    // A prefix selects whole areas; an id that is only a string prefix selects nothing.
    expect(filesForOnly(collected.checks, ['notes.update']).length).toBeGreaterThanOrEqual(files.length);
    expect(filesForOnly(collected.checks, ['notes.updat'])).toEqual([]);
  });
});

describe('collected checks are kept by the sources they are made of', () => {
  it('the key changes when a source under suites, kit, spec or fake changes, and with the package root', () => {
    const root = mkdtempSync(join(tmpdir(), 'nc-collect-key-'));
    try {
      mkdirSync(join(root, 'suites', 'area'), { recursive: true });
      mkdirSync(join(root, 'fake'), { recursive: true });
      writeFileSync(join(root, 'suites', 'area', 'a.check.ts'), "check('a', { rules: ['notes.create.returns-note'] })");
      writeFileSync(join(root, 'fake', 'f.ts'), 'export const x = 1;');
      const first = checkSourcesKey(root);
      expect(checkSourcesKey(root)).toBe(first);
      writeFileSync(join(root, 'suites', 'area', 'a.check.ts'), "check('a', { rules: ['notes.create.id-unique'] })");
      const second = checkSourcesKey(root);
      expect(second).not.toBe(first);
      writeFileSync(join(root, 'fake', 'f.ts'), 'export const x = 2;');
      expect(checkSourcesKey(root)).not.toBe(second);
      writeFileSync(join(root, 'README.md'), 'not a source');
      expect(checkSourcesKey(root)).toBe(checkSourcesKey(root));
      expect(checkSourcesKey(join(root, 'suites'))).not.toBe(checkSourcesKey(root));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a second collection gives the same checks as the first', async () => {
    const [a, b] = [await collectChecks(), await collectChecks()];
    expect(b).toEqual(a);
  });
});
