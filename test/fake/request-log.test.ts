import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeCommand } from '../../cli/fake-command.js';
import { boundedLog, escapeLogField, redactUrl } from '../../fake/http/request-log.js';
import { createFake, type Fake, formatLogLine, type RequestLogEntry } from '../../fake/index.js';

describe('--log lines', () => {
  it('escape every value, so no name or path can split or forge a line', () => {
    const forged = 'mallory\nGET /v2/notes 200 0.1ms admin';
    const line = formatLogLine({
      method: 'GET',
      url: '/v2/notes?q=a b%0A',
      status: 200,
      ms: 1,
      user: forged,
      userId: 'u',
    });
    expect(line).not.toContain('\n');
    expect(line.split(' ')).toHaveLength(6);
    // With its time, a refusal's kind and the names ignored, still one line of escaped fields.
    expect(
      formatLogLine({
        at: '2026-05-01T10:00:00.000Z',
        method: 'POST',
        url: '/v2/notes/search',
        status: 400,
        ms: 0.25,
        refusal: 'validation',
        ignored: ['cursor (query)', 'config.a,b (body)'],
      }),
    ).toBe(
      '2026-05-01T10:00:00.000Z POST /v2/notes/search 400 0.3ms - - refused=validation ignored=cursor(query),config.a%2Cb(body)',
    );
    expect(line).toBe('GET /v2/notes?q=a%20b%250A 200 1.0ms mallory%0AGET%20/v2/notes%20200%200.1ms%20admin u');
    expect(escapeLogField('Zoë\t\u0000\ud800')).toBe('Zo%C3%AB%09%00%EF%BF%BD');
    expect(escapeLogField('-')).toBe('%2D');
    expect(formatLogLine({ method: 'GET', url: '/', status: 401, ms: 0 })).toBe('GET / 401 0.0ms - -');
  });

  it('redact access_token and similar query values, and any known token in the path or query', () => {
    const known = (v: string) => v === 'sekret-token-1';
    expect(redactUrl('/v2/notes?access_token=abc&limit=2', known)).toBe('/v2/notes?access_token=***&limit=2');
    expect(redactUrl('/v2/notes?Access_Token=abc&api_key=k&accessToken=t', known)).toBe(
      '/v2/notes?Access_Token=***&api_key=***&accessToken=***',
    );
    expect(redactUrl('/x/sekret-token-1/y?q=sekret-token-1&other=1', known)).toBe('/x/***/y?q=***&other=1');
    expect(redactUrl('/v2/notes?sekret-token-1=1', known)).toBe('/v2/notes?***=1');
    expect(redactUrl('/v2/notes?q=sekret%2Dtoken%2D1', known)).toBe('/v2/notes?q=***');
    expect(redactUrl('/v2/notes?limit=2', known)).toBe('/v2/notes?limit=2');
  });

  it('drop lines, and count them, while the reader lets the backlog grow past its bound', () => {
    const out: string[] = [];
    let backlog = 0;
    const sink = boundedLog(
      (line) => out.push(line),
      () => backlog,
      100,
    );
    sink.write('one');
    backlog = 101;
    for (let i = 0; i < 5; i++) sink.write(`lost ${i}`);
    expect(out).toEqual(['one']);
    expect(sink.dropped).toBe(5);
    backlog = 0;
    sink.write('two');
    expect(out).toEqual(['one', 'log: 5 line(s) dropped while the log reader was not keeping up', 'two']);
    backlog = 101;
    sink.write('lost again');
    sink.flush();
    expect(out.at(-1)).toBe('log: 1 line(s) dropped while the log reader was not keeping up');
  });
});

describe('--log over HTTP', () => {
  let fake: Fake;
  const entries: RequestLogEntry[] = [];
  beforeAll(async () => {
    fake = await createFake({ users: ['log-token-1'], log: (e) => entries.push(e) });
  });
  afterAll(() => fake.close());

  it("names the token's user (name and id), escapes a forged name and never prints a token", async () => {
    const evil = fake.fixtures.createUser({ name: 'eve\n"GET /v2/x 200 0.1ms root', token: 'evil-token-1' });
    entries.length = 0;
    for (const [token, query] of [
      ['log-token-1', '?limit=1'],
      ['evil-token-1', '?access_token=evil-token-1'],
      ['evil-token-1', '?limit=1&x=log-token-1'],
    ] as const) {
      const res = await request(`${fake.url}/v2/notes${query}`, { headers: { authorization: `Bearer ${token}` } });
      await res.body.dump();
    }
    const lines = entries.map(formatLogLine);
    const first = fake.store.usersByToken.get('log-token-1')!;
    expect(lines[0]).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z GET /v2/notes\\?limit=1 200 \\d+\\.\\dms ${first.name} ${first.id}$`),
    );
    expect(lines[1]).toContain(`?access_token=*** `);
    expect(lines[1]).toContain(` eve%0A"GET%20/v2/x%20200%200.1ms%20root ${evil.user_id}`);
    expect(lines[2]).toContain('x=***');
    expect(lines.join('\n')).not.toMatch(/log-token-1|evil-token-1/);
    expect(lines.every((l) => !l.includes('\n') && /^\S+Z GET /.test(l))).toBe(true);
  });

  it('names the kind of a refusal', async () => {
    entries.length = 0;
    const res = await request(`${fake.url}/v2/notes?limit=0`, { headers: { authorization: 'Bearer log-token-1' } });
    await res.body.dump();
    const none = await request(`${fake.url}/v2/notes`);
    await none.body.dump();
    expect(entries.map(formatLogLine)).toEqual([
      expect.stringMatching(/ GET \/v2\/notes\?limit=0 400 [\d.]+ms \S+ \S+ refused=validation$/),
      expect.stringMatching(/ GET \/v2\/notes 401 [\d.]+ms - - refused=unauthenticated$/),
    ]);
  });
});

/** A listening fake under --profile hosted, with what it logs and what it says on the report line. */
async function hostedFake(): Promise<{ fake: Fake; entries: RequestLogEntry[]; said: string[] }> {
  const entries: RequestLogEntry[] = [];
  const said: string[] = [];
  const fake = await createFake({
    profile: 'hosted',
    users: ['hosted-log-token'],
    log: (e) => entries.push(e),
    report: (line) => said.push(line),
  });
  return { fake, entries, said };
}

describe('nothing silent under unknown_fields: ignore', () => {
  it('puts every ignored name in the log line, and says each once per endpoint on the report line', async () => {
    const { fake, entries, said } = await hostedFake();
    try {
      for (let i = 0; i < 2; i++) {
        const res = await request(`${fake.url}/v2/collections/search?verbose=1&hosted-log-token=1`, {
          method: 'POST',
          headers: { authorization: 'Bearer hosted-log-token', 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'x', config: { include_description: true } }),
        });
        expect(res.statusCode).toBe(200);
        await res.body.dump();
      }
      const line = formatLogLine(entries[0]!);
      expect(line).toMatch(/ 200 [\d.]+ms \S+ \S+ ignored=verbose\(query\),\*\*\*\(query\),config\(body\)$/);
      expect(line).not.toContain('hosted-log-token');
      const tail =
        ' on POST /v2/collections/search: not a name of this endpoint (unknown_fields: ignore); ' +
        'the request was answered as if it were not sent';
      expect(said).toEqual(['verbose (query)', '*** (query)', 'config (body)'].map((n) => `ignored ${n}${tail}`));
    } finally {
      await fake.close();
    }
  });

  it('says once that it stops saying names after the first 1,000, which --log still names', async () => {
    const said: string[] = [];
    const fake = await createFake({
      listen: false,
      profile: 'hosted',
      users: ['hosted-log-token'],
      report: (l) => said.push(l),
    });
    for (let i = 0; i < 1_010; i++)
      fake.handle({ method: 'GET', url: `/v2/notes?n${i}=1`, headers: { authorization: 'Bearer hosted-log-token' } });
    expect(said).toHaveLength(1_001);
    expect(said.at(-1)).toBe('more than 1000 names ignored: the next ones are not said here; --log names each');
    await fake.close();
  });

  it('answers, and says on one line each, names no header or line can hold as sent', async () => {
    const { fake, entries, said } = await hostedFake();
    try {
      const forged = 'a\nnotes-conformance fake: forged';
      const body = { query: 'x', [forged]: 1, 日本: 1, ['L'.repeat(5_000)]: 1, config: { 'hosted-log-token': 1 } };
      const res = await request(`${fake.url}/v2/notes/search`, {
        method: 'POST',
        headers: { authorization: 'Bearer hosted-log-token', 'content-type': 'application/json' },
        body: JSON.stringify(body),
        headersTimeout: 5_000,
      });
      expect(res.statusCode).toBe(200);
      await res.body.dump();
      const shown = ['a\\u000anotes-conformance fake: forged (body)', '\\u65e5\\u672c (body)'];
      expect(res.headers['x-ignored-fields']).toContain(shown.join(', '));
      expect(said).toHaveLength(4);
      expect(said.every((l) => !l.includes('\n') && l.length < 800)).toBe(true);
      expect(said.join('\n')).toContain(`ignored ${shown[0]} on POST /v2/notes/search`);
      expect(said.join('\n')).toContain(`ignored ${'L'.repeat(600)}... (body)`);
      expect(said.join('\n')).toContain('ignored config.*** (body)');
      const line = formatLogLine(entries[0]!);
      expect(line).toContain(`ignored=a\\u000anotes-conformance%20fake:%20forged(body),\\u65e5\\u672c(body),`);
      expect(line).toContain('config.***(body)');
      expect(line).not.toContain('hosted-log-token');
    } finally {
      await fake.close();
    }
  });
});

describe('fake --log with a reader that stalls', () => {
  it('keeps serving, drops lines beyond the bound and reports how many', async () => {
    const out: string[] = [];
    let stop!: () => void;
    let ready!: (url: string) => void;
    const started = new Promise<string>((r) => (ready = r));
    let stalled = false;
    const done = fakeCommand(['--port', '0', '--token', 'stall-token-1', '--log'], {
      out: (line) => {
        out.push(line);
        const m = /listening on (\S+)/.exec(line);
        if (m) ready(m[1]!);
      },
      backlog: () => (stalled ? 10 * 1024 * 1024 : 0),
      untilStopped: () => new Promise<void>((r) => (stop = r)),
    });
    const url = await started;
    const get = async () => {
      const res = await request(`${url}/v2/notes`, { headers: { authorization: 'Bearer stall-token-1' } });
      await res.body.dump();
      return res.statusCode;
    };
    expect(await get()).toBe(200);
    stalled = true;
    for (let i = 0; i < 20; i++) expect(await get()).toBe(200);
    stalled = false;
    expect(await get()).toBe(200);
    stop();
    expect(await done).toBe(0);
    const log = out.filter((l) => /^(\S+ GET|log:)/.test(l));
    expect(log).toHaveLength(3);
    expect(log[1]).toBe('log: 20 line(s) dropped while the log reader was not keeping up');
  });
});
