import { describe, expect, it } from 'vitest';
import { harness } from './helpers.js';

describe('http layer', () => {
  it('routes, and refuses unknown paths, wrong methods and bad path ids with 4xx', () => {
    const { call } = harness();
    expect(call('GET', '/v2/nothing').status).toBe(404);
    const wrong = call('PUT', '/v2/notes');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toContain('POST');
    expect(call('GET', '/v2/notes/not-a-uuid').status).toBe(400);
    expect(call('GET', '/v2/notes/%E0%A4%A').status).toBe(400);
  });

  it('requires a bearer token on every endpoint', () => {
    const { core } = harness();
    for (const authorization of [undefined, 'Bearer nope-nope', 'Basic YWxpY2U6eA==', 'Bearer', 'alice-token']) {
      const r = core.handle({ method: 'GET', url: '/v2/notes', headers: authorization ? { authorization } : {} });
      expect(r.status, String(authorization)).toBe(401);
      expect(r.json).toMatchObject({ error: { type: 'unauthenticated' } });
    }
  });

  it('adds request_id to every success and answers 200 for creates, deletes and membership', () => {
    const { call } = harness();
    const note = call('POST', '/v2/notes', { content: 'x' });
    const coll = call('POST', '/v2/collections', { title: 'c' });
    const ids = new Set<string>();
    for (const r of [note, coll,
      call('PUT', `/v2/collections/${(coll.json as { id: string }).id}/notes/${(note.json as { id: string }).id}`),
      call('DELETE', `/v2/notes/${(note.json as { id: string }).id}`)]) {
      expect(r.status).toBe(200);
      expect(typeof (r.json as { request_id: string }).request_id).toBe('string');
      ids.add((r.json as { request_id: string }).request_id);
    }
    expect(ids.size).toBe(4);
  });

  it('refuses unknown and repeated query parameters and unknown body fields', () => {
    const { call } = harness();
    expect(call('GET', '/v2/notes?cursorz=1').status).toBe(400);
    expect(call('GET', '/v2/notes?limit=1&limit=2').status).toBe(400);
    expect(call('POST', '/v2/notes', { content: 'x', colection_ids: [] }).json).toMatchObject({ error: { message: 'unknown field colection_ids' } });
  });

  it('refuses malformed, non-UTF-8, polluting and non-JSON bodies without changing anything', () => {
    const { core, call, ctx } = harness();
    const auth = { authorization: 'Bearer alice-token' };
    const bad: Array<{ body: Uint8Array | string; type?: string }> = [
      { body: '{"content": ' },
      { body: new Uint8Array([0x7b, 0x22, 0x63, 0xff, 0xfe, 0x22, 0x7d]) },
      { body: '{"content":"x","__proto__":{"admin":true}}' },
      { body: '{"content":"x","collection_ids":[{"constructor":{"prototype":1}}]}' },
      { body: '['.repeat(100_000) + ']'.repeat(100_000) },
      { body: 'content=x', type: 'application/x-www-form-urlencoded' },
      { body: '"just a string"' },
    ];
    for (const { body, type } of bad) {
      const r = core.handle({ method: 'POST', url: '/v2/notes', headers: { ...auth, 'content-type': type ?? 'application/json' }, body });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    expect(ctx.store.notes.size).toBe(0);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(call('POST', '/v2/notes', { content: 'ok' }).status).toBe(200);
  });

  it('follows the divergent profile: statuses, error body, names, endpoints and presentation', () => {
    const { call } = harness({ profile: 'fake-divergent' });
    const bad = call('POST', '/v2/notes', {});
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual({ code: 'invalid_request', detail: 'content is required' });
    const note = call('POST', '/v2/notes', { content: '# Heading #\nbody' }).json as Record<string, string>;
    expect(note.title).toBe('Heading');
    expect(note.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+02:00$/);
    expect(note.request_id).toMatch(/^req_/);
    expect(note.server_version).toBeDefined();
    expect(call('GET', '/v2/notes?page=x').status).toBe(422);
    call('POST', '/v2/notes', { content: 'two' });
    const first = call('GET', '/v2/notes?limit=1').json as { next_page: string; results: Array<{ id: string; etag: string }> };
    expect(first.results[0]!.etag).toBeDefined();
    const second = call('GET', `/v2/notes?limit=1&cursor=${encodeURIComponent(first.next_page)}`).json as { results: Array<{ id: string }> };
    expect(second.results[0]!.id).not.toBe(first.results[0]!.id);
    expect(call('POST', `/v2/notes/${note.id}/trash`).status).toBe(200);
    expect(call('PUT', `/v2/trash/${note.id}/restore`).status).toBe(200);
    expect(call('POST', `/v2/notes/${note.id}/restore`).status).toBe(404);
    expect(call('GET', '/v2/nope').status).toBe(404);
    expect(call('PATCH', `/v2/notes/${note.id}`, { content: 'x', version: 7 }).status).toBe(412);
  });
});

describe('quota and rate limits', () => {
  it('refuses a create over quota with the documented body; set-created-at does not count', () => {
    const { core, call } = harness();
    const admin = { authorization: `Bearer ${core.config.adminToken}`, 'content-type': 'application/json' };
    const user = core.handle({ method: 'POST', url: '/_fixtures/users', headers: admin, body: JSON.stringify({ quota: { limit: 2 } }) }).json as { token: string };
    const first = call('POST', '/v2/notes', { content: 'a' }, user.token).json as { id: string };
    for (let i = 0; i < 3; i++) expect(call('PATCH', `/v2/notes/${first.id}/created-at`, { created_at: '2020-01-01T00:00:00Z' }, user.token).status).toBe(200);
    expect(call('POST', '/v2/notes', { content: 'b' }, user.token).status).toBe(200);
    const over = call('POST', '/v2/notes', { content: 'c' }, user.token);
    expect(over.status).toBe(402);
    expect(over.json).toMatchObject({
      error: { type: 'quota_exceeded', details: { current_plan: 'free', used: 2, limit: 2, free_used: 2, free_limit: 2 }, upgrade_info: { upgrade_url: expect.any(String) } },
    });
  });

  it('answers 429 with Retry-After when the bucket is empty and recovers as it leaks', () => {
    const h = harness();
    const admin = { authorization: `Bearer ${h.core.config.adminToken}`, 'content-type': 'application/json' };
    const user = h.core.handle({ method: 'POST', url: '/_fixtures/users', headers: admin, body: JSON.stringify({ rate_limit: { requests: 3, requests_per_second: 1 } }) }).json as { token: string };
    const statuses = Array.from({ length: 4 }, () => h.call('GET', '/v2/notes', undefined, user.token));
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(statuses[3]!.headers['retry-after']).toBe('1');
    expect(statuses[2]!.headers['x-ratelimit-remaining']).toBe('0');
    expect(statuses[0]!.headers['x-complexity-remaining']).toBeDefined();
    h.clock.advance(1000);
    expect(h.call('GET', '/v2/notes', undefined, user.token).status).toBe(200);
  });

  it('guards the fixture API with the admin token', () => {
    const { core, call } = harness();
    expect(core.handle({ method: 'POST', url: '/_fixtures/users', headers: { authorization: 'Bearer alice-token' } }).status).toBe(401);
    expect(call('GET', '/_fixtures/stats').status).toBe(401);
  });
});
