import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The first SIGINT or SIGTERM stops `notes-conformance fake --state` (the built CLI) within 1 s,
 * every time, while clients are writing, reading, and one of them never reads its answers; every
 * create it acknowledged is in the state file afterwards.
 */
const bin = fileURLToPath(new URL('../../bin/notes-conformance.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fake-shutdown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'shutdown-token-1';
const RUNS = 50;
const AT_ONCE = 2;
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

interface Outcome {
  run: number;
  signal: NodeJS.Signals;
  ms: number;
  code: number | null;
  acknowledged: Set<string>;
  state: string;
  err: string;
}

async function oneRun(run: number): Promise<Outcome> {
  const state = join(dir, `state-${run}.json`);
  const child = spawn(process.execPath, [bin, 'fake', '--port', '0', '--token', TOKEN, '--state', state], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
      if (m || child.exitCode !== null) clearInterval(timer);
      if (!m && child.exitCode !== null) reject(new Error(`exited before listening: ${err}`));
    }, 10);
  });
  const acknowledged = new Set<string>();
  let stopping = false;
  const writer = async () => {
    while (!stopping) {
      const res = await fetch(`${url}/v2/notes`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ content: `run ${run} note ${acknowledged.size}\nsome words to index` }),
      }).catch(() => undefined);
      if (!res) return;
      const body = (await res.json().catch(() => undefined)) as { id?: string } | undefined;
      if (res.status === 200 && body?.id) acknowledged.add(body.id);
    }
  };
  const reader = async () => {
    while (!stopping) {
      const res = await fetch(`${url}/v2/notes?limit=50&include_note_content=true`, { headers }).catch(() => undefined);
      if (!res) return;
      await res.arrayBuffer().catch(() => undefined);
    }
  };
  // A client that asks and never reads (its socket stays open, its answer unread).
  const stalled = fetch(`${url}/v2/notes?limit=100&include_note_content=true`, { headers }).catch(() => undefined);
  const load = [writer(), writer(), writer(), reader()];
  await new Promise((r) => setTimeout(r, 150 + ((run * 37) % 300)));
  const signal: NodeJS.Signals = run % 2 === 0 ? 'SIGINT' : 'SIGTERM';
  const sent = performance.now();
  child.kill(signal);
  const code = await Promise.race([exited, new Promise<'late'>((r) => setTimeout(() => r('late'), 5_000))]);
  const ms = performance.now() - sent;
  stopping = true;
  if (code === 'late') child.kill('SIGKILL');
  await Promise.allSettled([...load, stalled]);
  return { run, signal, ms, code: code === 'late' ? null : code, acknowledged, state, err };
}

describe('fake: the first SIGINT or SIGTERM stops it, under load', () => {
  it(`stops within 1 s in ${RUNS} of ${RUNS} runs, every acknowledged create in the state file`, async () => {
    const outcomes: Outcome[] = [];
    for (let start = 0; start < RUNS; start += AT_ONCE)
      outcomes.push(...(await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => oneRun(start + i)))));
    const late = outcomes.filter((o) => o.code !== 0 || o.ms > 1_000);
    expect(late.map((o) => `run ${o.run} ${o.signal}: exit ${o.code} after ${Math.round(o.ms)} ms ${o.err}`)).toEqual(
      [],
    );
    for (const o of outcomes) {
      const saved = JSON.stringify(JSON.parse(readFileSync(o.state, 'utf8')));
      expect(o.acknowledged.size, `run ${o.run} wrote something`).toBeGreaterThan(0);
      const lost = [...o.acknowledged].filter((id) => !saved.includes(id));
      expect(lost, `run ${o.run}: acknowledged creates missing from the state file`).toEqual([]);
    }
  }, 300_000);
});
