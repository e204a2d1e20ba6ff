import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fake, createFake } from '../../fake/index.js';

describe('the fake over node:http', () => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await createFake({ users: ['server-token'], bodyLimitBytes: 64 * 1024 });
  });
  afterAll(() => fake.close());

  const call = (method: 'GET' | 'POST', path: string, body?: string, headers: Record<string, string> = {}) =>
    request(`${fake.url}${path}`, { method, body, headers: { authorization: 'Bearer server-token', 'content-type': 'application/json', ...headers } });

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
    const chunked = await request(`${fake.url}/v2/notes`, { method: 'POST', body: Readable.from(chunks()), headers: { authorization: 'Bearer server-token' } });
    expect(chunked.statusCode).toBe(413);
    await chunked.body.dump();
    expect((await call('GET', '/v2/notes')).statusCode).toBe(200);
  });

  it('answers a declared 1 GiB body with 413 at once, without waiting for it', async () => {
    const port = Number(new URL(fake.url!).port);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('POST /v2/notes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer server-token\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n{"content":');
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
