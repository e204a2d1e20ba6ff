import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../spec/paths.js';
import { loadRules } from '../../spec/rules.js';
import { readReportFile } from '../report-file.js';

/** A run of the built CLI (npm run build first): progress, the terminal summary and every report file. */
const scratch = mkdtempSync(join(tmpdir(), 'nc-run-output-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function cli(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('NOTES_') && k !== 'NO_COLOR'),
    );
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
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a run of the CLI', () => {
  it('shows N/M progress, a plain summary without colours off a terminal, and writes every report', async () => {
    const out = (name: string) => join(scratch, 'reports', name);
    const started = Date.now();
    const { code, stdout, stderr } = await cli([
      '--only',
      'auth.bearer',
      '--fake-fault',
      'auth.bearer.any-token-accepted',
      '--json',
      out('r.json'),
      '--junit',
      out('j.xml'),
      '--markdown',
      out('r.md'),
      '--html',
      out('r.html'),
      '--html-spec',
      out('spec.html'),
    ]);
    const wallSeconds = (Date.now() - started) / 1000;
    expect(code, stderr).toBe(1);
    // JUnit times are wall times: the run's within the process's, no test case longer than the run.
    const junit = readFileSync(out('j.xml'), 'utf8');
    const runSeconds = Number(/<testsuites [^>]*time="([\d.]+)"/.exec(junit)![1]);
    expect(runSeconds).toBeGreaterThan(0);
    expect(runSeconds).toBeLessThanOrEqual(wallSeconds);
    for (const [, seconds] of junit.matchAll(/<test(?:suite|case) [^>]*time="([\d.]+)"/g))
      expect(Number(seconds)).toBeLessThanOrEqual(runSeconds);
    // Not a terminal: a progress line at the end (and every 25 checks), with the total.
    // In rules, as the reports count: auth.bearer has 2 rules in the catalogue.
    const progress = /^ {2}(\d+)\/(\d+) rules?, \d+:\d\d elapsed$/m.exec(stderr);
    expect(progress, stderr).not.toBeNull();
    expect(progress![1]).toBe(progress![2]);
    expect(Number(progress![2])).toBe(loadRules().filter((r) => r.id.startsWith('auth.bearer.')).length);
    expect(stdout).not.toContain('\u001b[');
    expect(stdout).toMatch(/FAIL {2}auth\.bearer\.invalid-refused/);
    expect(stdout).toMatch(/^seed \d+ \(replay property runs with --seed \d+\)$/m);
    for (const name of ['r.json', 'j.xml', 'r.md', 'r.html', 'spec.html'])
      expect(existsSync(out(name)), name).toBe(true);
    const report = readReportFile(out('r.json'));
    const failing = report.rules
      .find((r) => r.id === 'auth.bearer.invalid-refused')!
      .checks.find((c) => c.verdict === 'fail')!;
    // The repro names the address the embedded fake listened on, not its label, and the invalid token as sent.
    expect(failing.repro).toMatch(/'http:\/\/127\.0\.0\.1:\d+\/v2\/notes'/);
    expect(failing.repro).toMatch(/'Authorization: Bearer not-a-real-token-/);
    expect(readFileSync(out('r.md'), 'utf8')).toContain(failing.repro!.split('\n')[0]);
    expect(readFileSync(out('spec.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    expect(readFileSync(out('spec.html'), 'utf8')).toContain('auth.bearer.invalid-refused');
  }, 120_000);

  it('with --quiet prints no progress, but the failing rule ids and the seed', async () => {
    const { code, stdout, stderr } = await cli([
      '--quiet',
      '--only',
      'auth.bearer',
      '--fake-fault',
      'auth.bearer.any-token-accepted',
    ]);
    expect(code, stderr).toBe(1);
    expect(stderr).not.toMatch(/rules?, \d+:\d\d elapsed/);
    expect(stdout).toMatch(/^failing \(1\): auth\.bearer\.invalid-refused$/m);
    expect(stdout).toMatch(/^seed \d+/m);
  }, 120_000);
  // A path that turns into something else after the up-front check (here a named pipe nobody
  // reads, made while the checks run): writing it must neither block the process, where no
  // signal reaches it, nor lose the report. Before the reports were written by rename, this run
  // hung for ever in a synchronous open of the pipe.
  it('writes its reports even where a named pipe appeared at the path during the run', async () => {
    const report = join(scratch, 'piped', 'r.json');
    mkdirSync(dirname(report), { recursive: true });
    const child = spawn(
      process.execPath,
      [join(packageRoot, 'bin/notes-conformance.js'), '--only', 'auth.bearer', '--json', report],
      { cwd: scratch, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    let piped = false;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      // The tier line comes after the up-front check of the report paths, before the first check.
      if (!piped && stderr.includes('tier')) {
        piped = true;
        execFileSync('mkfifo', [report]);
      }
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(piped, stderr).toBe(true);
    expect(code, stderr).toBe(0);
    expect(lstatSync(report).isFile()).toBe(true);
    expect(readReportFile(report).exit_code).toBe(0);
    expect(readdirSync(dirname(report))).toEqual(['r.json']);
  }, 120_000);

  // A signal once every check has ended used to wait 60 s: it ended the idle workers, which then
  // never answered vitest's "stop". The wind-down is bounded at 2 s after the signal (kit/interrupt.ts);
  // the 15 s below only leaves a slow machine room, and is far from the 60 s of that fault.
  for (const group of [false, true]) {
    it(`honours SIGTERM sent ${group ? 'to its process group' : 'to the run alone'} after the checks ended`, async () => {
      const dir = mkdtempSync(join(scratch, 'term-'));
      const reports = ['json', 'junit', 'html', 'markdown', 'har'].flatMap((kind) => [`--${kind}`, join(dir, kind)]);
      const child = spawn(
        process.execPath,
        [join(packageRoot, 'bin/notes-conformance.js'), '--only', 'auth.bearer', ...reports],
        { cwd: scratch, detached: group, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      let signalledAt: number | undefined;
      let signalledWall = 0;
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (signalledAt === undefined && /2\/2 rules/.test(stderr)) {
          signalledAt = performance.now();
          signalledWall = Date.now();
          process.kill(group ? -child.pid! : child.pid!, 'SIGTERM');
        }
      });
      const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
      const ms = Math.round(performance.now() - signalledAt!);
      console.log(`SIGTERM ${group ? 'to the group' : 'to the run'} after the checks: exit ${code} in ${ms} ms`);
      expect(signalledAt, stderr).toBeDefined();
      // A signal that reaches the run while it writes its reports ends it 143 (the turns of the
      // loop after dispose(), proven deterministically in late-signal.test.ts). Only a run that
      // exited before the signal reached it completes 0, its summary whole. Anything else must be
      // the signal's 143; a crash (exit 1, as vitest's EPIPE on a dead worker once did) or a hang
      // fails here.
      const completedFirst = code === 0 && /^notes-conformance: PASS: 2 rules/m.test(stdout);
      if (completedFirst)
        console.log(
          `completed first (last report ${statSync(join(dir, 'har')).mtimeMs - signalledWall} ms after the signal)`,
        );
      else expect(code, `${stdout}\n${stderr}`).toBe(143);
      // A signal dispatched once the summary is out still ends the run 143 (dispose()'s listener).
      const completed = /^notes-conformance: PASS: 2 rules/m.test(stdout);
      if (!completed)
        expect(stdout.trim(), stderr).toMatch(
          /^interrupted by SIGTERM after 2 of 2 rules; \d+ resources? deleted, 0 left; exit 143$/,
        );
      expect(ms, stderr).toBeLessThan(15_000);
    }, 120_000);
  }
});
