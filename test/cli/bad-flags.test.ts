import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../spec/paths.js';

/**
 * The built CLI as a user meets it (npm run build first): every subcommand, fed bad flags and
 * values, answers with one line on stderr, exit 2, nothing on stdout and never a stack trace;
 * every subcommand has --help and --version.
 */
const scratch = mkdtempSync(join(tmpdir(), 'nc-bad-flags-'));
const aFile = join(scratch, 'a-file');
const aDir = join(scratch, 'a-dir');
writeFileSync(aFile, 'not a directory');
mkdirSync(aDir);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    // No NOTES_* from the machine running the tests; a Docker that is not there.
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NOTES_')));
    const child = spawn(process.execPath, [join(packageRoot, 'bin/notes-conformance.js'), ...args], {
      cwd: scratch,
      env: { ...base, DOCKER_HOST: 'tcp://127.0.0.1:9', ...env },
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

const UNREACHABLE = 'http://127.0.0.1:9';
const BAD: ReadonlyArray<readonly string[]> = [
  // the kit itself
  ['--nope'],
  ['--seed', '-3'],
  ['--seed', 'abc'],
  ['--seed=99999999999'],
  ['--target', 'not a url', '--token', 'abcdefgh'],
  ['--target', 'ftp://example.org', '--token', 'abcdefgh'],
  ['--target', 'http://u:p@example.org', '--token', 'abcdefgh'],
  ['--target', UNREACHABLE],
  ['--only', 'Bad!'],
  ['--only', 'no.such.rule'],
  ['--request-budget', '0'],
  ['--requests-per-second', 'fast'],
  ['--image-port', '99999', '--image', 'x'],
  ['--json', `${aDir}/`],
  ['--json', aDir],
  ['--junit', `${aFile}/j.xml`],
  ['--html', `${aFile}/deep/r.html`],
  ['--markdown', `${aDir}/`],
  ['--html-spec', `${aFile}/spec.html`],
  ['--json', join(scratch, 'same'), '--junit', join(scratch, 'same')],
  ['--profile', join(scratch, 'missing.yaml')],
  ['--target', UNREACHABLE, '--token', 'abcdefgh'],
  ['--image', 'notes-conformance-no-such-image:1', '--token', 'abcdefgh'],
  ['--target', 'http://example.org', '--image', 'x', '--token', 'abcdefgh'],
  // fake
  ['fake', '--token', 'short'],
  ['fake', '--token', 'has a space'],
  ['fake', '--admin-token', 'x'],
  ['fake', '--host', '999.1.1.1'],
  ['fake', '--host', 'bad host!'],
  ['fake', '--port', '99999'],
  ['fake', '--port', 'x'],
  ['fake', '--seed', 'x'],
  ['fake', '--seed', '-1'],
  ['fake', '--quota', '-1'],
  ['fake', '--rate-limit', 'x'],
  ['fake', '--generate', 'many'],
  ['fake', '--fault', 'no.such.fault'],
  ['fake', '--profile', join(scratch, 'missing.yaml')],
  ['fake', '--data', join(scratch, 'missing.json')],
  ['fake', '--state', `${aFile}/state.json`],
  ['fake', '--bogus'],
  // diff
  ['diff', '--bogus'],
  ['diff', '--seed', 'abc'],
  ['diff', '--seed', '1', '--path', 'garbage'],
  ['diff', '--path', '1:2'],
  ['diff', '--runs', '0'],
  ['diff', '--max-ops', 'x'],
  ['diff', '--target', 'notaurl', '--token', 'abcdefgh'],
  ['diff', '--target', UNREACHABLE],
  ['diff', '--target', UNREACHABLE, '--token', 'abcdefgh', '--runs', '1'],
  ['diff', '--fake-fault', 'no.such.fault'],
  ['diff', '--profile', join(scratch, 'missing.yaml')],
  // matrix
  ['matrix', '--bogus'],
  ['matrix', '--fault', 'no.such.fault'],
  ['matrix', '--shard', '3/2'],
  ['matrix', '--shard', 'x'],
  ['matrix', '--json', `${aDir}/`],
  // profile
  ['profile'],
  ['profile', 'bogus'],
  ['profile', 'init', '--bogus'],
  ['profile', 'init'],
  ['profile', 'init', '--target', 'notaurl', '--token', 'abcdefgh', '--out', 'p.yaml'],
  ['profile', 'init', '--target', UNREACHABLE, '--token', 'abcdefgh', '--out', `${aDir}/`],
  ['profile', 'init', '--target', UNREACHABLE, '--token', 'abcdefgh', '--out', join(scratch, 'p.yaml')],
  // a mistyped command, rules
  ['fak'],
  ['--targt', UNREACHABLE],
  ['rules', '--bogus'],
  ['rules', '--area', 'nots'],
];

describe('the CLI with bad flags and values', () => {
  it('answers each with one line on stderr and exit 2, never a stack trace', async () => {
    const problems: string[] = [];
    for (const args of BAD) {
      const { code, stdout, stderr } = await cli(args);
      const lines = stderr.trimEnd().split('\n');
      const what = `notes-conformance ${args.join(' ')} -> exit ${code}, stderr:\n${stderr}stdout:\n${stdout.slice(0, 500)}`;
      if (
        code !== 2 ||
        lines.length !== 1 ||
        !/^notes-conformance/.test(lines[0]!) ||
        /^\s+at /m.test(stderr) ||
        stdout !== ''
      )
        problems.push(what);
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it('gives every subcommand --help on stdout and --version', async () => {
    for (const command of [[], ['fake'], ['diff'], ['matrix'], ['profile'], ['profile', 'init'], ['rules']]) {
      const help = await cli([...command, '--help']);
      expect({ command, code: help.code, stderr: help.stderr }).toEqual({ command, code: 0, stderr: '' });
      expect(help.stdout).toMatch(/^Usage: notes-conformance/);
      const version = await cli([...command, '--version']);
      expect({ command, code: version.code, stdout: version.stdout }).toEqual({
        command,
        code: 0,
        stdout: `${(await import('../../spec/version.js')).kitVersion()}\n`,
      });
    }
  }, 120_000);
});
