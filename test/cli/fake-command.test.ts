import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeCommand } from '../../cli/fake-command.js';
import { UsageError } from '../../suites/harness/errors.js';

describe('notes-conformance fake', () => {
  it('serves the fake, prints its URL and tokens, and stops when told', async () => {
    const lines: string[] = [];
    let stop!: () => void;
    let ready!: () => void;
    const started = new Promise<void>((r) => (ready = r));
    const done = fakeCommand(['--port', '0', '--token', 'cli-token-1', '--seed', '3', '--quota', '5'], {
      out: (line) => {
        lines.push(line);
        if (line.startsWith('faults:')) ready();
      },
      untilStopped: () => new Promise<void>((r) => (stop = r)),
    });
    await started;
    const url = /listening on (\S+)/.exec(lines[0]!)![1]!;
    expect(lines.join('\n')).toMatch(/tokens: +cli-token-1/);
    const res = await request(`${url}/v2/notes`, { headers: { authorization: 'Bearer cli-token-1' } });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
    stop();
    expect(await done).toBe(0);
  });

  it('refuses bad flags, unknown faults and bad profiles as usage errors', async () => {
    const io = { out: () => {}, untilStopped: async () => {} };
    await expect(fakeCommand(['--port', 'x'], io)).rejects.toThrow(UsageError);
    await expect(fakeCommand(['--bogus'], io)).rejects.toThrow(UsageError);
    await expect(fakeCommand(['--port', '0', '--fault', 'no.such.fault'], io)).rejects.toThrow(/unknown fault/);
    await expect(fakeCommand(['--port', '0', '--profile', '/nonexistent.yaml'], io)).rejects.toThrow(
      /cannot read the file/,
    );
    await expect(fakeCommand(['--rate-limit', 'fast'], io)).rejects.toThrow(/REQUESTS\/SECONDS/);
  });

  it('lists faults with the rule each breaks', async () => {
    const lines: string[] = [];
    expect(await fakeCommand(['--list-faults'], { out: (l) => lines.push(l), untilStopped: async () => {} })).toBe(0);
    expect(lines.length).toBeGreaterThan(200);
    expect(lines.find((l) => l.startsWith('notes.update.stale-version-accepted'))).toMatch(
      /breaks notes\.update\.version-stale-refused/,
    );
  });
});

describe('notes-conformance fake: banner, --log and --no-cors', () => {
  async function start(args: string[]) {
    const lines: string[] = [];
    let stop!: () => void;
    let ready!: () => void;
    const started = new Promise<void>((r) => (ready = r));
    const done = fakeCommand(['--port', '0', ...args], {
      out: (line) => {
        lines.push(line);
        if (line.startsWith('endpoints:')) setImmediate(ready);
      },
      untilStopped: () => new Promise<void>((r) => (stop = r)),
    });
    await started;
    return {
      lines,
      url: /listening on (\S+)/.exec(lines[0]!)![1]!,
      stop: async () => {
        stop();
        return done;
      },
    };
  }

  it('serves the built-in hosted profile by name, with the names public clients send', async () => {
    const fake = await start(['--profile', 'hosted']);
    const banner = fake.lines.join('\n');
    expect(banner).toMatch(/^profile: +hosted$/m);
    expect(banner).toMatch(/^ {2}POST +\/v2\/mem-it +body: input instructions context timestamp$/m);
    expect(banner).toMatch(/^ {2}POST +\/v2\/notes\/search +.*\bfilter_by_collection_ids\b/m);
    expect(banner).toMatch(/ config\{include_note_content,include_content,include_snippet\}/);
  });

  it("prints the parameter names and endpoints in effect, the profile's where it chose", async () => {
    const fake = await start(['--profile', 'fake-divergent']);
    const banner = fake.lines.join('\n');
    expect(banner).toMatch(/^ {2}GET +\/v2\/notes +query: .*\bhas_open_tasks\b.*\bwith_content\b/m);
    expect(banner).toMatch(
      /^ {2}POST +\/v2\/notes\/search +query: limit offset snapshot_id {2}body: .*\bin_collections\b/m,
    );
    expect(banner).toMatch(/^ {2}POST +\/v2\/collections\/search +body: q /m);
    expect(banner).toMatch(/^ {2}PUT +\/v2\/capture +body: text hint about seen_at$/m);
    expect(banner).toMatch(/^ {2}DELETE +\/v2\/collections\/\{collection_id\}\/soft$/m);
    expect(banner).toMatch(/unknown query and body names are refused/);
    expect(banner).toMatch(/^cors: +on/m);
    expect(await fake.stop()).toBe(0);
  });

  it('--log prints one line per request with the user name and no token; --no-cors turns CORS off', async () => {
    const fake = await start(['--log', '--no-cors', '--token', 'log-token-1']);
    const before = fake.lines.length;
    const origin = 'http://localhost:5173';
    const res = await request(`${fake.url}/v2/notes?limit=3`, {
      headers: { authorization: 'Bearer log-token-1', origin },
    });
    await res.body.dump();
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await request(`${fake.url}/v2/notes`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'GET' },
    });
    await pre.body.dump();
    expect(pre.statusCode).toBe(405);
    const logged = fake.lines.slice(before);
    expect(logged).toHaveLength(2);
    // Each line starts with the time it was answered (ISO 8601, UTC).
    const time = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z `;
    expect(logged[0]).toMatch(
      new RegExp(String.raw`^${time}GET /v2/notes\?limit=3 200 \d+\.\dms user-([0-9a-f]{8}) \1[0-9a-f-]{28}$`),
    );
    expect(logged[1]).toMatch(
      new RegExp(String.raw`^${time}OPTIONS /v2/notes 405 \d+\.\dms - - refused=method_not_allowed$`),
    );
    expect(fake.lines.slice(0, before).join('\n')).toMatch(/^cors: +off/m);
    expect(logged.join('\n')).not.toContain('log-token-1');
    expect(await fake.stop()).toBe(0);
  });

  it('--profile hosted --log: every ignored name in its line and once on the report line, refusals by kind', async () => {
    const fake = await start(['--profile', 'hosted', '--log', '--token', 'log-token-1']);
    const before = fake.lines.length;
    const headers = { authorization: 'Bearer log-token-1', 'content-type': 'application/json' };
    for (let i = 0; i < 2; i++) {
      const res = await request(`${fake.url}/v2/notes?verbose=1&log-token-1=2`, { headers });
      expect(res.statusCode).toBe(200);
      await res.body.dump();
    }
    const big = await request(`${fake.url}/v2/notes`, { method: 'POST', headers, body: 'x'.repeat(3 * 1024 * 1024) });
    await big.body.dump();
    const logged = fake.lines.slice(before);
    const said = (name: string) =>
      `notes-conformance fake: ignored ${name} on GET /v2/notes: not a name of this endpoint`;
    expect(logged.filter((l) => l.startsWith('notes-conformance fake:'))).toEqual([
      expect.stringMatching(new RegExp(`^${said('verbose \\(query\\)')}`)),
      expect.stringMatching(new RegExp(`^${said('\\*\\*\\* \\(query\\)')}`)),
    ]);
    const lines = logged.filter((l) => /^\d{4}-\d\d-\d\dT[\d:.]+Z /.test(l));
    expect(lines).toEqual([
      expect.stringMatching(/ GET \/v2\/notes\?verbose=1&\*\*\*=2 200 .* ignored=verbose\(query\),\*\*\*\(query\)$/),
      expect.stringMatching(/ GET \/v2\/notes\?verbose=1&\*\*\*=2 200 .* ignored=verbose\(query\),\*\*\*\(query\)$/),
      expect.stringMatching(/ POST \/v2\/notes 413 .* refused=payload_too_large$/),
    ]);
    expect(logged.join('\n')).not.toContain('log-token-1');
    expect(await fake.stop()).toBe(0);
  });
});

describe('notes-conformance fake start-up errors (the built CLI)', () => {
  const bin = fileURLToPath(new URL('../../bin/notes-conformance.js', import.meta.url));
  const run = (args: string[]) =>
    spawnSync(process.execPath, [bin, 'fake', ...args], { encoding: 'utf8', timeout: 20_000 });
  let busy: Server;
  let dir: string;
  beforeAll(async () => {
    if (!existsSync(new URL('../../dist/cli/main.js', import.meta.url)))
      throw new Error('run `npm run build` first: this test spawns the built CLI');
    busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    dir = mkdtempSync(join(tmpdir(), 'fake-cli-'));
  });
  afterAll(() => {
    busy.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('states the token rules in --help', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/8 to 512 printable ASCII characters, no spaces/);
    expect(help.stdout).toMatch(/--log/);
    expect(help.stdout).toMatch(/--no-cors/);
  });

  it.each([
    ['a short token', ['--token', 'short'], /--token must have 8 to 512 printable ASCII characters/],
    ['a token with a space', ['--token', 'has a space'], /--token must have 8 to 512/],
    ['a short admin token', ['--admin-token', 'x'], /--admin-token must have 8 to 512/],
    ['a bad host', ['--host', 'not a host'], /--host must be an IP address or a host name/],
    ['a host not on this machine', ['--host', '192.0.2.1'], /--host 192\.0\.2\.1 is not an address of this machine/],
    ['a negative seed', ['--seed=-1'], /--seed must be an integer/],
    ['a seed with a fraction', ['--seed', '1.5'], /--seed must be an integer/],
    ['a seed that is a word', ['--seed', 'random'], /--seed must be an integer/],
    ['an unknown flag', ['--bogus'], /unknown option --bogus/],
    ['a missing profile file', ['--profile', '/nonexistent/profile.yaml'], /cannot read the file/],
  ])('refuses %s in one line with exit 2', (_what, args, message) => {
    const result = run(['--port', '0', ...args]);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr.trimEnd().split('\n'), result.stderr).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('refuses a busy port and an invalid profile file in one line with exit 2', () => {
    const port = (busy.address() as AddressInfo).port;
    const taken = run(['--port', String(port)]);
    expect(taken.status).toBe(2);
    expect(taken.stderr.trimEnd()).toBe(`notes-conformance: port ${port} is in use; pick another with --port`);
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'name: broken\nstatuses:\n  validation: 200\nunknown_fields: maybe\n');
    const bad = run(['--port', '0', '--profile', file]);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/bad\.yaml: invalid profile: .*statuses\/validation.*; .*unknown_fields/);
  });
});
