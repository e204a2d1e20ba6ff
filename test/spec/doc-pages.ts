import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../spec/paths.js';

/** The documentation pages: the README, docs/ and the benchmarks. */
export function documentedPages(): string[] {
  const docs = readdirSync(join(packageRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs, 'bench/README.md'];
}
