import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_CONTAINERS, MAX_BODY_DEPTH, MAX_BODY_MEMBERS } from '../../fake/http/parse.js';
import type { FakeRequest, FakeResponse } from '../../fake/http/types.js';
import { harness } from './helpers.js';

/**
 * FUZZ_RUNS lengthens every property of this file (default 4,000 random requests; the other
 * properties scale with it): `FUZZ_RUNS=40000 npx vitest run --project self test/fake/bad-input.property.test.ts`.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 4_000);
const SCALE = Math.max(0.01, RUNS / 4_000);
const runs = (base: number) => Math.max(1, Math.round(base * SCALE));
const TIMEOUT = 60_000 * Math.max(1, SCALE);
/** Every request, however hostile, is answered within this (generous: tests must not fail on a slow machine). */
const REQUEST_MS = 2_000;
/** The cases that used to be quadratic must be far below that bound (they took 1.5 to 20 s). */
const PATHOLOGICAL_MS = 1_000;
/** How much the worker's RSS may grow over one property (a leak grows without bound). */
const RSS_GROWTH_BYTES = 768 * 1024 * 1024;

/** Answers the request in bounded time, never 5xx, always JSON. */
function timed(h: ReturnType<typeof harness>, req: FakeRequest, boundMs = REQUEST_MS): FakeResponse {
  const started = performance.now();
  const response = h.core.handle(req);
  const ms = performance.now() - started;
  const what = `${req.method} ${req.url.slice(0, 120)} (${req.body?.length ?? 0} body bytes)`;
  expect(ms, `${what} took ${ms.toFixed(0)} ms`).toBeLessThan(boundMs);
  expect(response.status, `${what} -> ${response.text.slice(0, 300)}`).toBeLessThan(500);
  expect(() => JSON.parse(response.text), what).not.toThrow();
  return response;
}

const request = (method: string, url: string, body?: string, token = 'alice-token'): FakeRequest => ({
  method,
  url,
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  ...(body === undefined ? {} : { body }),
});

/** The fake still answers ordinary requests after the run. */
function stillAnswers(h: ReturnType<typeof harness>): void {
  const created = timed(
    h,
    request('POST', '/v2/notes', JSON.stringify({ content: 'after the fuzz\n- [ ] still here' })),
  );
  expect(created.status, created.text).toBe(200);
  expect(timed(h, request('GET', `/v2/notes/${(created.json as { id: string }).id}`)).status).toBe(200);
  expect(timed(h, request('POST', '/v2/notes/search', JSON.stringify({ query: 'fuzz' }))).status).toBe(200);
  expect(timed(h, request('GET', '/v2/notes?limit=5')).status).toBe(200);
}

function withinRss<T>(run: () => T): T {
  const before = process.memoryUsage().rss;
  const result = run();
  const grown = process.memoryUsage().rss - before;
  expect(grown, `RSS grew by ${(grown / 1048576).toFixed(0)} MiB`).toBeLessThan(RSS_GROWTH_BYTES);
  return result;
}

/** Every refusal leaves the store as it was: notes and collections, with their versions and links. */
function fingerprint(h: ReturnType<typeof harness>): string {
  const notes = [...h.ctx.store.notes.values()].map((n) => [
    n.id,
    n.version,
    n.content.length,
    n.createdAt,
    n.updatedAt,
    n.trashedAt,
    [...n.collectionIds].sort(),
  ]);
  const colls = [...h.ctx.store.collections.values()].map((c) => [
    c.id,
    c.title,
    c.description,
    c.updatedAt,
    [...c.noteIds].sort(),
  ]);
  return JSON.stringify([notes, colls, h.ctx.store.users.size, h.ctx.store.grants.size]);
}

const OPERATIONS: Array<[string, string]> = [
  ['POST', '/v2/notes'],
  ['GET', '/v2/notes'],
  ['POST', '/v2/notes/search'],
  ['GET', '/v2/notes/{n}'],
  ['PATCH', '/v2/notes/{n}'],
  ['DELETE', '/v2/notes/{n}'],
  ['PATCH', '/v2/notes/{n}/created-at'],
  ['GET', '/v2/notes/{n}/related-notes'],
  ['POST', '/v2/notes/{n}/trash'],
  ['POST', '/v2/notes/{n}/restore'],
  ['POST', '/v2/collections'],
  ['GET', '/v2/collections'],
  ['POST', '/v2/collections/search'],
  ['GET', '/v2/collections/{c}'],
  ['PATCH', '/v2/collections/{c}'],
  ['DELETE', '/v2/collections/{c}'],
  ['PUT', '/v2/collections/{c}/notes/{n}'],
  ['POST', '/v2/collections/{c}/notes/{n}/move'],
  ['DELETE', '/v2/collections/{c}/notes/{n}'],
  ['POST', '/_fixtures/users'],
  ['POST', '/_fixtures/grants'],
];

const weirdKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'content',
  'version',
  'id',
  'title',
  'query',
  'created_at',
  'collection_ids',
  'target_collection_id',
  '',
);
const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    '2026-01-01T00:00:00',
    '9999-12-31T23:59:59Z',
    '2026-02-30T00:00:00Z',
    '',
    ' ',
    '\u0000',
    'é'.repeat(600),
    -1,
    0,
    1e308,
    null,
    true,
  ),
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
const segment = fc.oneof(
  fc.constant('{id}'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.uuid(),
  fc.constantFrom('..', '%00', '%E0%A4%A', 'search'),
);
const query = fc
  .dictionary(
    fc.constantFrom(
      'limit',
      'offset',
      'order_by',
      'page',
      'snapshot_id',
      'include_note_content',
      'filter_by_created_after',
      'contains_images',
      'x',
    ),
    fc.oneof(fc.string({ maxLength: 10 }), fc.integer().map(String)),
    { maxKeys: 3 },
  )
  .map((q) => new URLSearchParams(q).toString());

describe('bad input is normal input', () => {
  it(
    'never answers 5xx, and a refusal changes nothing (thousands of random requests)',
    () =>
      withinRss(() => {
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
            const path = r.mutate
              ? `/v2/${r.mutate.join('/')}`.replaceAll('{id}', ids.n)
              : r.op[1].replace('{n}', ids.n).replace('{c}', ids.c);
            const req: FakeRequest = {
              method: r.op[0],
              url: r.query ? `${path}?${r.query}` : path,
              headers: { ...(r.auth ? { authorization: r.auth } : {}), ...(r.type ? { 'content-type': r.type } : {}) },
              ...(r.body === undefined ? {} : { body: r.body }),
            };
            const before = fingerprint(h);
            const response = timed(h, req);
            if (response.status >= 400) expect(fingerprint(h), `${req.method} ${req.url} changed state`).toBe(before);
            expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          }),
          { numRuns: RUNS, seed: 20261122 },
        );
        stillAnswers(h);
      }),
    TIMEOUT,
  );
});

/** Pieces that made the old content patterns backtrack, and markdown that is merely unusual. */
const TRICKY = [
  '![](a',
  '[](a',
  '[x](y.pdf',
  '![',
  '[',
  '](',
  '](a',
  ' "',
  '"',
  ')',
  '#',
  ' #',
  '# ',
  ' ',
  '\t',
  '\n',
  '- [ ] ',
  '- [x]',
  '* [ ]',
  'a.pdf',
  '.docx?',
  'é',
  '😀',
  '\u00a0',
  '\u2028',
  '![a](b "c',
  '[a](b.pdf#',
  '![](a ',
  'x',
];
/** Content made of a few tricky pieces, each repeated many times: up to the 200,000-character limit. */
const pathological = fc
  .array(fc.record({ piece: fc.constantFrom(...TRICKY), times: fc.integer({ min: 1, max: 60_000 }) }), {
    minLength: 1,
    maxLength: 4,
  })
  .map((parts) =>
    parts
      .map(({ piece, times }) => piece.repeat(times))
      .join('')
      .slice(0, 199_000),
  );

describe('requests that used to cost without bound', () => {
  it(
    'pathological markdown is created, updated, listed and searched far below the bound',
    () =>
      withinRss(() => {
        const h = harness();
        // The report's case first: 200,000 characters of `![](a`, about 20 s before.
        const cases = [
          '![](a'.repeat(40_000),
          '[](a'.repeat(50_000),
          `# a${' '.repeat(199_990)}b`,
          ...fc.sample(pathological, { numRuns: runs(40), seed: 13 }),
        ];
        for (const content of cases) {
          const created = timed(h, request('POST', '/v2/notes', JSON.stringify({ content })), PATHOLOGICAL_MS);
          if (created.status !== 200) {
            // Only the byte limit may refuse them (multi-byte pieces), and then nothing was stored.
            expect(created.text).toMatch(/bytes/);
            continue;
          }
          const { id, version } = created.json as { id: string; version: number };
          expect(
            timed(
              h,
              request('PATCH', `/v2/notes/${id}`, JSON.stringify({ content: `${content.slice(10)}![](b`, version })),
              PATHOLOGICAL_MS,
            ).status,
          ).toBe(200);
          timed(
            h,
            request('GET', '/v2/notes?contains_images=true&contains_files=true&include_note_content=true'),
            PATHOLOGICAL_MS,
          );
          timed(
            h,
            request('POST', '/v2/notes/search', JSON.stringify({ query: 'a pdf x', contains_images: true })),
            PATHOLOGICAL_MS,
          );
          timed(h, request('GET', `/v2/notes/${id}/related-notes`), PATHOLOGICAL_MS);
          expect(timed(h, request('DELETE', `/v2/notes/${id}`)).status).toBe(200);
        }
        stillAnswers(h);
      }),
    TIMEOUT,
  );

  it(
    'collection_titles: 100,000 unmatched titles among 1,000 other collections, and huge arrays everywhere',
    () =>
      withinRss(() => {
        const h = harness();
        for (let i = 0; i < 1_000; i++) h.call('POST', '/v2/collections', { title: `other ${i}` }, 'bob-token-0');
        const mine = (h.call('POST', '/v2/collections', { title: 'Mine' }).json as { id: string }).id;
        const titles = Array.from({ length: 100_000 }, (_, i) => `unmatched title ${i}`);
        const amplified = timed(
          h,
          request(
            'POST',
            '/v2/notes',
            JSON.stringify({ content: 'amplified', collection_titles: [...titles, 'MINE'] }),
          ),
          PATHOLOGICAL_MS,
        );
        expect(amplified.json).toMatchObject({ collection_ids: [mine] });
        const uuids = Array.from(
          { length: 100_000 },
          (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        );
        const before = fingerprint(h);
        const refusals: Array<[string, string, unknown]> = [
          ['POST', '/v2/notes', { content: 'x', collection_titles: [...titles, 5] }],
          ['POST', '/v2/notes', { content: 'x', collection_titles: ['é'.repeat(501), ...titles] }],
          ['POST', '/v2/notes/search', { query: 'x', collection_ids: [...uuids, 'not-a-uuid'] }],
          ['POST', '/v2/notes', { content: 'x', ...Object.fromEntries(titles.slice(0, 20_000).map((t) => [t, 1])) }],
          ['POST', '/v2/collections', { title: titles }],
          ['PATCH', `/v2/collections/${mine}`, { title: 'x', description: uuids }],
        ];
        for (const [method, url, body] of refusals) {
          const r = timed(h, request(method, url, JSON.stringify(body)), PATHOLOGICAL_MS);
          expect(r.status, `${method} ${url}: ${r.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        }
        expect(fingerprint(h)).toBe(before);
        // Accepted, and still bounded: many ids that name nothing, duplicates of one title, a deep filter list.
        timed(
          h,
          request('POST', '/v2/notes', JSON.stringify({ content: 'ids', collection_ids: uuids })),
          PATHOLOGICAL_MS,
        );
        timed(
          h,
          request(
            'POST',
            '/v2/notes',
            JSON.stringify({ content: 'dups', collection_titles: Array(100_000).fill('mine') }),
          ),
          PATHOLOGICAL_MS,
        );
        timed(
          h,
          request('POST', '/v2/notes/search', JSON.stringify({ query: 'ids dups', collection_ids: uuids })),
          PATHOLOGICAL_MS,
        );
        timed(
          h,
          request('POST', '/v2/notes', `{"content":"deep","x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`),
          PATHOLOGICAL_MS,
        );
        stillAnswers(h);
      }),
    TIMEOUT,
  );

  it(
    'timestamps of years 0000-9999 are kept exactly or refused with 4xx; impossible dates never roll over',
    () =>
      withinRss(() => {
        const h = harness();
        const pad = (n: number, w = 2) => String(n).padStart(w, '0');
        const stamp = fc
          .record({
            y: fc.integer({ min: 0, max: 9999 }),
            mo: fc.integer({ min: 0, max: 13 }),
            d: fc.integer({ min: 0, max: 32 }),
            hh: fc.integer({ min: 0, max: 24 }),
            mi: fc.integer({ min: 0, max: 60 }),
            ss: fc.integer({ min: 0, max: 60 }),
            ms: fc.integer({ min: 0, max: 999 }),
            offset: fc.constantFrom('Z', '+00:00', '-00:00', '+01:00', '-05:30', '+14:00', '+24:00', '+01:60', ''),
          })
          .map((t) => ({
            ...t,
            text: `${pad(t.y, 4)}-${pad(t.mo)}-${pad(t.d)}T${pad(t.hh)}:${pad(t.mi)}:${pad(t.ss)}.${pad(t.ms, 3)}${t.offset}`,
          }));
        fc.assert(
          fc.property(stamp, fc.constantFrom('note', 'collection', 'filter'), (t, where) => {
            const before = fingerprint(h);
            const r =
              where === 'filter'
                ? timed(h, request('GET', `/v2/notes?filter_by_created_before=${encodeURIComponent(t.text)}`))
                : timed(
                    h,
                    request(
                      'POST',
                      where === 'note' ? '/v2/notes' : '/v2/collections',
                      JSON.stringify(
                        where === 'note'
                          ? { content: 'dated', created_at: t.text }
                          : { title: 'dated', created_at: t.text },
                      ),
                    ),
                  );
            const days =
              t.mo === 2
                ? t.y % 4 === 0 && (t.y % 100 !== 0 || t.y % 400 === 0)
                  ? 29
                  : 28
                : [4, 6, 9, 11].includes(t.mo)
                  ? 30
                  : 31;
            const possible =
              t.mo >= 1 &&
              t.mo <= 12 &&
              t.d >= 1 &&
              t.d <= days &&
              t.hh <= 23 &&
              t.mi <= 59 &&
              t.ss <= 59 &&
              !['+24:00', '+01:60', ''].includes(t.offset);
            if (!possible) {
              expect(r.status, `${t.text} -> ${r.text}`).toBe(400);
              expect(fingerprint(h)).toBe(before);
            } else if (where !== 'filter' && t.offset === 'Z' && r.status === 200) {
              // Kept exactly: the instant comes back as it was sent.
              expect((r.json as { created_at: string }).created_at, t.text).toBe(t.text);
            } else if (r.status !== 200) {
              // A possible instant is refused only for being in the future or outside years 0000-9999 in UTC.
              expect(r.text, t.text).toMatch(/future|out of range/);
            }
          }),
          { numRuns: runs(1_500), seed: 13 },
        );
        stillAnswers(h);
      }),
    TIMEOUT,
  );

  // Query and body names are looked up as own properties of the route's name table (fake/http/wire-names.ts).
  it('names inherited from Object.prototype are refused like any other unknown name (4xx, nothing changed)', () => {
    const h = harness();
    const note = (h.call('POST', '/v2/notes', { content: 'proto' }).json as { id: string }).id;
    for (const name of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf']) {
      for (const [method, url, body] of [
        ['GET', `/v2/notes?${name}=1`, undefined],
        ['POST', `/v2/notes/search?${name}=1`, JSON.stringify({ query: 'proto' })],
        ['POST', '/v2/notes', `{"content":"x","${name}":1}`],
        ['PATCH', `/v2/notes/${note}`, `{"content":"x","version":1,"${name}":"y"}`],
        ['POST', '/v2/notes/search', `{"query":"x","${name}":{}}`],
        ['POST', '/v2/collections', `{"title":"x","${name}":null}`],
      ] as const) {
        const before = fingerprint(h);
        const r = timed(h, request(method, url, body));
        expect(r.status, `${name}: ${method} ${url} ${body ?? ''} -> ${r.text}`).toBeGreaterThanOrEqual(400);
        expect(fingerprint(h), `${name}: ${method} ${url}`).toBe(before);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }
    }
  });
});

describe('a body JSON.parse would take long to build is refused for its shape first', () => {
  it('refuses nesting, members and containers past their bounds, and accepts what is under them', () => {
    const h = harness();
    const nested = (depth: number) => `{"content":"x","collection_titles":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const send = (text: string) =>
      h.core.handle({
        method: 'POST',
        url: '/v2/notes',
        headers: { authorization: 'Bearer alice-token', 'content-type': 'application/json' },
        body: text,
      });
    expect(send(nested(MAX_BODY_DEPTH + 5)).status).toBe(400);
    expect(JSON.stringify(send(nested(MAX_BODY_DEPTH + 5)).json)).toContain('nests deeper than 32 levels');
    // Brackets inside strings are text, not nesting; escaped quotes do not end a string.
    expect(send(JSON.stringify({ content: `\\"${'['.repeat(100)}${':'.repeat(2_000)}` })).status).toBe(200);
    const members = (n: number) =>
      JSON.stringify({ content: 'x', ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1])) });
    expect(JSON.stringify(send(members(MAX_BODY_MEMBERS - 1)).json)).toContain('unknown field k0');
    expect(JSON.stringify(send(members(MAX_BODY_MEMBERS)).json)).toContain('more than 1000 object members');
    const arrays = (n: number) =>
      JSON.stringify({ content: 'x', collection_titles: Array.from({ length: n }, () => []) });
    expect(JSON.stringify(send(arrays(MAX_BODY_CONTAINERS - 2)).json)).toContain('collection_titles[0]');
    expect(JSON.stringify(send(arrays(MAX_BODY_CONTAINERS)).json)).toContain('more than 1000 objects and arrays');
    expect(h.ctx.store.notes.size).toBe(1);
  });
});
