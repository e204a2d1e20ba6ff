import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TargetUnavailable } from '../../../kit/core/breaker.js';
import { TargetClient } from '../../../kit/core/client.js';
import { KitError } from '../../../suites/harness/errors.js';
import { type RecordingServer, recordingServer } from './recording-server.js';

/** The client against targets that try to keep the kit busy: big bodies, endless rate limits, answers that never end. */
let server: RecordingServer | undefined;
const clients: TargetClient[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await server?.close();
  server = undefined;
  for (const close of closers.splice(0)) await close();
});

function client(url: string, options: Partial<ConstructorParameters<typeof TargetClient>[0]> = {}): TargetClient {
  const c = new TargetClient({ baseUrl: url, timeoutMs: 20_000, requestBudget: 1000, secrets: [], ...options });
  clients.push(c);
  return c;
}

const get = (c: TargetClient) => c.send({ method: 'GET', path: '/v2/notes', token: 'tok' });

/** A raw server whose handler writes the answer as it likes (streams, trickles). */
async function rawServer(handler: (res: ServerResponse) => void): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const s = createServer((req, res) => {
    hits++;
    req.resume();
    res.on('error', () => {});
    handler(res);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, hits: () => hits };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(outcome, 'the request must fail').toBeInstanceOf(Error);
  return outcome as Error;
}

describe('bytes read per response', () => {
  it('stops reading a streamed body past the cap (KitError naming the cap), without reading it whole', async () => {
    let written = 0;
    const s = await rawServer((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"notes":[');
      const chunk = `${'{"id":"x"},'.repeat(10_000)}`;
      const pump = () => {
        while (!res.destroyed && written < 200 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    });
    const started = performance.now();
    const error = await failure(get(client(s.url, { maxResponseBytes: 1024 * 1024 })));
    expect(error).toBeInstanceOf(KitError);
    expect(error).not.toBeInstanceOf(TargetUnavailable);
    expect(error.message).toMatch(/GET \/v2\/notes: the response is over 1048576 bytes/);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(written, 'the server was stopped long before 200 MB').toBeLessThan(100 * 1024 * 1024);
  });

  it('refuses at once a body whose Content-Length is over the cap; reads one under it', async () => {
    const s = await rawServer((res) => {
      const body = JSON.stringify({ pad: 'x'.repeat(5000) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.end(body);
    });
    await expect(get(client(s.url, { maxResponseBytes: 4096 }))).rejects.toThrow(/over 4096 bytes/);
    expect((await get(client(s.url, { maxResponseBytes: 8192 }))).status).toBe(200);
  });
});

describe('waits for rate limits are bounded', () => {
  it('waits out one stretch of refusals up to the cap, then refuses without waiting, also the next request', async () => {
    server = await recordingServer(() => ({ status: 429, headers: { 'retry-after': '1' } }));
    const c = client(server.url, { maxRetryAfterMs: 1500 });
    const started = performance.now();
    const first = await failure(get(c));
    expect(first).toBeInstanceOf(TargetUnavailable);
    expect(first.message).toMatch(/rate limit.*beyond the 2 s the kit waits/);
    // One wait of 1 s (within 1.5 s); the second would have ended 2 s after the first refusal.
    expect(server.seen).toHaveLength(2);
    const afterFirst = performance.now();
    expect(afterFirst - started).toBeGreaterThan(900);
    const second = await failure(get(c));
    expect(second.message).toMatch(/rate limit/);
    expect(server.seen).toHaveLength(3);
    expect(performance.now() - afterFirst, 'the stretch goes on: no second wait').toBeLessThan(500);
  });

  it('starts a new stretch after an answer that is not a refusal', async () => {
    server = await recordingServer((_, i) =>
      i === 2 ? { status: 200, body: {} } : { status: 429, headers: { 'retry-after': '1' } },
    );
    const c = client(server.url, { maxRetryAfterMs: 1500 });
    await failure(get(c)); // 429, wait, 429: refused
    expect((await get(c)).status).toBe(200); // the third answer
    await failure(get(c)); // 429 again: a new stretch, so one wait again
    expect(server.seen).toHaveLength(5);
  });

  it('does not wait past the run deadline, and sends nothing after it', async () => {
    server = await recordingServer(() => ({ status: 429, headers: { 'retry-after': '2' } }));
    const c = client(server.url, { deadlineAt: Date.now() + 1000, deadlineWhat: "the run's --max-duration of 1 s" });
    const started = performance.now();
    const error = await failure(get(c));
    expect(error.message).toMatch(/rate limit.*would run past the run's --max-duration of 1 s/);
    expect(performance.now() - started).toBeLessThan(500);
    await new Promise((r) => setTimeout(r, 1100));
    await expect(get(c)).rejects.toThrow(/not sent: the run's --max-duration of 1 s is over/);
    expect(server.seen).toHaveLength(1);
  });

  it('an empty bucket that resets beyond the cap: the next request is refused unsent, naming the rate limit', async () => {
    server = await recordingServer(() => ({
      status: 200,
      body: {},
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3600' },
    }));
    const c = client(server.url);
    await get(c);
    const started = performance.now();
    const error = await failure(get(c));
    expect(error).toBeInstanceOf(TargetUnavailable);
    expect(error.message).toMatch(
      /not sent: the target's rate limit: X-RateLimit-Remaining was 0, resetting in 3600 s; that is beyond the 60 s/,
    );
    expect(performance.now() - started).toBeLessThan(200);
    expect(server.seen).toHaveLength(1);
  });

  it('a 429 with an empty bucket and no Retry-After is waited for by its reset, when that is short', async () => {
    server = await recordingServer((_, i) =>
      i === 0
        ? { status: 429, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' } }
        : { status: 200, body: {} },
    );
    expect((await get(client(server.url))).status).toBe(200);
    expect(server.seen).toHaveLength(2);
  });
});

describe('a stopped run', () => {
  it("aborts a request in flight on a body that never ends, as the kit's error, and sends nothing more", async () => {
    const s = await rawServer((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 100);
    });
    const stop = new AbortController();
    const c = client(s.url, { signal: stop.signal });
    const pending = failure(get(c));
    setTimeout(() => stop.abort(new KitError('the run was stopped (SIGTERM) while this was in flight')), 300);
    const started = performance.now();
    const error = await pending;
    expect(error).toBeInstanceOf(KitError);
    expect(error).not.toBeInstanceOf(TargetUnavailable);
    expect(error.message).toMatch(/stopped \(SIGTERM\)/);
    expect(performance.now() - started).toBeLessThan(1500);
    await expect(get(c)).rejects.toThrow(/stopped/);
    expect(s.hits()).toBe(1);
  });

  it('aborts a rate-limit wait', async () => {
    server = await recordingServer(() => ({ status: 429, headers: { 'retry-after': '30' } }));
    const stop = new AbortController();
    const c = client(server.url, { signal: stop.signal });
    const pending = failure(get(c));
    setTimeout(() => stop.abort(new KitError('the run was stopped (SIGINT)')), 300);
    const started = performance.now();
    expect((await pending).message).toMatch(/stopped/);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('setDeadline bounds what is in flight and what follows (the sweep after an interrupt), and can be lifted', async () => {
    const s = await rawServer((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 100);
    });
    const c = client(s.url, { timeoutMs: 3000 });
    c.setDeadline(Date.now() + 500, "the sweep's bound");
    const started = performance.now();
    await expect(get(c)).rejects.toThrow(/timeout/);
    expect(performance.now() - started).toBeLessThan(1500);
    await expect(get(c)).rejects.toThrow(/not sent: the sweep's bound is over/);
    expect(s.hits()).toBe(1);
    c.setDeadline(undefined);
    // Lifted: the request goes out and waits its own timeout (3 s), not the old deadline's 0.5 s.
    const before = performance.now();
    await expect(get(c)).rejects.toThrow(/no complete answer within 3000 ms/);
    expect(performance.now() - before).toBeGreaterThan(2500);
    expect(s.hits()).toBe(2);
  });
});
