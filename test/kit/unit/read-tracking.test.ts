import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../kit/core/client.js';
import { ReadLog, trackReads } from '../../../kit/core/read-tracking.js';

function exchange(method: string, path: string, status: number): Exchange {
  return { method, path, requestHeaders: {}, status, headers: {}, text: '{}', json: {}, durationMs: 1 };
}

/** The exchange a failure judged is the one whose answer was read last, not the last one sent. */
describe('read tracking', () => {
  it('names the exchange read last, within a verify() when it read one', () => {
    const log = new ReadLog();
    const sent = [exchange('POST', '/v2/notes', 422), exchange('PATCH', '/v2/notes/x', 409)];
    const [create, patch] = sent.map((x, i) => trackReads(x, () => log.read(i)));
    expect(log.lastReadSince()).toBeUndefined();
    void patch!.status;
    const mark = log.mark();
    expect(log.lastReadSince(mark)).toBeUndefined();
    void create!.json;
    expect(log.lastReadSince(mark)).toBe(0);
    expect(log.lastReadSince()).toBe(0);
    // The request line is not the answer: reading it judges nothing.
    void patch!.method;
    void patch!.path;
    expect(log.lastReadSince()).toBe(0);
  });

  it('leaves the exchange itself unchanged (values, spreading, writes by the api layer)', () => {
    const x = exchange('GET', '/v2/notes', 200);
    const tracked = trackReads(x, () => {});
    expect({ ...tracked }).toEqual(x);
    tracked.schemaProblems = ['p'];
    expect(x.schemaProblems).toEqual(['p']);
  });
});
