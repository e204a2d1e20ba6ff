import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetClient } from '../../../kit/core/client.js';
import { shellWord } from '../../../kit/core/repro.js';
import { type RecordingServer, recordingServer } from './recording-server.js';

/**
 * Each exchange's repro, run by bash with curl, sends what the client sent: same method, URL,
 * credential (from the variable that stands for it), content type and body byte for byte.
 */
const run = promisify(execFile);
const PRIMARY = 'tok_primary_0123456789';
const SECONDARY = 'tok_secondary_9876543210';

describe('repro commands', () => {
  let server: RecordingServer;
  let client: TargetClient;
  beforeAll(async () => {
    server = await recordingServer((seen) => ({
      status: seen.url.pathname === '/teapot' ? 418 : 201,
      body: { ok: true },
    }));
    client = new TargetClient({
      baseUrl: server.url,
      timeoutMs: 5000,
      requestBudget: 1000,
      secrets: [PRIMARY, SECONDARY],
      secretVariables: { [PRIMARY]: 'NOTES_TOKEN', [SECONDARY]: 'NOTES_SECONDARY_TOKEN' },
    });
  });
  const scratch = mkdtempSync(join(tmpdir(), 'nc-repro-'));
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await client.close();
    await server.close();
  });

  async function replay(
    repro: string,
    env: Record<string, string> = { NOTES_TOKEN: PRIMARY, NOTES_SECONDARY_TOKEN: SECONDARY },
  ) {
    // As a reader would: saved to a file (a 200 KB command is too long for one argument).
    const file = join(scratch, 'repro.sh');
    writeFileSync(file, `${repro}\n`);
    const { stdout } = await run('bash', [file], {
      env: { PATH: process.env.PATH, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return Number(/^HTTP\/\S+ (\d{3})/.exec(stdout)?.[1]);
  }

  const cases: Array<[string, Parameters<TargetClient['send']>[0]]> = [
    [
      'a GET with a query and the main token',
      { method: 'GET', path: '/v2/notes', query: { limit: 5, q: "it's a 'quote' & more" }, token: PRIMARY },
    ],
    [
      'a POST with JSON, apostrophes and a line that looks like the delimiter',
      { method: 'POST', path: '/v2/notes', json: { content: "l'eau\nNOTES_BODY\n$HOME `x` \\n" }, token: SECONDARY },
    ],
    ['a body ending in newlines', { method: 'PUT', path: '/v2/notes/a', raw: '{"content":"x"}\n\n', token: PRIMARY }],
    [
      'a body with CR, tab and invalid UTF-8',
      {
        method: 'PATCH',
        path: '/v2/notes/a',
        raw: new Uint8Array([0x7b, 0x0d, 0x0a, 0x09, 0xff, 0xfe, 0x7d]),
        token: PRIMARY,
      },
    ],
    [
      'a body without a content type',
      { method: 'POST', path: '/v2/notes', raw: 'plain', contentType: null, token: PRIMARY },
    ],
    [
      'a deliberately invalid token',
      { method: 'GET', path: '/v2/notes', token: null, authorization: 'Bearer not-a-real-token-abc' },
    ],
    ['the token without its scheme', { method: 'GET', path: '/v2/notes', token: null, authorization: PRIMARY }],
    ['no credential at all', { method: 'DELETE', path: '/teapot', token: null }],
    [
      'a credential inside the body',
      { method: 'POST', path: '/v2/notes', json: { note: `says ${PRIMARY}` }, token: PRIMARY },
    ],
    [
      'a body of 200,001 characters',
      { method: 'POST', path: '/v2/notes', json: { content: 'é'.repeat(200_001) }, token: PRIMARY },
    ],
  ];

  for (const [name, options] of cases) {
    it(`replays ${name} exactly`, async () => {
      const exchange = await client.send(options);
      const original = server.seen.at(-1)!;
      expect(exchange.repro).toBeDefined();
      // Never a credential of the run in the clear.
      expect(exchange.repro).not.toContain(PRIMARY);
      expect(exchange.repro).not.toContain(SECONDARY);
      const status = await replay(exchange.repro!);
      const replayed = server.seen.at(-1)!;
      expect(replayed).not.toBe(original);
      expect(status).toBe(exchange.status);
      expect(replayed.method).toBe(original.method);
      expect(replayed.url.href).toBe(original.url.href);
      for (const header of ['authorization', 'content-type', 'content-length', 'accept', 'expect']) {
        expect(replayed.headers[header], header).toBe(original.headers[header]);
      }
      expect(replayed.body).toBe(original.body);
    }, 20_000);
  }

  it("keeps a deliberately invalid token as the literal sent and names the run's tokens", async () => {
    const invalid = await client.send({
      method: 'GET',
      path: '/v2/notes',
      token: null,
      authorization: 'Bearer not-a-real-token-abc',
    });
    expect(invalid.repro).toContain(`'Authorization: Bearer not-a-real-token-abc'`);
    const real = await client.send({ method: 'GET', path: '/v2/notes', token: SECONDARY });
    expect(real.repro).toContain(`'Authorization: Bearer '"\${NOTES_SECONDARY_TOKEN:?}"`);
  });

  it('stops with a plain message when the variable is not set', async () => {
    const exchange = await client.send({ method: 'GET', path: '/v2/notes', token: PRIMARY });
    await expect(replay(exchange.repro!, {})).rejects.toThrow(/NOTES_TOKEN/);
  });

  it("names a token learned during the run as a fixture user's", async () => {
    client.addSecret('tok_fixture_user_1234');
    const exchange = await client.send({ method: 'GET', path: '/v2/notes', token: 'tok_fixture_user_1234' });
    expect(exchange.repro).toMatch(/"\$\{NOTES_FIXTURE_TOKEN_\d+:\?\}"/);
  });

  it('quotes words for the shell', () => {
    expect(shellWord("a'b", [])).toBe(`'a'\\''b'`);
    expect(shellWord('', [])).toBe(`''`);
    expect(shellWord('xSECRETy', [{ value: 'SECRET', variable: 'V' }])).toBe(`'x'"\${V:?}"'y'`);
  });
});
