import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { assumedProfile } from '../../kit/assumed-profile.js';
import { runKit } from '../../kit/run.js';
import { SWEEP_BOUND_AFTER_INTERRUPT_MS } from '../../kit/start.js';
import type { ConformanceReport, Verdict } from '../../reporters/report.js';
import { packageRoot } from '../../spec/paths.js';
import { UsageError } from '../../suites/harness/errors.js';
import type { BrokenServer } from './broken-servers.js';
import * as broken from './broken-servers.js';

const TOKEN = 'secret-token-XYZ';
// Loose on purpose: a healthy run of these takes seconds; the bound only catches a kit that
// waits out every check's timeout (minutes), and must not trip on a slow CI machine.
const BOUND_MS = 90_000;

const servers: BrokenServer[] = [];
const profiles = mkdtempSync(join(tmpdir(), 'nc-broken-profiles-'));
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(profiles, { recursive: true, force: true });
});

/** A profile file: the one a run without a profile assumes, with `over` on top. */
function profileFile(over: Record<string, unknown>): string {
  const file = join(profiles, `profile-${readdirSync(profiles).length}.yaml`);
  writeFileSync(file, stringify({ ...assumedProfile(), ...over }));
  return file;
}

async function start<T extends BrokenServer>(server: Promise<T>): Promise<T> {
  const s = await server;
  servers.push(s);
  return s;
}

interface Outcome {
  ms: number;
  printed: string;
  report?: ConformanceReport;
  usage?: UsageError;
  counts: Partial<Record<Verdict, number>>;
  /** What the run left in its temporary directory (its run folder must be gone, whatever happened). */
  leftInTmp: string[];
}

/** One run of the whole kit against `url`, with what it printed (stdout and stderr) and how long it took. */
async function runAgainst(url: string, extra: string[] = []): Promise<Outcome> {
  // A temporary directory of this run's own (the kit and its workers read TMPDIR), so what it leaves shows.
  const tmp = mkdtempSync(join(tmpdir(), 'nc-broken-tmp-'));
  const tmpBefore = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  const leftInTmp: string[] = [];
  let printed = '';
  const stderrWrite = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    printed += String(chunk);
    return (stderrWrite as (...a: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
  }) as typeof process.stderr.write;
  const started = performance.now();
  try {
    const { report } = await runKit(
      ['--target', url, '--token', TOKEN, '--request-timeout', '1500', '--requests-per-second', '1000', ...extra],
      {},
      (text) => {
        printed += text;
      },
    );
    const counts: Partial<Record<Verdict, number>> = {};
    for (const [v, n] of Object.entries(report.summary)) if (n > 0) counts[v as Verdict] = n;
    return { ms: performance.now() - started, printed, report, counts, leftInTmp };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { ms: performance.now() - started, printed: printed + error.message, usage: error, counts: {}, leftInTmp };
  } finally {
    process.stderr.write = stderrWrite;
    if (tmpBefore === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpBefore;
    // The process-wide cache of the parsed spec (kit/vitest-run.ts) lives until the process exits; the run's own folder must not.
    leftInTmp.push(...readdirSync(tmp).filter((name) => !name.startsWith('notes-conformance-yaml-')));
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** What every broken target must get: a bounded run, no pass, no fail, a reason, no token anywhere. */
function expectCouldNotJudge(o: Outcome, reason: RegExp): void {
  console.log(
    `${Math.round(o.ms)} ms`,
    o.usage ? `UsageError: ${o.usage.message}` : JSON.stringify(o.counts),
    o.report?.rules.find((r) => r.verdict === 'error')?.reason ?? '',
  );
  expect(o.ms).toBeLessThan(BOUND_MS);
  expect(o.printed).not.toContain(TOKEN);
  expect(o.leftInTmp, 'the run folder is removed').toEqual([]);
  if (o.usage) {
    expect(o.usage.message).not.toContain('\n');
    expect(o.usage.message).toMatch(reason);
    return;
  }
  const report = o.report!;
  expect(JSON.stringify(report)).not.toContain(TOKEN);
  // The kit did not crash: no unhandled error in its run (vitest itself fails this file on one here).
  expect(report.run_errors).toEqual([]);
  expect(report.exit_code).toBe(1);
  expect(
    report.rules
      .filter((r) => r.verdict === 'pass' || r.verdict === 'fail')
      .map((r) => `${r.id}: ${r.verdict} ${r.reason}`),
  ).toEqual([]);
  const errors = report.rules.filter((r) => r.verdict === 'error');
  expect(errors.length).toBeGreaterThan(0);
  for (const rule of errors) expect(rule.reason, rule.id).toMatch(reason);
}

describe('the kit against broken targets', { timeout: BOUND_MS * 2 }, () => {
  it('a target that accepts the connection and never answers', async () => {
    const s = await start(broken.silent());
    expectCouldNotJudge(await runAgainst(s.url), /timeout|no complete answer/);
  });

  it('a target that hangs up on every connection', async () => {
    const s = await start(broken.hangsUp());
    expectCouldNotJudge(await runAgainst(s.url), /closed the connection|not valid HTTP|no answer/);
  });

  // Not the API at all: nothing could be judged, so the run does not start (exit 2, one line,
  // before any plan or progress), as `profile init` does.
  for (const [what, server, reason] of [
    [
      'a web page where the API should be (HTML 200 to everything)',
      broken.html,
      /answered 200 with a body that is not JSON/,
    ],
    ["a proxy's error page (502 HTML to everything)", broken.proxyPage, /answered 502 .*502 Bad Gateway/],
    ['a redirect to a login page on every path', broken.loginRedirect, /redirects: .*answered 302 to \/login/],
  ] as const) {
    it(`${what}: exit 2 and one line within 10 s`, async () => {
      const s = await start(server());
      const o = await runAgainst(s.url);
      expect(o.usage, o.printed).toBeDefined();
      expect(o.ms).toBeLessThan(10_000);
      expect(o.printed).toBe(o.usage!.message);
      expect(o.printed).not.toContain('\n');
      expect(o.printed).toMatch(/^the target (does not answer like the API|redirects)/);
      expect(o.printed).toMatch(reason);
      expect(o.printed).not.toContain(TOKEN);
    });
  }

  it('500 to everything', async () => {
    const s = await start(broken.failing());
    expectCouldNotJudge(await runAgainst(s.url), /500/);
  });

  it('redirects to another origin, which never sees the token', async () => {
    const other = await start(broken.witness());
    const s = await start(broken.redirecting(other.url));
    expectCouldNotJudge(await runAgainst(s.url), /redirect|30[27]/);
    expect(s.hits, 'the kit did talk to the redirecting target').toBeGreaterThan(0);
    const leaked = other.received.filter(
      (r) => r.headers.authorization !== undefined || JSON.stringify(r).includes(TOKEN),
    );
    expect(leaked).toEqual([]);
  });

  it('429 with Retry-After, forever', async () => {
    const s = await start(broken.rateLimiting());
    expectCouldNotJudge(await runAgainst(s.url), /429/);
  });

  it('answers slower than the request timeout (a JSON body trickling in)', async () => {
    const s = await start(broken.trickling());
    expectCouldNotJudge(await runAgainst(s.url), /timeout|no complete answer/);
  });

  it('answers the start-up probe, then never again (dies mid-run)', async () => {
    const s = await start(broken.diesAfterFirst());
    expectCouldNotJudge(await runAgainst(s.url), /timeout|no complete answer|stopped answering/);
  });

  // The claim of the README ("rate-limits forever ends the run within seconds") in both forms a
  // rate limit takes. A Retry-After just under the per-wait cap (budgets.max_rate_limit_wait_ms:
  // 60 s by default, 5 s here so that the proof takes seconds): the kit waits once, not once per retry.
  it('429 with a Retry-After just under the per-wait cap, forever: the kit waits once and ends naming the rate limit', async () => {
    const s = await start(broken.rateLimitingLong(4));
    const profile = profileFile({ budgets: { max_rate_limit_wait_ms: 5_000 } });
    const o = await runAgainst(s.url, ['--request-timeout', '5000', '--profile', profile]);
    expectCouldNotJudge(o, /rate limit/);
    expect(o.ms, 'it waited out the first Retry-After').toBeGreaterThan(4_000);
    expect(o.ms, 'and no other').toBeLessThan(8_000 + 10_000);
  });

  it('the same once the run has begun (the probe answered): one wait a run, not one for each process of it', async () => {
    const s = await start(broken.rateLimitingLong(4, true));
    const profile = profileFile({ budgets: { max_rate_limit_wait_ms: 5_000 } });
    const o = await runAgainst(s.url, ['--request-timeout', '5000', '--profile', profile]);
    expectCouldNotJudge(o, /rate limit/);
    // Waits show as gaps between the target's requests: the checks' worker waited once, and
    // nothing after it (a file's cleanup, the run command's sweep) began a stretch of its own.
    // The gap after the probe is a worker starting, not a wait (seconds on a loaded CI machine).
    const waits = s.times.slice(2).filter((t, i) => t - s.times[i + 1]! >= 3_500);
    expect(waits, `${s.hits} requests`).toHaveLength(1);
  });

  it('--max-duration bounds a rate-limit wait the per-wait cap allows: the kit does not wait past it', async () => {
    const s = await start(broken.rateLimitingLong());
    const o = await runAgainst(s.url, ['--max-duration', '20s']);
    expectCouldNotJudge(o, /rate limit.*would run past the run's --max-duration of 20 s/);
    expect(o.ms).toBeLessThan(20_000);
  });

  it('X-RateLimit-Remaining: 0 with a reset an hour away ends at once, without waiting, naming the rate limit', async () => {
    const s = await start(broken.emptyBucketForever());
    const o = await runAgainst(s.url);
    expectCouldNotJudge(o, /rate limit/);
    expect(o.ms).toBeLessThan(90_000);
  });

  it('a list of a million notes (a ~95 MB body) ends within 60 s, the kit reading 8 MiB of each', async () => {
    const s = await start(broken.millionItems());
    const o = await runAgainst(s.url);
    expectCouldNotJudge(o, /over 8388608 bytes/);
    expect(o.ms).toBeLessThan(60_000);
  });

  // Its memory (every process of the kit under 500 MiB, a million `{}` and a million `0`) is
  // measured by bench/hostile-targets.js: a resident set depends on the machine and its load.
  it('a list of a million empty objects (3 MB, within the byte cap) is answered like any other: bounded, judged, no crash', async () => {
    const s = await start(broken.millionEmptyObjects());
    const o = await runAgainst(s.url, ['--only', 'notes.list']);
    expect(s.hits).toBeGreaterThan(1);
    expect(o.ms).toBeLessThan(BOUND_MS);
    expect(o.report?.run_errors).toEqual([]);
    expect(
      o.report?.rules
        .filter((r) => r.verdict === 'pass')
        .map((r) => `${r.id}: ${JSON.stringify(r.checks.map((c) => c.name))}`),
    ).toEqual([]);
  });

  it('a target that reflects the token into every field, header and error message never gets it printed or reported', async () => {
    const secondary = 'second-secret-token-QRS';
    const s = await start(broken.reflecting());
    const dir = mkdtempSync(join(tmpdir(), 'reflect-'));
    try {
      const outputs = ['json', 'junit', 'markdown', 'html'].flatMap((kind) => [
        `--${kind}`,
        join(dir, `report.${kind}`),
      ]);
      // Search answers never show a write here: the default index lag (10 s a wait) would only add a minute.
      const profile = profileFile({ search_index_lag_ms: 0 });
      const o = await runAgainst(s.url, ['--secondary-token', secondary, '--profile', profile, ...outputs]);
      console.log(`${Math.round(o.ms)} ms`, JSON.stringify(o.counts));
      const report = o.report!;
      // The control: the reflected values did reach the checks' verdicts and the reports.
      expect(report.summary.fail + report.summary.error).toBeGreaterThan(0);
      expect(s.hits).toBeGreaterThan(20);
      const files = readdirSync(dir);
      expect(files.sort()).toEqual(['report.html', 'report.json', 'report.junit', 'report.markdown']);
      const texts: Record<string, string> = {
        printed: o.printed,
        ...Object.fromEntries(files.map((f) => [f, readFileSync(join(dir, f), 'utf8')])),
      };
      expect(texts['report.json']).toContain('***');
      for (const [where, text] of Object.entries(texts)) {
        for (const token of [TOKEN, secondary, encodeURIComponent(TOKEN)])
          expect(text.includes(token), `${token} in ${where}`).toBe(false);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a target that reflects the token JSON-escaped, percent-encoded, in base64, case-changed or split across lines never gets it printed or reported', async () => {
    const token = 'tok/Robust+01==';
    const marker = 'mrk/Public+02==';
    const s = await start(broken.reflectingEncoded(marker));
    const dir = mkdtempSync(join(tmpdir(), 'reflect-encoded-'));
    try {
      const kinds = ['json', 'junit', 'markdown', 'html', 'html-spec', 'har'];
      const outputs = kinds.flatMap((kind) => [`--${kind}`, join(dir, `report.${kind}`)]);
      let printed = '';
      await runKit(
        [
          '--target',
          s.url,
          '--token',
          token,
          '--requests-per-second',
          '1000',
          ...['--only', 'notes.create'],
          ...outputs,
        ],
        {},
        (text) => {
          printed += text;
        },
      );
      const texts: Record<string, string> = {
        printed,
        ...Object.fromEntries(kinds.map((k) => [k, readFileSync(join(dir, `report.${k}`), 'utf8')])),
      };
      // What a reader could find the token by: its characters in any case with what is not seen
      // between them taken out (line breaks, zero-width and format characters), and the middle of
      // its base64 at each of the three offsets it may start at.
      const flat = (text: string) => broken.withoutInvisible(text).toLowerCase();
      const base64Middles = [0, 1, 2].flatMap((shift) => {
        const b = Buffer.concat([Buffer.alloc(shift), Buffer.from(token)]).toString('base64');
        const middle = b.slice(4, -4);
        return [middle, middle.replace(/\+/g, '-').replace(/\//g, '_')];
      });
      for (const [where, text] of Object.entries(texts)) {
        for (const [form, encode] of Object.entries(broken.REFLECTIONS))
          expect(
            flat(text).includes(flat(encode(token))),
            `${form} in ${where}: ${near(flat(text), flat(encode(token)))}`,
          ).toBe(false);
        for (const middle of base64Middles) expect(text.includes(middle), `base64 ${middle} in ${where}`).toBe(false);
      }
      // The control: every form of the public marker did reach some output, so the token's would have.
      const all = Object.values(texts).join('\n');
      for (const [form, encode] of Object.entries(broken.REFLECTIONS))
        expect(flat(all).includes(flat(encode(marker))), `the marker ${form} reaches an output`).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The built CLI, signalled alone (as `kill PID` or a supervisor does: its workers get no signal
  // from outside), while a request waits on a body that never ends within the 60 s request timeout.
  it('SIGTERM to the CLI process during the start-up probe ends it with 143 within 5 s', async () => {
    const s = await start(broken.trickling(500));
    await sigtermCli(s, 1);
  });

  // In a worker the chain is vitest's cancel (which stops the worker) and the worker's own abort of
  // what is in flight (kit/core/signals.ts); this guards it end to end.
  it('SIGTERM to the CLI process while a check waits ends it with 143 within 5 s plus the sweep bound', async () => {
    const s = await start(broken.tricklesAfterFirst());
    await sigtermCli(s, 2);
  });
});

/** Runs the built CLI against `s`, SIGTERMs it once `s` has seen `hits` requests, and asserts the exit. */
async function sigtermCli(s: BrokenServer, hits: number): Promise<void> {
  const args = ['--target', s.url, '--token', TOKEN, '--request-timeout', '60000', '--requests-per-second', '1000'];
  const run = spawn(process.execPath, [join(packageRoot, 'bin/notes-conformance.js'), ...args], {
    cwd: packageRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  run.stdout!.on('data', (chunk) => {
    output += String(chunk);
  });
  run.stderr!.on('data', (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => run.once('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 60_000;
    while (s.hits < hits && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(s.hits, output).toBeGreaterThanOrEqual(hits);
    // The request is under way (its body trickling) when the signal comes.
    await new Promise((r) => setTimeout(r, 700));
    const signalled = performance.now();
    process.kill(run.pid!, 'SIGTERM');
    const bound = 5_000 + SWEEP_BOUND_AFTER_INTERRUPT_MS;
    const code = await Promise.race([exited, new Promise<'late'>((r) => setTimeout(() => r('late'), bound + 10_000))]);
    const ms = performance.now() - signalled;
    console.log(`exited ${code} ${Math.round(ms)} ms after SIGTERM`);
    expect(code, output).toBe(143);
    expect(ms, output).toBeLessThan(bound);
    expect(output).toMatch(
      /^interrupted by SIGTERM (after \d+ of \d+ rules|before the checks started); \d+ resources? deleted, 0 left( \(\d+ unknown: [^)]*\))?; exit 143$/m,
    );
    expect(output).not.toMatch(/RUN ERROR|unhandled|vitest-pool/);
    expect(output).not.toContain(TOKEN);
  } finally {
    if (run.exitCode === null) process.kill(-run.pid!, 'SIGKILL');
  }
}

/** The text around `part`, for a failure's message. */
function near(text: string, part: string): string {
  const i = text.indexOf(part);
  return i < 0 ? '' : text.slice(Math.max(0, i - 200), i + part.length + 100);
}
