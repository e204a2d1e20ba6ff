import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RUN_FLAGS } from '../../kit/run-flags.js';
import { packageRoot } from '../../spec/paths.js';
import { loadRules } from '../../spec/rules.js';

/**
 * The built CLI (npm run build first) where a person is most likely to stumble: a mistyped flag,
 * subcommand or profile key is answered with what was most likely meant; a missing profile in
 * words; the rule catalogue listed; the environment variables in --help.
 */
const scratch = mkdtempSync(join(tmpdir(), 'nc-helpful-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function cli(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NOTES_')));
    const child = spawn(process.execPath, [join(packageRoot, 'bin/notes-conformance.js'), ...args], {
      cwd: scratch,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** One line on stderr, exit 2, nothing on stdout: the usage-error contract of test/cli/bad-flags.test.ts. */
async function refused(args: readonly string[]): Promise<string> {
  const { code, stdout, stderr } = await cli(args);
  expect({ args, code, stdout, lines: stderr.trimEnd().split('\n').length }).toEqual({
    args,
    code: 2,
    stdout: '',
    lines: 1,
  });
  return stderr.trim();
}

describe('did you mean', () => {
  it('names the flag a mistyped one most likely meant, for the run and for subcommands', async () => {
    expect(await refused(['--targt', 'http://127.0.0.1:9'])).toBe(
      'notes-conformance: unknown option --targt (did you mean --target?) (see notes-conformance --help)',
    );
    expect(await refused(['--secondary-tokn=x'])).toContain('(did you mean --secondary-token?)');
    expect(await refused(['fake', '--prot', '8080'])).toContain(
      'unknown option --prot (did you mean --port?) (see notes-conformance fake --help)',
    );
    expect(await refused(['profile', 'init', '--ot', 'p.yaml'])).toContain('(did you mean --out?)');
    // Nothing close: no guess.
    expect(await refused(['--frobnicate'])).toBe(
      'notes-conformance: unknown option --frobnicate (see notes-conformance --help)',
    );
  }, 60_000);

  it('names the subcommand a mistyped one most likely meant', async () => {
    expect(await refused(['fak'])).toMatch(/^notes-conformance: unknown command fak \(did you mean fake\?\);/);
    expect(await refused(['rule'])).toContain('(did you mean rules?)');
    expect(await refused(['profile', 'inti'])).toContain('unknown subcommand inti (did you mean init?)');
  }, 60_000);

  it('names the profile key a misspelt one most likely meant, and a missing profile without an errno code', async () => {
    const profile = join(scratch, 'misspelt.yaml');
    writeFileSync(profile, 'name: mine\nstatuses:\n  validaton: 422\nnames:\n  notes_list:\n    cursr: page\n');
    const { code, stderr } = await cli(['--profile', profile]);
    expect(code).toBe(2);
    expect(stderr).toContain('/statuses/validaton: unknown field (did you mean validation?)');
    expect(stderr).toContain('/names/notes_list/cursr: unknown field (did you mean cursor?)');
    const missing = await refused(['--profile', join(scratch, 'no-such.yaml')]);
    expect(missing).toContain('no-such.yaml: cannot read the file: there is no such file');
    expect(missing).not.toMatch(/ENOENT|errno/);
  }, 60_000);
});

describe('the niceties of issue 35', () => {
  it('names the rule id, area and built-in profile a mistyped one most likely meant', async () => {
    expect(await refused(['--only', 'notes.craete'])).toContain(
      '--only notes.craete matches no rule id (did you mean notes.create?)',
    );
    expect(await refused(['rules', '--area', 'notes.creat'])).toContain(
      'no rule in area notes.creat (did you mean notes.create?)',
    );
    expect(await refused(['--profile', 'fake-divergnt'])).toBe(
      'notes-conformance: --profile fake-divergnt: cannot read the file: there is no such file (did you mean the built-in profile fake-divergent?)',
    );
  }, 60_000);

  it('prints the version for -v on every command, as every --help says', async () => {
    const { version } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
    for (const args of [
      ['-v'],
      ['fake', '-v'],
      ['rules', '-v'],
      ['matrix', '-v'],
      ['diff', '-v'],
      ['profile', 'init', '-v'],
      ['compare', '-v'],
    ]) {
      const { code, stdout } = await cli(args);
      expect({ args, code, stdout: stdout.trim() }).toEqual({ args, code: 0, stdout: version });
    }
  }, 60_000);

  it("says what is wrong with a negative number in the kit's own words", async () => {
    expect(await refused(['--max-notes', '-3'])).toBe(
      'notes-conformance: --max-notes must be a positive integer (got -3)',
    );
    expect(await refused(['--seed', '-1'])).toBe('notes-conformance: --seed must be a non-negative integer (got -1)');
    expect(await refused(['fake', '--port', '-1'])).toContain('--port must be an integer from 0 to 65535 (got -1)');
  }, 60_000);

  it('--as-of takes a real date of the /v2 series', async () => {
    expect(await refused(['--as-of', '2026-02-30'])).toBe(
      'notes-conformance: --as-of takes a date as YYYY-MM-DD, such as 2026-05-15 (got 2026-02-30)',
    );
    expect(await refused(['--as-of', '2025-01-01'])).toContain('before the /v2 series was released (2025-06-03)');
  }, 60_000);
});

describe('notes-conformance rules', () => {
  const rules = loadRules();

  it('lists every rule id with its level and quote, and counts them', async () => {
    const { code, stdout, stderr } = await cli(['rules']);
    expect(code, stderr).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(`${rules.length} rules`);
    expect(lines).toHaveLength(rules.length + 1);
    for (const [i, rule] of rules.entries()) {
      expect(lines[i]!.startsWith(`${rule.id} `), rule.id).toBe(true);
      expect(lines[i]).toContain(` ${rule.level} `);
      expect(lines[i]).toContain(`"${rule.quote[0]!.replace(/\s+/g, ' ').trim()}"`);
    }
  }, 30_000);

  it('narrows to an area or id prefix, as JSON for tools', async () => {
    const { code, stdout } = await cli(['rules', '--area', 'notes.create', '--json']);
    expect(code).toBe(0);
    const listed = JSON.parse(stdout) as Array<{ id: string; level: string; quote: string[]; area: string }>;
    expect(listed.map((r) => r.id)).toEqual(rules.filter((r) => r.id.startsWith('notes.create.')).map((r) => r.id));
    expect(listed.every((r) => r.area === 'notes' && r.quote.length > 0 && r.level)).toBe(true);
    const one = await cli(['rules', '--area', 'quota.set-created-at.neutral']);
    expect(one.stdout.trimEnd().split('\n').at(-1)).toBe('1 rule in quota.set-created-at.neutral');
    expect(await refused(['rules', '--area', 'nots'])).toContain('no rule in area nots (did you mean notes?)');
  }, 30_000);

  it('lists the rules in force on a date (--as-of), with the date each entered the API', async () => {
    const { code, stdout } = await cli(['rules', '--as-of', '2026-04-01']);
    expect(code).toBe(0);
    const inForce = rules.filter((r) => r.since <= '2026-04-01');
    const lines = stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(`${inForce.length} rules in force on 2026-04-01 (API revision 2026-04-01)`);
    expect(lines.slice(0, -1).map((l) => l.split(' ')[0])).toEqual(inForce.map((r) => r.id));
    expect(inForce.length).toBeLessThan(rules.length);
    expect(lines.find((l) => l.startsWith('notes.create.id-conflict-409 '))).toContain(' 2026-04-01 ');
    const json = JSON.parse((await cli(['rules', '--as-of', '2026-05-09', '--json'])).stdout) as Array<{
      since: string;
    }>;
    expect(json.every((r) => r.since <= '2026-05-09')).toBe(true);
  }, 30_000);
});

describe('--help', () => {
  it('lists every environment variable the kit reads, every flag it parses, and the rules command', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    // What the source reads: the flags' declarations and any variable the config reads directly.
    const source = ['kit/config.ts', 'kit/run-flags.ts'].map((f) => readFileSync(join(packageRoot, f), 'utf8')).join();
    const variables = [...new Set(source.match(/\bNOTES_[A-Z_]+[A-Z]\b/g))];
    expect(variables.length).toBeGreaterThan(15);
    for (const name of [...variables, 'NOTES_DEBUG', 'NO_COLOR']) expect(stdout, name).toContain(name);
    const flags = RUN_FLAGS.map((f) => f.name);
    expect(flags.length).toBeGreaterThan(20);
    for (const flag of flags) expect(stdout, flag).toContain(`--${flag}`);
    expect(stdout).toContain('notes-conformance rules [--area A] [--as-of DATE] [--json]');
  }, 30_000);
});
