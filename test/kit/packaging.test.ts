import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../spec/paths.js';

/**
 * What an installed package offers, checked against the build (npm test builds before it runs;
 * alone: `npm run build` first): every target of package.json `exports` exists, the subpaths
 * import through the package's self-reference in a plain node process, and the command prints
 * its version. The packed tarball installed into an empty project, and run there, is
 * test/cli/ci-action.test.ts's (one install for both).
 */
const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  exports: Record<string, string | Record<string, string>>;
  files: string[];
};

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: packageRoot, encoding: 'utf8', timeout: 30_000 });
}

describe('package', () => {
  it('is built (npm run build), so the checks below test what would be published', () => {
    expect(existsSync(join(packageRoot, 'dist/cli/main.js')), 'dist/ is missing: run npm run build').toBe(true);
  });

  it('points every exports target at a file of the build', () => {
    const targets = Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [t] : Object.values(t)));
    expect(targets.length).toBeGreaterThanOrEqual(5);
    expect(targets.filter((t) => !existsSync(join(packageRoot, t)))).toEqual([]);
    // And the build's folders are published (npm always publishes package.json).
    for (const t of targets.filter((t) => t !== './package.json'))
      expect(
        pkg.files.some((f) => t.replace(/^\.\//, '').startsWith(`${f}/`)),
        t,
      ).toBe(true);
  });

  it('publishes every file the published vitest.config.ts imports (every kit run loads it)', () => {
    expect(pkg.files).toContain('vitest.config.ts');
    const config = readFileSync(join(packageRoot, 'vitest.config.ts'), 'utf8');
    const relative = [...config.matchAll(/from\s+'(\.\/[^']+)'/g)].map((m) => m[1]!.replace(/^\.\//, ''));
    expect(relative.length).toBeGreaterThan(0);
    // test/ is not published: a sequencer imported from there broke every installed kit run.
    expect(relative.filter((path) => !pkg.files.some((f) => path.startsWith(`${f}/`)))).toEqual([]);
  });

  it('imports notes-conformance/spec and notes-conformance/fake by name, and they work', () => {
    const script = `
      const spec = await import('${pkg.name}/spec');
      const { createFake } = await import('${pkg.name}/fake');
      const fake = await createFake({ users: ['tok-packaging'] });
      const answer = await fetch(fake.url + '/v2/notes?limit=1', { headers: { authorization: 'Bearer tok-packaging' } });
      await fake.close();
      console.log(JSON.stringify({
        rules: spec.loadRules().length,
        profile: spec.loadBuiltinProfile('fake').name,
        schemas: spec.createSchemaRegistry().names.length,
        operations: spec.listOperations().length,
        status: answer.status,
      }));`;
    const out = JSON.parse(node(['--input-type=module', '-e', script])) as Record<string, unknown>;
    expect(out.rules).toBeGreaterThan(150);
    expect(out.profile).toBe('reference-fake');
    expect(out.schemas).toBeGreaterThan(5);
    expect(out.operations).toBeGreaterThanOrEqual(16);
    expect(out.status).toBe(200);
  });

  it('notes-conformance --version prints the version of package.json', () => {
    expect(node([join(packageRoot, 'bin/notes-conformance.js'), '--version']).trim()).toBe(pkg.version);
  });
});
