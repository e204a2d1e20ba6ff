import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { Router } from '../../fake/http/router.js';
import type { FakeResponse } from '../../fake/http/types.js';
import { createFake, type FakeOptions } from '../../fake/index.js';
import { loadBuiltinProfile } from '../../spec/profile.js';
import { createSchemaRegistry } from '../../spec/schemas.js';
import { type Harness, harness } from './helpers.js';

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
    for (const r of [
      note,
      coll,
      call('PUT', `/v2/collections/${(coll.json as { id: string }).id}/notes/${(note.json as { id: string }).id}`),
      call('DELETE', `/v2/notes/${(note.json as { id: string }).id}`),
    ]) {
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
    expect(call('POST', '/v2/notes', { content: 'x', colection_ids: [] }).json).toMatchObject({
      error: { message: 'unknown field colection_ids (did you mean collection_ids?)' },
    });
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
      const r = core.handle({
        method: 'POST',
        url: '/v2/notes',
        headers: { ...auth, 'content-type': type ?? 'application/json' },
        body,
      });
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
    const first = call('GET', '/v2/notes?limit=1').json as {
      next_page: string;
      results: Array<{ id: string; etag: string }>;
    };
    expect(first.results[0]!.etag).toBeDefined();
    const second = call('GET', `/v2/notes?limit=1&cursor=${encodeURIComponent(first.next_page)}`).json as {
      results: Array<{ id: string }>;
    };
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
    const user = core.handle({
      method: 'POST',
      url: '/_fixtures/users',
      headers: admin,
      body: JSON.stringify({ quota: { limit: 2 } }),
    }).json as { token: string };
    const first = call('POST', '/v2/notes', { content: 'a' }, user.token).json as { id: string };
    for (let i = 0; i < 3; i++)
      expect(
        call('PATCH', `/v2/notes/${first.id}/created-at`, { created_at: '2020-01-01T00:00:00Z' }, user.token).status,
      ).toBe(200);
    expect(call('POST', '/v2/notes', { content: 'b' }, user.token).status).toBe(200);
    const over = call('POST', '/v2/notes', { content: 'c' }, user.token);
    expect(over.status).toBe(402);
    expect(over.json).toMatchObject({
      error: {
        type: 'quota_exceeded',
        details: { current_plan: 'free', used: 2, limit: 2, free_used: 2, free_limit: 2 },
        upgrade_info: { upgrade_url: expect.any(String) },
      },
    });
  });

  it('answers 429 with Retry-After when the bucket is empty and recovers as it leaks', () => {
    const h = harness();
    const admin = { authorization: `Bearer ${h.core.config.adminToken}`, 'content-type': 'application/json' };
    const user = h.core.handle({
      method: 'POST',
      url: '/_fixtures/users',
      headers: admin,
      body: JSON.stringify({ rate_limit: { requests: 3, requests_per_second: 1 } }),
    }).json as { token: string };
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
    expect(
      core.handle({ method: 'POST', url: '/_fixtures/users', headers: { authorization: 'Bearer alice-token' } }).status,
    ).toBe(401);
    expect(call('GET', '/_fixtures/stats').status).toBe(401);
  });
});

describe('routing results', () => {
  const router = new Router([
    { method: 'GET', path: '/v2/notes/{note_id}' },
    { method: 'PATCH', path: '/v2/notes/{note_id}' },
    { method: 'POST', path: '/v2/notes/search' },
  ]);

  it('returns matched, not found, allowed methods and malformed parameters instead of throwing', () => {
    expect(router.match('GET', '/v2/notes/abc')).toMatchObject({ kind: 'matched', params: { note_id: 'abc' } });
    expect(router.match('HEAD', '/v2/notes/a%20b')).toMatchObject({
      kind: 'matched',
      route: { method: 'GET' },
      params: { note_id: 'a b' },
    });
    expect(router.match('POST', '/v2/notes/search')).toMatchObject({
      kind: 'matched',
      route: { path: '/v2/notes/search' },
    });
    expect(router.match('GET', '/v2/nothing')).toEqual({ kind: 'not_found' });
    expect(router.match('DELETE', '/v2/notes/abc')).toEqual({
      kind: 'method_not_allowed',
      allowed: ['GET', 'PATCH', 'HEAD'],
    });
    expect(router.match('GET', '/v2/notes/%E0%A4%A')).toEqual({ kind: 'malformed_parameter', parameter: 'note_id' });
    expect(router.allowedMethods('/v2/notes/search').sort()).toEqual(['GET', 'HEAD', 'PATCH', 'POST']);
    expect(router.allowedMethods('/v2/else')).toEqual([]);
  });
});

describe('HEAD, 405 and CORS', () => {
  const origin = 'http://localhost:5173';
  const send = (h: Harness, method: string, url: string, headers: Record<string, string> = {}) =>
    h.core.handle({ method, url, headers });

  it('answers HEAD of a GET route as that GET without a body, after authentication', () => {
    const h = harness();
    const note = h.call('POST', '/v2/notes', { content: 'head' }).json as { id: string };
    expect(send(h, 'HEAD', `/v2/notes/${note.id}`).status).toBe(401);
    const get = h.call('GET', `/v2/notes/${note.id}`);
    const head = h.call('HEAD', `/v2/notes/${note.id}`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.json).toBeUndefined();
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    expect(h.call('HEAD', '/v2/notes?limit=nope').status).toBe(400);
  });

  it('refuses a wrong method with 405, an Allow header from the routing result and the profile body shape', () => {
    const h = harness();
    const wrong = h.call('PUT', '/v2/notes');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow!.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
    expect(wrong.json).toMatchObject({
      error: { type: 'method_not_allowed', message: expect.stringContaining('POST') },
    });
    const move = send(h, 'HEAD', `/v2/collections/${randomUUID()}/notes/${randomUUID()}/move`);
    expect(move.status).toBe(405);
    expect(move.headers.allow).toBe('POST, OPTIONS');
    const divergent = harness({ profile: 'fake-divergent' }).call('DELETE', '/v2/notes');
    expect(divergent.status).toBe(405);
    expect(divergent.json).toEqual({ code: 'method_not_allowed', detail: expect.stringContaining('GET') });
  });

  // CORS is the HTTP server's (@fastify/cors): in-process answers carry none.
  const overHttp = async (options: FakeOptions, run: (send: Send) => Promise<void>) => {
    const fake = await createFake({ users: ['alice-token'], ...options });
    try {
      await run(async (method, url, headers = {}) => {
        const res = await request(`${fake.url}${url}`, { method: method as 'GET', headers });
        const text = await res.body.text();
        const flat = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
        return { status: res.statusCode, headers: flat, text };
      });
    } finally {
      await fake.close();
    }
  };

  it('answers a preflight without a token, for known paths only', () =>
    overHttp({}, async (http) => {
      const pre = await http('OPTIONS', '/v2/notes/00000000-0000-4000-8000-000000000001', {
        origin,
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization, content-type, x-trace',
      });
      expect(pre.status).toBe(204);
      expect(pre.text).toBe('');
      expect(pre.headers['access-control-allow-origin']).toBe(origin);
      expect(pre.headers['access-control-allow-methods']!.split(', ').sort()).toEqual([
        'DELETE',
        'GET',
        'HEAD',
        'OPTIONS',
        'PATCH',
      ]);
      expect(pre.headers['access-control-allow-headers']).toBe('authorization, content-type, x-trace');
      expect(pre.headers.vary).toContain('Origin');
      expect((await http('OPTIONS', '/v2/nothing', { origin })).status).toBe(404);
      expect((await http('OPTIONS', '/_fixtures/users', { origin })).headers['access-control-allow-methods']).toBe(
        'POST, OPTIONS',
      );
    }));

  it('echoes the Origin and exposes the rate-limit names in effect on successes and refusals', async () => {
    await overHttp({}, async (http) => {
      for (const r of [
        await http('GET', '/v2/notes', { authorization: 'Bearer alice-token', origin }),
        await http('GET', '/v2/notes', { origin }),
      ]) {
        expect(r.headers['access-control-allow-origin']).toBe(origin);
        expect(r.headers.vary).toBe('Origin');
        const exposed = r.headers['access-control-expose-headers']!.split(', ');
        expect(exposed).toEqual(expect.arrayContaining(['X-RateLimit-Remaining', 'Retry-After']));
        expect(exposed.some((n) => n.startsWith('X-Complexity-'))).toBe(true);
      }
      const plain = await http('GET', '/v2/notes', { authorization: 'Bearer alice-token' });
      expect(plain.headers['access-control-allow-origin']).toBeUndefined();
      expect(plain.headers.vary).toBe('Origin');
    });
    await overHttp({ profile: 'fake-divergent' }, async (http) => {
      expect((await http('GET', '/v2/notes', { origin })).headers['access-control-expose-headers']).toBe(
        'X-RateLimit-Limit, X-RateLimit-Remaining, X-Complexity-Cost, X-Complexity-Remaining, Retry-After',
      );
    });
  });

  it('turns CORS off with cors: false (OPTIONS is then an unsupported method)', () =>
    overHttp({ cors: false }, async (http) => {
      const pre = await http('OPTIONS', '/v2/notes', { origin, 'access-control-request-method': 'GET' });
      expect(pre.status).toBe(405);
      expect(pre.headers.allow).not.toContain('OPTIONS');
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
      const get = await http('GET', '/v2/notes', { authorization: 'Bearer alice-token', origin });
      expect(get.headers.vary).toBeUndefined();
      expect(get.headers['access-control-allow-origin']).toBeUndefined();
    }));
});

type Send = (
  method: string,
  url: string,
  headers?: Record<string, string>,
) => Promise<{ status: number; headers: Record<string, string>; text: string }>;

describe('unknown names', () => {
  const INHERITED = ['toString', 'valueOf', 'constructor', 'hasOwnProperty', 'isPrototypeOf'];

  it('refuses names inherited from JavaScript objects like any other unknown name', () => {
    const h = harness();
    for (const name of INHERITED) {
      expect(h.call('GET', `/v2/notes?${name}=1`).json, name).toMatchObject({
        error: { message: `unknown query parameter ${name}` },
      });
      expect(h.call('POST', '/v2/notes', { content: 'x', [name]: 1 }).json, name).toMatchObject({
        error: { message: `unknown field ${name}` },
      });
      expect(h.call('POST', '/v2/notes/search', { query: 'x', [name]: true }).status, name).toBe(400);
    }
    expect(h.ctx.store.notes.size).toBe(0);
  });

  it('drops unknown query and body names with unknown_fields: ignore, and still reads the known ones', () => {
    const h = harness({ profile: { ...loadBuiltinProfile('fake'), unknown_fields: 'ignore' } });
    const created = h.call('POST', '/v2/notes', { content: 'kept', valueOf: 1, colour: 'red', collection_ids: [] });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ content: 'kept', collection_ids: [] });
    const list = h.call('GET', '/v2/notes?toString=1&limit=1&extra=yes');
    expect(list.status).toBe(200);
    expect((list.json as { results: unknown[] }).results).toHaveLength(1);
    expect(h.call('GET', '/v2/notes?limit=0&extra=1').status).toBe(400);
  });
});

describe('validation messages name the parameter as the client sent it', () => {
  const message = (r: FakeResponse) => {
    const body = r.json as { error?: { message: string }; detail?: string };
    return body.error?.message ?? body.detail;
  };

  it('with the default profile names', () => {
    const h = harness();
    expect(message(h.call('GET', '/v2/notes?collection_id=nope'))).toBe('collection_id must be a UUID');
    expect(message(h.call('GET', '/v2/notes?contains_open_tasks=yes'))).toBe(
      'contains_open_tasks must be true or false',
    );
    expect(message(h.call('GET', '/v2/notes?filter_by_created_after=2020-01-01'))).toMatch(/^filter_by_created_after /);
    expect(message(h.call('POST', '/v2/notes/search', { query: 'x', collection_ids: ['nope'] }))).toBe(
      'collection_ids[0] must be a UUID',
    );
    expect(message(h.call('POST', '/v2/notes', { content: 'x', collection_ids: ['not-a-uuid'] }))).toBe(
      'collection_ids[0] must be a UUID',
    );
  });

  it('with the divergent profile names', () => {
    const h = harness({ profile: 'fake-divergent' });
    expect(message(h.call('GET', '/v2/notes?has_open_tasks=yes'))).toBe('has_open_tasks must be true or false');
    expect(message(h.call('GET', '/v2/notes?with_content=1'))).toBe('with_content must be true or false');
    expect(message(h.call('POST', '/v2/notes/search', { query: 'x', in_collections: ['nope'] }))).toBe(
      'in_collections[0] must be a UUID',
    );
    expect(message(h.call('POST', '/v2/notes/search', { query: 'x', has_images: 'yes' }))).toMatch(/^has_images /);
    expect(message(h.call('POST', '/v2/collections/search', { q: 5 }))).toBe('q must be a string');
    expect(message(h.call('GET', '/v2/collections?created_from=yesterday'))).toMatch(/^created_from /);
    expect(message(h.call('POST', '/v2/notes', {}))).toBe('content is required');
  });
});

describe('capture and the smaller agreements with the document', () => {
  it('accepts endpoints.capture with request_id only and files the input as a note before the next request', () => {
    const h = harness();
    const captured = h.call('POST', '/v2/mem-it', { input: 'Captured\nfrom the share sheet', context: 'phone' });
    expect(captured.status).toBe(200);
    expect(Object.keys(captured.json as object)).toEqual(['request_id']);
    expect(createSchemaRegistry().validate('CaptureAccepted', captured.json, { strict: true })).toEqual([]);
    // Asynchronous: nothing exists when the answer is given; the next request finds the note.
    expect(h.ctx.store.notes.size).toBe(0);
    const listed = h.call('GET', '/v2/notes');
    expect((listed.json as { results: Array<{ title: string }> }).results.map((r) => r.title)).toEqual(['Captured']);
    const backdated = h.call('POST', '/v2/mem-it', { input: 'Old thought', timestamp: '2024-02-03T04:05:06+01:00' });
    expect(backdated.status).toBe(200);
    const old = (h.call('GET', '/v2/notes?order_by=created_at').json as { results: Array<Record<string, string>> })
      .results;
    expect(old.find((n) => n.title === 'Old thought')?.created_at).toBe('2024-02-03T03:05:06.000Z');
    // Checked at once, like a create: nothing is queued for a refused capture.
    for (const [body, message] of [
      [{}, 'input is required'],
      [{ input: '   ' }, 'input must contain at least one non-whitespace character'],
      [{ input: 'x'.repeat(200_001) }, 'input must have at most 200000 characters (has 200001)'],
      [{ input: 'x', instructions: 5 }, 'instructions must be a string'],
      [{ input: 'x', timestamp: '2999-01-01T00:00:00Z' }, 'timestamp must not be in the future'],
      [{ input: 'x', context: null }, 'context must be a string'],
      [{ content: 'x' }, 'unknown field content (did you mean input?)'],
    ] as const) {
      const refused = h.call('POST', '/v2/mem-it', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect((refused.json as { error: { message: string } }).error.message).toBe(message);
    }
    h.call('GET', '/v2/notes');
    expect(h.ctx.store.notes.size).toBe(2);
    expect(h.core.handle({ method: 'POST', url: '/v2/mem-it', headers: {} }).status).toBe(401);
    const divergent = harness({ profile: 'fake-divergent' });
    expect(divergent.call('PUT', '/v2/capture', { text: 'y', hint: 'z' }).status).toBe(200);
    expect(divergent.call('PUT', '/v2/capture', {}).json).toMatchObject({ detail: 'text is required' });
  });

  it('needs a body with a string query, if any, on collection search (openapi.yaml and the document)', () => {
    const h = harness();
    expect(h.call('POST', '/v2/collections/search').status).toBe(400);
    expect(h.call('POST', '/v2/collections/search', { query: null }).status).toBe(400);
    expect(h.call('POST', '/v2/collections/search', {}).status).toBe(200);
    expect(h.call('POST', '/v2/collections/search', { query: 'x' }).status).toBe(200);
  });
});
