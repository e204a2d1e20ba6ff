import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FakeRequest } from '../../fake/http/types.js';
import { harness } from './helpers.js';

/** Every refusal leaves the store as it was: notes and collections, with their versions and links. */
function fingerprint(h: ReturnType<typeof harness>): string {
  const notes = [...h.ctx.store.notes.values()].map((n) => [n.id, n.version, n.content.length, n.createdAt, n.updatedAt, n.trashedAt, [...n.collectionIds].sort()]);
  const colls = [...h.ctx.store.collections.values()].map((c) => [c.id, c.title, c.description, c.updatedAt, [...c.noteIds].sort()]);
  return JSON.stringify([notes, colls, h.ctx.store.users.size, h.ctx.store.grants.size]);
}

const OPERATIONS: Array<[string, string]> = [
  ['POST', '/v2/notes'], ['GET', '/v2/notes'], ['POST', '/v2/notes/search'], ['GET', '/v2/notes/{n}'], ['PATCH', '/v2/notes/{n}'],
  ['DELETE', '/v2/notes/{n}'], ['PATCH', '/v2/notes/{n}/created-at'], ['GET', '/v2/notes/{n}/related-notes'], ['POST', '/v2/notes/{n}/trash'],
  ['POST', '/v2/notes/{n}/restore'], ['POST', '/v2/collections'], ['GET', '/v2/collections'], ['POST', '/v2/collections/search'],
  ['GET', '/v2/collections/{c}'], ['PATCH', '/v2/collections/{c}'], ['DELETE', '/v2/collections/{c}'], ['PUT', '/v2/collections/{c}/notes/{n}'],
  ['POST', '/v2/collections/{c}/notes/{n}/move'], ['DELETE', '/v2/collections/{c}/notes/{n}'], ['POST', '/_fixtures/users'], ['POST', '/_fixtures/grants'],
];

const weirdKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'content', 'version', 'id', 'title', 'query', 'created_at', 'collection_ids', 'target_collection_id', '');
const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('2026-01-01T00:00:00', '9999-12-31T23:59:59Z', '2026-02-30T00:00:00Z', '', ' ', '\u0000', 'é'.repeat(600), -1, 0, 1e308, null, true),
);
const hostileObject = fc.dictionary(fc.oneof(weirdKey, fc.string({ maxLength: 8 })), hostileValue, { maxKeys: 6 });
const body = fc.oneof(
  hostileObject.map((o) => JSON.stringify(o)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 40 }),
  fc.uint8Array({ maxLength: 64 }),
  fc.constant('{"content":"x"'),
  fc.constant('{"__proto__":{"polluted":1},"content":"x"}'),
);
const segment = fc.oneof(fc.constant('{id}'), fc.string({ maxLength: 12 }).map(encodeURIComponent), fc.uuid(), fc.constantFrom('..', '%00', '%E0%A4%A', 'search'));
const query = fc.dictionary(fc.constantFrom('limit', 'offset', 'order_by', 'page', 'snapshot_id', 'include_note_content', 'filter_by_created_after', 'contains_images', 'x'), fc.oneof(fc.string({ maxLength: 10 }), fc.integer().map(String)), { maxKeys: 3 })
  .map((q) => new URLSearchParams(q).toString());

describe('bad input is normal input', () => {
  it('never answers 5xx, and a refusal changes nothing (thousands of random requests)', () => {
    const h = harness();
    const note = h.call('POST', '/v2/notes', { content: 'seed note\n- [ ] task' }).json as { id: string };
    const coll = h.call('POST', '/v2/collections', { title: 'seed' }).json as { id: string };
    const ids = { n: note.id, c: coll.id };
    const request = fc.record({
      op: fc.constantFrom(...OPERATIONS),
      mutate: fc.option(fc.array(segment, { minLength: 1, maxLength: 5 }), { nil: undefined }),
      query,
      body: fc.option(body, { nil: undefined }),
      auth: fc.constantFrom('Bearer alice-token', 'Bearer bob-token-0', undefined, 'Bearer x', 'Basic abc'),
      type: fc.constantFrom('application/json', undefined, 'text/plain', 'application/json; charset=latin1'),
    });
    fc.assert(
      fc.property(request, (r) => {
        const path = r.mutate ? `/v2/${r.mutate.join('/')}`.replaceAll('{id}', ids.n) : r.op[1].replace('{n}', ids.n).replace('{c}', ids.c);
        const req: FakeRequest = {
          method: r.op[0],
          url: r.query ? `${path}?${r.query}` : path,
          headers: { ...(r.auth ? { authorization: r.auth } : {}), ...(r.type ? { 'content-type': r.type } : {}) },
          ...(r.body === undefined ? {} : { body: r.body }),
        };
        const before = fingerprint(h);
        const response = h.core.handle(req);
        expect(response.status, `${req.method} ${req.url} -> ${response.text}`).toBeLessThan(500);
        expect(() => JSON.parse(response.text)).not.toThrow();
        if (response.status >= 400) expect(fingerprint(h), `${req.method} ${req.url} changed state`).toBe(before);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: 4000, seed: 20261122 },
    );
  });
});
