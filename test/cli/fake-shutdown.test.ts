import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The first SIGINT or SIGTERM stops `notes-conformance fake --state` (the built CLI) within 1 s,
 * every time, while clients are writing and reading on keep-alive connections, and three raw
 * sockets hold what a plain server.close() waits for: a body that stops halfway (30 s body
 * deadline), an answer bigger than the kernel's buffers that is never read (10 s stall), and an
 * idle keep-alive connection. Every create it acknowledged is in the state file afterwards.
 */
const bin = fileURLToPath(new URL('../../bin/notes-conformance.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fake-shutdown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'shutdown-token-1';
const RUNS = 50;
const AT_ONCE = 2;
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

const AUTH = `Authorization: Bearer ${TOKEN}\r\n`;
const BIG_NOTE = JSON.stringify({ content: `big\n${'x'.repeat(199_990)}` });

/** A socket that sends `text` and then nothing; it reads its answers only when `reads`. */
function raw(port: number, text: string, reads = false): Socket {
  const socket = connect(port, '127.0.0.1', () => socket.write(text));
  if (!reads) socket.pause();
  socket.on('error', () => {});
  return socket;
}

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
  // About 4 MB of notes: the list below is more than loopback's buffers take unread.
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${url}/v2/notes`, { method: 'POST', headers, body: BIG_NOTE });
    const body = (await res.json()) as { id?: string };
    if (body.id) acknowledged.add(body.id);
  }
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
  const port = Number(new URL(url).port);
  const held = [
    raw(
      port,
      `POST /v2/notes HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"co`,
    ),
    raw(port, `GET /v2/notes?limit=100&include_note_content=true HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`),
    raw(port, `GET /v2/notes?limit=1 HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`, true),
  ];
  const load = [writer(), writer(), writer(), reader()];
  await new Promise((r) => setTimeout(r, 150 + ((run * 37) % 300)));
  const signal: NodeJS.Signals = run % 2 === 0 ? 'SIGINT' : 'SIGTERM';
  const sent = performance.now();
  child.kill(signal);
  const code = await Promise.race([exited, new Promise<'late'>((r) => setTimeout(() => r('late'), 5_000))]);
  const ms = performance.now() - sent;
  stopping = true;
  if (code === 'late') child.kill('SIGKILL');
  for (const socket of held) socket.destroy();
  await Promise.allSettled(load);
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
