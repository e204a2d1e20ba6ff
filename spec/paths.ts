import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root, found from this file whether it runs from sources (spec/) or the build (dist/spec/). */
function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'spec', 'rules.yaml'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('notes-conformance: cannot find the package root (spec/rules.yaml)');
    dir = up;
  }
}

export const packageRoot = findPackageRoot();

export function specFile(...parts: string[]): string {
  return join(packageRoot, 'spec', ...parts);
}
