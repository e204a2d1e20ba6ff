import { describe, expect, it } from 'vitest';
import { checkFilesByRule } from '../../cli/fault-matrix.js';
import { loadRules } from '../../spec/rules.js';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../spec/paths.js';

/**
 * Rules and checks in both directions, read from the check files' source (every check names
 * its rules literally): no rule without a check file naming it, no rule-like id in a check file
 * that the catalogue does not know. check() also refuses unknown ids when a file is collected,
 * and a run reports a rule without a check as `error: no check`.
 */
describe('rule coverage', () => {
  const rules = loadRules();
  const areas = new Set(rules.map((r) => r.id.split('.')[0]));

  it('every rule of the catalogue is named by at least one check file', () => {
    const files = checkFilesByRule();
    expect(rules.filter((r) => !files.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  it('every rule id a check file names is in the catalogue', () => {
    const known = new Set(rules.map((r) => r.id));
    const dir = join(packageRoot, 'suites');
    const unknown: string[] = [];
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const [, id] of text.matchAll(/'([a-z]+(?:\.[a-z0-9-]+){2,})'/g)) {
        if (areas.has(id!.split('.')[0]!) && !known.has(id!) && !/\.(ts|js|yaml|json)$/.test(id!)) unknown.push(`${file}: ${id}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
