import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../fake/clock.js';
import { createFake } from '../../fake/index.js';
import { isWarm } from '../../fake/warm-up.js';

/** The same small workload on a fresh seeded fake: every answer but its request id. */
async function answers(warmUp: boolean): Promise<string[]> {
  const clock = new ManualClock(Date.parse('2025-03-01T00:00:00Z'));
  const fake = await createFake({ users: ['alice-token-1'], listen: false, seed: 5, clock, warmUp });
  const call = (method: string, url: string, body?: unknown) => {
    const res = fake.handle({
      method,
      url,
      headers: { authorization: 'Bearer alice-token-1', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    clock.advance(1);
    return res;
  };
  const out: string[] = [];
  const keep = (res: { status: number; json: unknown }) =>
    out.push(`${res.status} ${JSON.stringify(res.json, (k, v) => (k === 'request_id' ? undefined : v))}`);
  const first = call('POST', '/v2/notes', { content: '# Garden\nİstanbul roses and ΟΔΟΣ' });
  keep(first);
  keep(call('POST', '/v2/notes', { content: 'roses\ngarden roses' }));
  keep(call('POST', '/v2/notes/search', { query: 'ROSES garden' }));
  keep(call('GET', `/v2/notes/${(first.json as { id: string }).id}/related-notes`));
  keep(call('GET', '/v2/notes?limit=1'));
  keep({ status: 0, json: fake.fixtures.stats() });
  await fake.close();
  return out;
}

describe('compiler warm-up (fake/warm-up.ts)', () => {
  it('runs once per process on a throwaway fake and changes no answer, ids and counts included', async () => {
    // The fast tier shares a worker between files (vitest isolate: false): another file's fake
    // may have warmed this process already, so the cold run is not asserted cold.
    const cold = await answers(false);
    const warm = await answers(true);
    expect(isWarm()).toBe(true);
    expect(warm).toEqual(cold);
  });
});
