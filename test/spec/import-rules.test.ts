import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../spec/paths.js';

const config = createRequire(import.meta.url)(join(packageRoot, '.dependency-cruiser.cjs'));

describe('the import rules (npm run lint:imports)', () => {
  it('are run with no list of tolerated violations', () => {
    const scripts = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')).scripts;
    expect(scripts['lint:imports']).not.toMatch(/ignore-known/);
  });

  it('find kit/ and cli/ importing nothing from suites/, and kit/core/ nothing above spec/', async () => {
    const result = await cruise(['kit', 'cli'], {
      ruleSet: config,
      validate: true,
      doNotFollow: { path: 'node_modules' },
      exclude: { path: '^(node_modules|dist)/' },
      tsPreCompilationDeps: true,
      baseDir: packageRoot,
    });
    const output = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;
    const modules = output.modules.map((m: { source: string }) => m.source);
    expect(modules.filter((m: string) => m.startsWith('suites/'))).toEqual([]);
    expect(modules.filter((m: string) => m.startsWith('kit/core/')).length).toBeGreaterThan(15);
    expect(output.summary.violations).toEqual([]);
  }, 60_000);
});
