import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../fake/index.js';
import type { Store } from '../../fake/store/store.js';
import { runKit } from '../../kit/run.js';
import { packageRoot } from '../../spec/paths.js';
import { readReportFile } from '../report-file.js';
import { type LooseOptions, looseServer } from './loose-server.js';

/**
 * A run leaves nothing behind on the target (DESIGN "The suites": cleanup): not after a clean
 * run, not when checks fail, not when interrupted. The fake plays a shared account: data that was
 * there before the run must survive it, and everything the run made must be gone.
 */

const PRIMARY = 'tok_leftovers_primary_0001';
const SECONDARY = 'tok_leftovers_secondary_0002';
const ADMIN = 'adm_leftovers_0003';
// Areas that create many notes, collections, links and fixture users; the full run takes ~50 s.
const ONLY = ['--only', 'notes', '--only', 'collections', '--only', 'membership'];

/** Everything a client can leave on the fake, as comparable strings. */
function stateOf(store: Store): string[] {
  const out: string[] = [];
  for (const u of store.users.values()) out.push(`user ${u.id}`);
  for (const n of store.notes.values()) {
    out.push(`note ${n.id}`);
    for (const c of n.collectionIds) out.push(`link ${n.id} ${c}`);
  }
  for (const c of store.collections.values()) out.push(`collection ${c.id}`);
  for (const [resource, levels] of store.grants)
    for (const [user, level] of levels) out.push(`grant ${resource} ${user} ${level}`);
  return out.sort();
}

let fake: Fake | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child?.exitCode === null && child.signalCode === null && child.pid) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error; // the group is gone already
    }
  }
  child = undefined;
  await fake?.close();
  fake = undefined;
});

/** A standalone fake holding someone's data from before the run: a note in a collection. */
async function startFake(
  faults: string[] = [],
  profile = 'fake',
): Promise<{ fake: Fake; before: string[]; args: string[] }> {
  fake = await createFake({ users: [PRIMARY, SECONDARY], adminToken: ADMIN, faults, profile });
  const call = (method: string, url: string, body: unknown) => {
    const res = fake!.handle({
      method,
      url,
      headers: { authorization: `Bearer ${PRIMARY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, url).toBe(200);
    return res.json as { id: string };
  };
  const collection = call('POST', '/v2/collections', { title: "kept: not the run's" });
  call('POST', '/v2/notes', { content: "kept: not the run's", collection_ids: [collection.id] });
  const args = [
    '--target',
    fake.url!,
    '--token',
    PRIMARY,
    '--secondary-token',
    SECONDARY,
    '--fixtures-token',
    ADMIN,
    '--profile',
    join(packageRoot, `spec/profiles/${profile}.yaml`),
    '--requests-per-second',
    '1000',
    ...ONLY,
  ];
  return { fake, before: stateOf(fake.store), args };
}

/**
 * Runs `work` while sampling the store, and counts what appeared meanwhile by kind: proof that
 * the run did create data (an empty store after a run that made nothing proves nothing).
 */
async function watched<T>(
  label: string,
  store: Store,
  work: () => Promise<T>,
): Promise<{ result: T; made: Record<string, number> }> {
  const seen = new Set(stateOf(store));
  const made: Record<string, number> = {};
  const sample = () => {
    for (const entry of stateOf(store)) {
      if (seen.has(entry)) continue;
      seen.add(entry);
      const kind = entry.split(' ')[0]!;
      made[kind] = (made[kind] ?? 0) + 1;
    }
  };
  const timer = setInterval(sample, 25);
  const started = performance.now();
  try {
    return { result: await work(), made };
  } finally {
    clearInterval(timer);
    console.log(`${label}: ${Math.round(performance.now() - started)} ms, made ${JSON.stringify(made)}`);
  }
}

describe('a run leaves nothing behind', { timeout: 180_000 }, () => {
  it('after a normal run', async () => {
    const { fake, before, args } = await startFake();
    const {
      result: { report },
      made,
    } = await watched('normal run', fake.store, () => runKit([...args, '--quiet'], {}, () => {}));
    expect(made).toMatchObject({
      note: expect.any(Number),
      collection: expect.any(Number),
      link: expect.any(Number),
      user: expect.any(Number),
    });
    // Errors are not asserted: a loaded machine may time a request out, which is not this test's subject.
    expect(report.summary.fail, JSON.stringify(report.summary)).toBe(0);
    expect(report.summary.pass).toBeGreaterThan(100);
    expect(report.leftovers).toBe(0);
    expect(stateOf(fake.store)).toEqual(before);
  });

  it('on a server that answers 404 to other users (a 404 to a stranger\'s delete is not "gone")', async () => {
    const { fake, before, args } = await startFake([], 'fake-divergent');
    const {
      result: { report },
    } = await watched('divergent run', fake.store, () => runKit([...args, '--only', 'auth', '--quiet'], {}, () => {}));
    const failed = report.rules.filter((r) => r.verdict === 'fail').map((r) => `${r.id}: ${r.reason}`);
    expect(failed, JSON.stringify(report.summary)).toEqual([]);
    expect(report.leftovers).toBe(0);
    expect(stateOf(fake.store)).toEqual(before);
  });

  it('after a run in which checks fail', async () => {
    const { fake, before, args } = await startFake(['notes.update.content-appended', 'membership.add.replaces-links']);
    const {
      result: { report },
      made,
    } = await watched('failing run', fake.store, () => runKit([...args, '--quiet'], {}, () => {}));
    expect(made.note).toBeGreaterThan(0);
    const failed = report.rules.filter((r) => r.verdict === 'fail').map((r) => r.id);
    expect(failed).toEqual(
      expect.arrayContaining(['notes.update.content-replaced', 'membership.note.several-collections']),
    );
    expect(report.exit_code).toBe(1);
    expect(report.leftovers).toBe(0);
    expect(stateOf(fake.store)).toEqual(before);
  });

  it('when create answers are unreadable, what is left is counted exactly: a listing settles them', async () => {
    // The fake makes every note, but a proxy in front replaces each create's answer with a body
    // the kit cannot read: the kit cannot know it made them from the answers alone.
    fake = await createFake({ users: [PRIMARY, SECONDARY], adminToken: ADMIN });
    const before = stateOf(fake.store);
    const front = await garblingCreates(fake);
    try {
      const { report } = await runKit(
        [
          ...['--target', front.url, '--token', PRIMARY, '--secondary-token', SECONDARY, '--fixtures-token', ADMIN],
          ...['--profile', join(packageRoot, 'spec/profiles/fake.yaml'), '--requests-per-second', '1000'],
          ...['--only', 'notes.create', '--quiet'],
        ],
        {},
        () => {},
      );
      const left = stateOf(fake.store).filter((e) => !before.includes(e) && e.startsWith('note '));
      expect(front.garbled(), 'creates were answered unreadably').toBeGreaterThan(5);
      const unknown = report.leftovers_unconfirmed ?? [];
      console.log(`${left.length} notes left, ${report.leftovers} counted, ${unknown.length} unknown`);
      // The sweep found each in a listing of the account (by what its create sent) and deleted it.
      expect(unknown).toEqual([]);
      expect(left).toEqual([]);
      expect(report.leftovers).toBe(0);
    } finally {
      await new Promise<void>((resolve) => front.server.close(() => resolve()));
    }
  });

  it('after a run interrupted with Ctrl-C, even when pressed twice', async () => {
    const { code, output } = await interruptedRun('SIGINT');
    expect(code, output).toBe(130);
  });

  it('after `timeout` stops the run (SIGTERM to its process group)', async () => {
    const { code, output } = await interruptedRun('SIGTERM');
    expect(code, output).toBe(143);
  });
});

/**
 * Runs the built CLI (npm test builds first) in its own process group and, once it has made some notes, signals the whole
 * group twice (as Ctrl-C does, and `timeout`): the run and its workers alike.
 */
async function interruptedRun(signal: 'SIGINT' | 'SIGTERM'): Promise<{ code: number | null; output: string }> {
  const { fake, before, args } = await startFake();
  const reports = mkdtempSync(join(tmpdir(), 'nc-interrupted-'));
  const run = spawn(
    process.execPath,
    [
      join(packageRoot, 'bin/notes-conformance.js'),
      ...args,
      ...['--json', join(reports, 'r.json'), '--junit', join(reports, 'j.xml'), '--markdown', join(reports, 'r.md')],
    ],
    {
      cwd: packageRoot,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child = run;
  let output = '';
  run.stdout!.on('data', (chunk) => {
    output += String(chunk);
  });
  run.stderr!.on('data', (chunk) => {
    output += String(chunk);
  });
  // The status a shell reports: the exit code, or 128 + the signal when the process ended by one. A
  // second signal can land while the run is already exiting with 130/143 (its report written), when
  // Node no longer runs handlers: the process then ends by that signal, which a shell reports alike.
  const exited = new Promise<number | null>((resolve) =>
    run.once('exit', (code, by) => resolve(code ?? (by ? 128 + constants.signals[by] : null))),
  );
  let beforeSignal = '';
  const { result: code, made } = await watched(`run stopped by ${signal}`, fake.store, async () => {
    await until(() => fake.store.notes.size >= 50, 60_000, 'the run to create notes');
    beforeSignal = output;
    process.kill(-run.pid!, signal);
    await delay(300);
    // The second signal finds no process when the run already swept and exited: that is fine.
    try {
      process.kill(-run.pid!, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
    return bounded(exited, 60_000, 'the stopped run to exit');
  });
  expect(made.note).toBeGreaterThan(40);
  // After the signal the run says one line, nothing else: no run errors, no partial summary.
  expect(output.startsWith(beforeSignal)).toBe(true);
  const after = output.slice(beforeSignal.length);
  expect(after, output).toMatch(
    new RegExp(
      `^interrupted by ${signal} after \\d+ of \\d+ rules; [1-9]\\d* resources deleted, 0 left( \\(\\d+ unknown: [^)]*\\))?; exit ${code}\\n$`,
    ),
  );
  expect(stateOf(fake.store), output).toEqual(before);
  // The report tells the same story as the exit status: interrupted, and what never ran is "not run", not an error.
  const report = readReportFile(join(reports, 'r.json'));
  const junit = readFileSync(join(reports, 'j.xml'), 'utf8');
  const markdown = readFileSync(join(reports, 'r.md'), 'utf8');
  rmSync(reports, { recursive: true, force: true });
  // Checks the signal stopped are "not run" in every report, never an error; the run's one error is the interrupt.
  expect(report.run_errors).toEqual([]);
  expect(report.rules.filter((r) => r.verdict === 'error').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
  expect(junit.match(/<error /g) ?? []).toHaveLength(1);
  expect(junit).toMatch(/<error message="interrupted by/);
  expect(markdown).not.toMatch(/Run errors/i);
  expect(report.interrupted).toEqual({ signal, exit_code: code });
  expect(report.exit_code).toBe(code);
  expect(report.exit_reason).toMatch(new RegExp(`^interrupted by ${signal}: \\d+ of \\d+ rules not run`));
  expect(report.rules.filter((r) => r.reason === 'no check').map((r) => r.id)).toEqual([]);
  expect(report.rules.some((r) => r.verdict === 'skipped' && r.reason === 'not run')).toBe(true);
  return { code, output };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${ms} ms`);
    await delay(20);
  }
}

async function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what} after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Serves the fake over HTTP, answering every successful note create with 200 and a body that is not JSON. */
async function garblingCreates(target: Fake): Promise<{ server: Server; url: string; garbled: () => number }> {
  let garbled = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      );
      const body = Buffer.concat(chunks);
      const answer = target.handle({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      if (req.method === 'POST' && req.url?.split('?')[0] === '/v2/notes' && answer.status === 200) {
        garbled++;
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end('<<created>>');
      }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, garbled: () => garbled };
}

/**
 * The count is what a listing of the account shows afterwards, whatever ids the target gives and
 * however it answers a create (DESIGN "The suites": cleanup): a partial server of an implementer's
 * own (loose-server.ts) holds the truth, with someone's data from before the run beside the run's.
 */
describe('the left-behind count equals what the account holds afterwards', { timeout: 180_000 }, () => {
  const some = (id: string) => !/[37]$/.test(id);
  const cases: Array<[string, LooseOptions]> = [
    [
      'ids that are not UUIDs (strings, numbers, none), and deletes that miss the numeric ones',
      { deletes: (id) => !/^\d+$/.test(id) },
    ],
    // Deletes that miss some ids besides: the count must not be zero for the wrong reason.
    ['every create stored, then answered 500', { answer: '500', idOf: (kind, n) => `${kind}-${n}`, deletes: some }],
    [
      'every other create stored, then its answer cut off',
      { answer: 'cut', idOf: (k, n) => `${k}-${n}`, deletes: some },
    ],
  ];
  for (const [what, options] of cases) {
    it(what, async () => {
      const server = await looseServer({
        ...options,
        before: { notes: ["kept: not the run's"], collections: ['kept'] },
      });
      const dir = mkdtempSync(join(tmpdir(), 'nc-loose-'));
      try {
        let printed = '';
        const { report } = await runKit(
          [
            ...[
              '--target',
              server.url,
              '--token',
              PRIMARY,
              '--requests-per-second',
              '1000',
              '--request-timeout',
              '2000',
            ],
            ...['--only', 'notes.create', '--only', 'collections.create'],
            ...['--json', join(dir, 'r.json'), '--markdown', join(dir, 'r.md'), '--html', join(dir, 'r.html')],
          ],
          {},
          (text) => {
            printed += text;
          },
        );
        const left = [...server.stored.values()]
          .filter((s) => !s.id.startsWith('before-'))
          .map((s) => `${s.kind} ${s.id}`)
          .sort();
        console.log(`${what}: ${server.creates} creates, ${left.length} left: ${left.slice(0, 8).join(', ')}`);
        expect(server.creates, 'the run did create').toBeGreaterThan(5);
        expect(left.length, 'some are left').toBeGreaterThan(0);
        expect([...server.stored.keys()].filter((id) => id.startsWith('before-'))).toHaveLength(2);
        expect(report.leftovers_unconfirmed ?? []).toEqual([]);
        expect(report.leftovers).toBe(left.length);
        expect([...(report.leftover_ids ?? [])].sort()).toEqual(left);
        const json = readReportFile(join(dir, 'r.json'));
        expect(json.leftovers).toBe(left.length);
        expect(printed).toContain(`${left.length} left behind`);
        for (const file of ['r.md', 'r.html'])
          expect(readFileSync(join(dir, file), 'utf8'), file).toContain(`${left.length} resource`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await server.close();
      }
    });
  }
});
