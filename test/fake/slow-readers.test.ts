import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TIMEOUTS, resolveConfig } from '../../fake/config.js';
import { AnswerWriter } from '../../fake/http/answer-writer.js';
import { FakeCore } from '../../fake/http/core.js';
import { listen } from '../../fake/http/server.js';
import { createFake, type Fake } from '../../fake/index.js';

/** Clients that ask for a big answer and then read nothing (or read late). */
describe('answers to clients that do not read', () => {
  let fake: Fake;
  const NOTES = 100;
  const CONTENT = 200_000;
  beforeAll(async () => {
    fake = await createFake({
      users: ['reader-token-1'],
      answers: { stallMs: 400, budgetBytes: 64 * 1024 * 1024 },
    });
    for (let i = 0; i < NOTES; i++) {
      const res = fake.handle({
        method: 'POST',
        url: '/v2/notes',
        headers: { authorization: 'Bearer reader-token-1', 'content-type': 'application/json' },
        body: JSON.stringify({ content: `${i}\n${'x'.repeat(CONTENT - 10)}` }),
      });
      expect(res.status).toBe(200);
    }
  });
  afterAll(() => fake.close());

  const BIG = `GET /v2/notes?limit=100&include_note_content=true HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer reader-token-1\r\n\r\n`;
  /** Sends the request and reads nothing until `resume()`; `received()` is what arrived by then. */
  const stalled = (port = Number(new URL(fake.url!).port)) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let closed = false;
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(BIG));
    socket.pause();
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      bytes += d.length;
    });
    socket.on('error', () => {});
    socket.on('close', () => (closed = true));
    return {
      socket,
      resume: () =>
        new Promise<void>((resolve) => {
          socket.resume();
          if (closed) resolve();
          else socket.once('close', () => resolve());
          setTimeout(resolve, 3_000);
        }),
      received: () => Buffer.concat(chunks).toString('latin1'),
      bytes: () => bytes,
      closed: () => closed,
    };
  };

  it('cuts off a client that reads nothing after the stall time, with the answer unfinished', async () => {
    const client = stalled();
    // The stall is counted in ticks of the writer's 100 ms timer, which a starved process (npm test
    // on a shared machine) runs late: wait for several times the stall, not just past it.
    await new Promise((r) => setTimeout(r, 3_000));
    await client.resume();
    const text = client.received();
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    const declared = Number(/content-length: (\d+)/i.exec(text)![1]);
    expect(declared).toBeGreaterThan(NOTES * CONTENT);
    const body = text.slice(text.indexOf('\r\n\r\n') + 4);
    expect(body.length).toBeLessThan(declared);
    expect(client.closed()).toBe(true);
  });

  it('serves a client that reads slowly but steadily in full', async () => {
    const client = stalled();
    // Reads in bursts, each well inside the stall time.
    const timer = setInterval(() => {
      client.socket.resume();
      setTimeout(() => client.socket.pause(), 20);
    }, 150);
    const finished = new Promise<void>((resolve) => client.socket.once('close', () => resolve()));
    const text = await new Promise<string>((resolve) => {
      const check = setInterval(() => {
        // The body is ASCII here: bytes beyond the declared length plus the head mean it is complete.
        if (client.bytes() >= NOTES * CONTENT || client.closed()) {
          const t = client.received();
          const head = t.indexOf('\r\n\r\n');
          if (client.closed() || t.length - head - 4 >= Number(/content-length: (\d+)/i.exec(t)![1])) {
            clearInterval(check);
            resolve(t);
          }
        }
      }, 50);
    });
    clearInterval(timer);
    client.socket.destroy();
    await finished;
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { results: unknown[] };
    expect(body.results).toHaveLength(NOTES);
  });

  it('refuses a new big answer with 503 and Retry-After while unread answers fill the budget, then makes room', async () => {
    // The fake's answers through an adapter of our own, to watch the bytes it holds.
    const server = await listen(new FakeCore(resolveConfig({})), {
      host: '127.0.0.1',
      port: 0,
      bodyLimitBytes: 1024,
      timeouts: { ...DEFAULT_TIMEOUTS, bodyMs: 1_000 },
      serve: (request) => ({ response: fake.handle(request) }),
      answers: { stallMs: 10_000, evictAfterMs: 1_500, budgetBytes: 30 * 1024 * 1024 },
    });
    const port = Number(new URL(server.url).port);
    const handler = server;
    const until = async (what: () => boolean) => {
      for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 25));
      expect(what()).toBe(true);
    };
    try {
      const first = stalled(port);
      await until(() => handler.writer.heldBytes > 20_000_000);
      const second = stalled(port);
      second.socket.resume();
      await until(() => second.received().includes('server_busy'));
      const refused = second.received();
      expect(refused).toMatch(/^HTTP\/1\.1 503/);
      expect(refused).toMatch(/retry-after: 1/i);
      expect(refused).toContain('server_busy');
      expect(handler.writer.heldBytes).toBeLessThan(30 * 1024 * 1024);
      // Once the first has been blocked long enough, a new answer closes it to make room.
      await new Promise((r) => setTimeout(r, 3_000));
      const third = stalled(port);
      third.socket.resume();
      await until(() => third.bytes() > 1_000_000);
      expect(third.received().slice(0, 15)).toBe('HTTP/1.1 200 OK');
      await first.resume();
      expect(first.closed()).toBe(true);
      for (const c of [first, second, third]) c.socket.destroy();
    } finally {
      await server.close();
    }
  });
});

describe('an answer blocked on its last chunk', () => {
  // An answer just past what the kernel takes unread: node still holds its last chunk after end(),
  // and no drain comes after end(). Before, such a client held its socket for good.
  it('is cut off after the stall time, as one blocked midway is', async () => {
    const writer = new AnswerWriter({ stallMs: 300, evictAfterMs: 3_000, budgetBytes: 64 * 1024 * 1024 });
    const socket = { destroy: vi.fn() };
    const res = Object.assign(new EventEmitter(), { write: () => false, end: vi.fn(), destroy: vi.fn(), socket });
    writer.write(res as unknown as ServerResponse, 'x'.repeat(100 * 1024), 100 * 1024);
    // The first chunk drains; the last one is written and ended, and is never read.
    res.emit('drain');
    expect(res.end).toHaveBeenCalledOnce();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(socket.destroy).toHaveBeenCalled();
    expect(writer.heldBytes).toBe(0);
  });
});
