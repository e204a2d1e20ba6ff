import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../spec/paths.js';

/**
 * What an installed package offers, checked against the build (npm test builds before it runs;
 * alone: `npm run build` first): every target of package.json `exports` exists, the subpaths
 * import through the package's self-reference in a plain node process, and the command prints
 * its version.
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

  it('installs from its packed tarball into an empty project, and runs there', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'nc-pack-'));
    try {
      const project = join(scratch, 'project');
      const npm = (args: string[], cwd: string) =>
        execFileSync('npm', [...args, '--no-audit', '--no-fund'], { cwd, encoding: 'utf8', timeout: 240_000 });
      // The build is npm test's (npm pack would run prepare, a second build, otherwise).
      npm(['pack', '--ignore-scripts', '--pack-destination', scratch], packageRoot);
      const tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz'))!;
      execFileSync('mkdir', [project]);
      writeFileSync(join(project, 'package.json'), '{"name": "empty-project", "version": "1.0.0", "private": true}\n');
      // The dependencies come from npm's cache where it has them (npm ci filled it), else the registry.
      npm(['install', '--prefer-offline', join(scratch, tarball)], project);
      const installed = join(project, 'node_modules', pkg.name);
      expect(existsSync(join(installed, 'LICENSE')), 'the LICENSE is published').toBe(true);
      const npx = (args: string[]) =>
        execFileSync('npx', ['--no-install', 'notes-conformance', ...args], {
          cwd: project,
          encoding: 'utf8',
          timeout: 240_000,
        });
      expect(npx(['--version']).trim()).toBe(pkg.version);
      // A run of the installed kit against its embedded fake: the checks, vitest and the fake all
      // load from node_modules (one area keeps it short).
      expect(npx(['--only', 'conventions', '--quiet'])).toMatch(
        /^notes-conformance: PASS: \d+ rules against embedded fake/m,
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 600_000);

  it('notes-conformance --version prints the version of package.json', () => {
    expect(node([join(packageRoot, 'bin/notes-conformance.js'), '--version']).trim()).toBe(pkg.version);
  });
});
