import { afterEach, describe, expect, it } from 'vitest';
import { REMOTE_BUDGETS, resolveBudgets } from '../../../kit/budgets.js';
import { TargetClient } from '../../../kit/core/client.js';
import { loadBuiltinProfile } from '../../../spec/profile.js';
import { KitError } from '../../../suites/harness/errors.js';
import { type RecordingServer, recordingServer } from './recording-server.js';

/** The client's pacing (requests per second) and request budget, against a local recording server. */
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

const get = (c: TargetClient) => c.send({ method: 'GET', path: '/v2/notes', token: 'tok' });

describe('client pacing', () => {
  it('spaces requests 1/rps apart (20 per second: 50 ms), measured where they arrive', async () => {
    server = await recordingServer();
    const c = client({ requestsPerSecond: 20 });
    const start = performance.now();
    for (let i = 0; i < 6; i++) await get(c);
    expect(server.seen).toHaveLength(6);
    // Slots are 50 ms apart: request i cannot arrive before slot i. Lower bounds only, from the
    // start, so a loaded machine (arrivals late, never early) cannot make this fail.
    for (const [i, seen] of server.seen.entries()) expect(seen.at - start).toBeGreaterThanOrEqual(i * 50 - 5);
  });

  it('keeps the pace across concurrent sends (one schedule for the client, not per caller)', async () => {
    server = await recordingServer();
    const c = client({ requestsPerSecond: 25 });
    const start = performance.now();
    await Promise.all(Array.from({ length: 5 }, () => get(c)));
    const sorted = [...server.seen].sort((a, b) => a.at - b.at);
    for (const [i, seen] of sorted.entries()) expect(seen.at - start).toBeGreaterThanOrEqual(i * 40 - 5);
  });

  it("sends at once without a rate (the control: these gaps are far below a paced client's)", async () => {
    server = await recordingServer();
    const c = client();
    for (let i = 0; i < 6; i++) await get(c);
    expect(server.seen[5]!.at - server.seen[0]!.at).toBeLessThan(150);
  });
});

describe('request budget', () => {
  it('refuses the request after the budget, before sending it', async () => {
    server = await recordingServer();
    const c = client({ requestBudget: 3 });
    for (let i = 0; i < 3; i++) expect((await get(c)).status).toBe(200);
    const error = await get(c).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KitError);
    expect((error as Error).message).toMatch(/request budget of 3 is spent/);
    expect(server.seen).toHaveLength(3);
    expect(c.sent).toBe(3);
  });

  it('counts the retries of a 429 against the budget', async () => {
    server = await recordingServer((_, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '0' } } : { status: 200, body: {} },
    );
    const c = client({ requestBudget: 2 });
    expect((await get(c)).status).toBe(200);
    expect(c.sent).toBe(2);
    await expect(get(c)).rejects.toThrow(/request budget of 2 is spent/);
    expect(server.seen).toHaveLength(2);
  });
});

describe('the pace of a run (kit/budgets.ts)', () => {
  it('never paces the embedded fake, whatever the profile declares (the fake profiles declare 1000/s)', () => {
    for (const name of ['fake', 'fake-divergent', 'hosted'] as const) {
      expect(resolveBudgets(loadBuiltinProfile(name), true).requests_per_second, name).toBeUndefined();
    }
    const declared = { ...loadBuiltinProfile('fake'), budgets: { requests_per_second: 3 } };
    expect(resolveBudgets(declared, true).requests_per_second).toBeUndefined();
  });

  it("paces a remote target by its profile, else by the remote default (the fake's profile when served from a container)", () => {
    expect(resolveBudgets(loadBuiltinProfile('fake'), false).requests_per_second).toBe(1000);
    expect(resolveBudgets(loadBuiltinProfile('hosted'), false).requests_per_second).toBe(
      REMOTE_BUDGETS.requests_per_second,
    );
  });
});
