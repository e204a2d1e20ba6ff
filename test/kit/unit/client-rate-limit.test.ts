import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TargetUnavailable } from '../../../kit/core/breaker.js';
import { TargetClient } from '../../../kit/core/client.js';
import { rateLimitStretch } from '../../../kit/core/run-folder.js';
import { gaps, type RecordingServer, recordingServer } from './recording-server.js';

/** How the client treats a target that rate-limits it: 429 + Retry-After, and X-RateLimit-Remaining. */
let server: RecordingServer;
const clients: TargetClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await server?.close();
});

function client(options: Partial<ConstructorParameters<typeof TargetClient>[0]> = {}): TargetClient {
  const c = new TargetClient({ baseUrl: server.url, timeoutMs: 5000, requestBudget: 1000, secrets: [], ...options });
  clients.push(c);
  return c;
}

const get = (c: TargetClient, extra: { acceptRateLimited?: boolean; ignoreRemaining?: boolean } = {}) =>
  c.send({ method: 'GET', path: '/v2/notes', token: 'tok', ...extra });

describe('429 and Retry-After', () => {
  it('waits the Retry-After seconds, then asks again and returns the answer', async () => {
    server = await recordingServer((_, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200, body: { ok: true } },
    );
    const c = client();
    const x = await get(c);
    expect(x.status).toBe(200);
    expect(x.json).toEqual({ ok: true });
    expect(server.seen).toHaveLength(2);
    expect(gaps(server.seen)[0]).toBeGreaterThanOrEqual(950);
  });

  it('gives up at once, as rate-limited, when Retry-After asks for longer than the kit waits', async () => {
    server = await recordingServer(() => ({ status: 429, headers: { 'retry-after': '30' } }));
    const c = client({ maxRetryAfterMs: 500 });
    const started = performance.now();
    const error = await get(c).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetUnavailable);
    expect((error as TargetUnavailable).why).toBe('rate-limited');
    expect((error as Error).message).toMatch(/asking to wait 30 s/);
    expect(performance.now() - started).toBeLessThan(400);
    expect(server.seen).toHaveLength(1);
  });

  it("waits one stretch of refusals a run, whichever of the run's processes met it first (run-folder.ts)", async () => {
    server = await recordingServer(() => ({ status: 429, headers: { 'retry-after': '1' } }));
    const dir = mkdtempSync(join(tmpdir(), 'nc-stretch-'));
    try {
      // The run command's client, then a worker's: one run folder.
      const first = client({ maxRetryAfterMs: 1500, rateLimitStretch: rateLimitStretch(dir) });
      await expect(get(first)).rejects.toThrow(/beyond the 2 s the kit waits/);
      expect(server.seen).toHaveLength(2); // it waited once
      const other = client({ maxRetryAfterMs: 1500, rateLimitStretch: rateLimitStretch(dir) });
      const started = performance.now();
      await expect(get(other)).rejects.toThrow(/beyond the 2 s the kit waits/);
      expect(performance.now() - started, 'the stretch went on: no second wait').toBeLessThan(700);
      expect(server.seen).toHaveLength(3);
      // Another run (its own folder) has a stretch of its own: it waits once too.
      mkdirSync(join(dir, 'other'));
      const alone = client({ maxRetryAfterMs: 1500, rateLimitStretch: rateLimitStretch(join(dir, 'other')) });
      await expect(get(alone)).rejects.toThrow(/rate limit/);
      expect(server.seen).toHaveLength(5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives up on a 429 without a usable Retry-After', async () => {
    server = await recordingServer(() => ({ status: 429, headers: { 'retry-after': 'soon' } }));
    await expect(get(client())).rejects.toThrow(/without a usable Retry-After/);
    expect(server.seen).toHaveLength(1);
  });

  it('asks at most three more times when the target keeps answering 429', async () => {
    server = await recordingServer(() => ({ status: 429, headers: { 'retry-after': '0' } }));
    await expect(get(client())).rejects.toThrow(/answered 429 \(rate limited\) 4 time\(s\)/);
    expect(server.seen).toHaveLength(4);
  });

  it('hands the 429 to a check that asks for it (the rate-limit checks)', async () => {
    server = await recordingServer(() => ({ status: 429, headers: { 'retry-after': '1' } }));
    expect((await get(client(), { acceptRateLimited: true })).status).toBe(429);
    expect(server.seen).toHaveLength(1);
  });
});

describe('X-RateLimit-Remaining', () => {
  const empty = (reset: string) => () => ({
    status: 200,
    body: {},
    headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
  });

  it('waits for X-RateLimit-Reset (seconds from now) before the next request when the bucket is empty', async () => {
    server = await recordingServer(empty('0.4'));
    const c = client();
    await get(c);
    await get(c);
    expect(gaps(server.seen)[0]).toBeGreaterThanOrEqual(380);
  });

  it('reads a reset in epoch seconds as an instant', async () => {
    server = await recordingServer((_, i) =>
      i === 0 ? empty(String((Date.now() + 500) / 1000))() : { status: 200, body: {} },
    );
    const c = client();
    await get(c);
    await get(c);
    expect(gaps(server.seen)[0]).toBeGreaterThanOrEqual(400);
    expect(gaps(server.seen)[0]).toBeLessThan(1500);
  });

  it('does not wait while requests remain, nor for a check that empties the bucket on purpose', async () => {
    server = await recordingServer((_, i) =>
      i === 0
        ? { status: 200, body: {}, headers: { 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': '5' } }
        : { status: 200, body: {}, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '5' } },
    );
    const c = client();
    await get(c);
    await get(c);
    await get(c, { ignoreRemaining: true });
    const [afterRemaining, afterEmpty] = gaps(server.seen);
    expect(afterRemaining).toBeLessThan(100);
    expect(afterEmpty).toBeLessThan(100);
  });
});
