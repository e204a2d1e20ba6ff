import { afterAll, describe, expect, it } from 'vitest';
import { runKit } from '../../kit/run.js';
import type { ConformanceReport, Verdict } from '../../reporters/report.js';
import { UsageError } from '../../suites/harness/errors.js';
import * as broken from './broken-servers.js';
import type { BrokenServer } from './broken-servers.js';

const TOKEN = 'secret-token-XYZ';
// Loose on purpose: a healthy run of these takes seconds; the bound only catches a kit that
// waits out every check's timeout (minutes), and must not trip on a slow CI machine.
const BOUND_MS = 90_000;

const servers: BrokenServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

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
}

/** One run of the whole kit against `url`, with what it printed (stdout and stderr) and how long it took. */
async function runAgainst(url: string): Promise<Outcome> {
  let printed = '';
  const stderrWrite = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    printed += String(chunk);
    return (stderrWrite as (...a: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
  }) as typeof process.stderr.write;
  const started = performance.now();
  try {
    const { report } = await runKit(
      ['--target', url, '--token', TOKEN, '--request-timeout', '1500', '--requests-per-second', '1000'],
      {},
      (text) => { printed += text; },
    );
    const counts: Partial<Record<Verdict, number>> = {};
    for (const [v, n] of Object.entries(report.summary)) if (n > 0) counts[v as Verdict] = n;
    return { ms: performance.now() - started, printed, report, counts };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { ms: performance.now() - started, printed: printed + error.message, usage: error, counts: {} };
  } finally {
    process.stderr.write = stderrWrite;
  }
}

/** What every broken target must get: a bounded run, no pass, no fail, a reason, no token anywhere. */
function expectCouldNotJudge(o: Outcome, reason: RegExp): void {
  console.log(`${Math.round(o.ms)} ms`, o.usage ? `UsageError: ${o.usage.message}` : JSON.stringify(o.counts), o.report?.rules.find((r) => r.verdict === 'error')?.reason ?? '');
  expect(o.ms).toBeLessThan(BOUND_MS);
  expect(o.printed).not.toContain(TOKEN);
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
  expect(report.rules.filter((r) => r.verdict === 'pass' || r.verdict === 'fail').map((r) => `${r.id}: ${r.verdict} ${r.reason}`)).toEqual([]);
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

  it('a web page where the API should be (HTML 200 to everything)', async () => {
    const s = await start(broken.html());
    expectCouldNotJudge(await runAgainst(s.url), /not JSON|does not answer like the API/);
  });

  it('500 to everything', async () => {
    const s = await start(broken.failing());
    expectCouldNotJudge(await runAgainst(s.url), /500/);
  });

  it('redirects to another origin, which never sees the token', async () => {
    const other = await start(broken.witness());
    const s = await start(broken.redirecting(other.url));
    expectCouldNotJudge(await runAgainst(s.url), /redirect|30[27]/);
    expect(s.hits, 'the kit did talk to the redirecting target').toBeGreaterThan(0);
    const leaked = other.received.filter((r) => r.headers.authorization !== undefined || JSON.stringify(r).includes(TOKEN));
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
});
