import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../spec/paths.js';

interface KnownViolation {
  from: string;
  to: string;
  rule: { name: string };
}

describe('the import rules (npm run lint:imports)', () => {
  it('tolerate only the imports of suites/ by kit/ and cli/ that wait for kit/core/', () => {
    const file = join(packageRoot, 'scripts', 'known-imports-of-suites.json');
    const known = JSON.parse(readFileSync(file, 'utf8')) as KnownViolation[];
    const other = known.filter(
      (v) =>
        v.rule.name !== 'kit-and-cli-import-nothing-from-suites' ||
        !/^(kit|cli)\//.test(v.from) ||
        !v.to.startsWith('suites/'),
    );
    expect(other).toEqual([]);
  });
});
