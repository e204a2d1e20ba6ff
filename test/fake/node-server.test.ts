import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake, formatLogLine, type RequestLogEntry } from '../../fake/index.js';

describe('the fake over node:http', () => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await createFake({ users: ['server-token'], bodyLimitBytes: 64 * 1024 });
  });
  afterAll(() => fake.close());

  const call = (method: 'GET' | 'POST', path: string, body?: string, headers: Record<string, string> = {}) =>
    request(`${fake.url}${path}`, {
      method,
      body,
      headers: { authorization: 'Bearer server-token', 'content-type': 'application/json', ...headers },
    });

  it('serves the API on 127.0.0.1 with JSON bodies and a content length', async () => {
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const created = await call('POST', '/v2/notes', JSON.stringify({ content: 'hello\nworld' }));
    expect(created.statusCode).toBe(200);
    const note = (await created.body.json()) as { id: string; title: string };
    expect(note.title).toBe('hello');
    const read = await call('GET', `/v2/notes/${note.id}`);
    expect(read.headers['content-type']).toMatch(/^application\/json/);
    expect(((await read.body.json()) as { id: string }).id).toBe(note.id);
  });

  it('refuses a body over the limit by Content-Length, and by counting a chunked one, with 413', async () => {
    const big = await call('POST', '/v2/notes', JSON.stringify({ content: 'x'.repeat(100_000) }));
    expect(big.statusCode).toBe(413);
    await big.body.dump();
    async function* chunks() {
      for (let i = 0; i < 100; i++) yield Buffer.alloc(4096, 0x61);
    }
    const chunked = await request(`${fake.url}/v2/notes`, {
      method: 'POST',
      body: Readable.from(chunks()),
      headers: { authorization: 'Bearer server-token' },
    });
    expect(chunked.statusCode).toBe(413);
    await chunked.body.dump();
    expect((await call('GET', '/v2/notes')).statusCode).toBe(200);
  });

  it('answers a declared 1 GiB body with 413 at once, without waiting for it', async () => {
    const port = Number(new URL(fake.url!).port);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          'POST /v2/notes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer server-token\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n{"content":',
        );
      });
      let data = '';
      socket.on('data', (d) => {
        data += d.toString();
        if (data.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(data);
        }
      });
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
  });
});

describe('slow and idle connections', () => {
  let fake: Fake;
  const entries: RequestLogEntry[] = [];
  beforeAll(async () => {
    fake = await createFake({
      users: ['slow-token'],
      timeouts: { headersMs: 600, bodyMs: 400, idleMs: 300 },
      log: (e) => entries.push(e),
    });
  });
  afterAll(() => fake.close());
  const port = () => Number(new URL(fake.url!).port);

  /** Everything the server sends until it closes the connection (or `limitMs` passes: then 'still open'). */
  const talk = (limitMs: number, script: (write: (text: string) => void) => void) =>
    new Promise<string>((resolve, reject) => {
      let data = '';
      const socket = connect(port(), '127.0.0.1', () => script((text) => socket.write(text)));
      const timer = setTimeout(() => {
        socket.destroy();
        resolve(`${data}still open`);
      }, limitMs);
      socket.on('data', (d) => (data += d.toString()));
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(data);
      });
      socket.on('error', reject);
    });

  it('refuses deadlines that are not positive whole milliseconds', async () => {
    await expect(createFake({ listen: false, timeouts: { bodyMs: 0 } })).rejects.toThrow(
      /timeouts\.bodyMs must be a positive integer/,
    );
    await expect(createFake({ listen: false, timeouts: { idleMs: 1.5 } })).rejects.toThrow(/timeouts\.idleMs/);
  });

  it('cuts off a 1 byte/s body with 408 at the body deadline', async () => {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const answer = await talk(3_000, (write) => {
      write(
        'POST /v2/notes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer slow-token\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n',
      );
      timer = setInterval(() => write('x'), 100);
    });
    clearInterval(timer);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('request_timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(entries.some((e) => e.status === 408 && e.url === '/v2/notes')).toBe(true);
    expect(fake.store.notes.size).toBe(0);
  });

  it('closes a connection that never finishes its headers, and an idle keep-alive one', async () => {
    expect(await talk(4_000, (write) => write('GET /v2/notes HTTP/1.1\r\nHost: x\r\n'))).not.toMatch(/still open$/);
    const idle = await talk(3_000, (write) =>
      write('GET /v2/notes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer slow-token\r\n\r\n'),
    );
    expect(idle).toMatch(/^HTTP\/1\.1 200/);
    expect(idle).not.toMatch(/still open$/);
  });

  it('logs one entry per request with the user name, never the token', async () => {
    entries.length = 0;
    const res = await request(`${fake.url}/v2/notes?limit=2`, { headers: { authorization: 'Bearer slow-token' } });
    await res.body.dump();
    const refused = await request(`${fake.url}/v2/notes`, { headers: { authorization: 'Bearer wrong-token' } });
    await refused.body.dump();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      method: 'GET',
      url: '/v2/notes?limit=2',
      status: 200,
      user: expect.stringMatching(/^user-/),
    });
    expect(entries[1]).toMatchObject({ status: 401 });
    expect(entries[1]!.user).toBeUndefined();
    const lines = entries.map(formatLogLine);
    expect(lines[0]).toMatch(/^[\dT:.Z-]+ GET \/v2\/notes\?limit=2 200 \d+\.\dms user-\S+ [0-9a-f-]{36}$/);
    expect(lines[1]).toMatch(/ 401 \d+\.\dms - - refused=unauthenticated$/);
    expect(lines.join('\n')).not.toMatch(/slow-token|wrong-token/);
  });
});

describe('HEAD and CORS over node:http', () => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await createFake({ users: ['cors-token'] });
  });
  afterAll(() => fake.close());

  it('answers HEAD with the GET Content-Length and no body, and a browser preflight', async () => {
    const headers = { authorization: 'Bearer cors-token' };
    const get = await request(`${fake.url}/v2/notes`, { headers });
    const body = await get.body.text();
    const head = await request(`${fake.url}/v2/notes`, { method: 'HEAD', headers });
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(body));
    expect(await head.body.text()).toBe('');
    const origin = 'http://localhost:3000';
    const pre = await request(`${fake.url}/v2/notes/search`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    await pre.body.dump();
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(origin);
    expect(String(pre.headers['access-control-allow-methods'])).toContain('POST');
    const big = await request(`${fake.url}/v2/notes`, {
      method: 'POST',
      headers: { ...headers, origin, 'content-type': 'application/json' },
      body: 'x'.repeat(5 * 1024 * 1024),
    });
    await big.body.dump();
    expect(big.statusCode).toBe(413);
    expect(big.headers['access-control-allow-origin']).toBe(origin);
  });
});
