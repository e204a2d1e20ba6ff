import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/** `notes-conformance fake --state` as its own process (the built CLI): kill -9, SIGHUP, a second fake. */
const bin = fileURLToPath(new URL('../../bin/notes-conformance.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fake-state-process-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});
const TOKEN = 'process-token-1';

function startFake(state: string) {
  const child = spawn(process.execPath, [bin, 'fake', '--port', '0', '--token', TOKEN, '--state', state], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (\S+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(m[1]!);
      }
    }, 20);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`exited before listening: ${err}`));
    });
  });
  // A fake refused at start never listens: that is awaited through `exited` instead.
  url.catch(() => {});
  return { child, url, exited, output: () => ({ out, err }) };
}

const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
async function createNotes(url: string, count: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}/v2/notes`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content: `${label} ${i}` }),
    });
    expect(res.status).toBe(200);
    ids.push(((await res.json()) as { id: string }).id);
  }
  return ids;
}
async function noteIds(url: string): Promise<string[]> {
  const res = await fetch(`${url}/v2/notes?limit=100`, { headers });
  return ((await res.json()) as { results: Array<{ id: string }> }).results.map((n) => n.id).sort();
}

describe('fake --state as a process', () => {
  it('keeps every answered write through kill -9, and takes over the stale lock on restart', async () => {
    const state = join(dir, 'killed.json');
    const first = startFake(state);
    const url = await first.url;
    const ids = await createNotes(url, 30, 'acknowledged');
    // Killed at once after the last answer: no signal handler, no final save.
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(existsSync(`${state}.lock`)).toBe(true);
    const second = startFake(state);
    expect(await noteIds(await second.url)).toEqual([...ids].sort());
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
    expect(readdirSync(dir).filter((f) => f.startsWith('killed'))).toEqual(['killed.json']);
    expect((statSync(state).mode & 0o777).toString(8)).toBe('600');
  });

  it('saves on SIGHUP (a closed terminal) and exits 0', async () => {
    const state = join(dir, 'hup.json');
    const fake = startFake(state);
    const ids = await createNotes(await fake.url, 5, 'hangup');
    fake.child.kill('SIGHUP');
    expect((await fake.exited).code).toBe(0);
    expect(existsSync(`${state}.journal`)).toBe(false);
    const saved = JSON.parse(readFileSync(state, 'utf8')) as { notes: Array<{ id: string }> };
    expect(saved.notes.map((n) => n.id).sort()).toEqual([...ids].sort());
  });

  it('refuses a second fake on a state file in use with one line and exit 2', async () => {
    const state = join(dir, 'shared.json');
    const first = startFake(state);
    await first.url;
    const second = startFake(state);
    const { code } = await second.exited;
    expect(code).toBe(2);
    const err = second.output().err;
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(/shared\.json: in use by another fake \(process \d+\); stop it or pick another --state file/);
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
  });
});
