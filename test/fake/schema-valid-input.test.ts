import { generateSync, type JsonSchema, type Random } from 'json-schema-faker';
import { describe, expect, it } from 'vitest';
import { loadOpenApi } from '../../spec/openapi.js';
import { createSchemaRegistry } from '../../spec/schemas.js';
import { harness, T0 } from './helpers.js';

/**
 * The other side of "bad input gets a 4xx": bodies that json-schema-faker generates from the
 * request schemas of openapi.yaml are valid by the document, so the fake must accept every one
 * with 200 and a response valid against its schema. A fake stricter than the document would
 * otherwise go unnoticed, since the suites only ever send the bodies they were written with.
 */

const doc = loadOpenApi();
const schemas = createSchemaRegistry(doc);
const components = doc.components as Record<string, unknown>;

/** Request timestamps must carry an offset and not be in the future: past instants, with offsets. */
const pastDateTime = (random: Random): string => {
  const ms = T0 - 1000 - random.int(0, 10 * 365 * 86_400) * 1000 - random.int(0, 999);
  const minutes = random.pick([0, 60, -300, 330, 840, -720]);
  if (minutes === 0) return new Date(ms).toISOString();
  const wall = new Date(ms + minutes * 60_000).toISOString().slice(0, 23);
  const abs = Math.abs(minutes);
  return `${wall}${minutes > 0 ? '+' : '-'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
};

/** The schema with string lengths capped: json-schema-faker spends ~0.1 s per 200,000-character content, and the limits have checks of their own. */
function capped(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(capped);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === 'maxLength' && typeof v === 'number' ? Math.min(v, 200) : capped(v),
    ]),
  );
}

function bodies(component: string, count: number): unknown[] {
  const schema = capped({ ...(doc.components.schemas as Record<string, object>)[component], components }) as JsonSchema;
  return Array.from({ length: count }, (_, seed) =>
    generateSync(schema, {
      seed: seed + 1,
      maxLength: 60,
      maxItems: 3,
      optionalsProbability: 0.6,
      formats: { 'date-time': pastDateTime },
    }),
  );
}

describe('bodies valid by the request schemas are accepted', () => {
  const RUNS = 150;

  it('POST /v2/notes, POST /v2/collections and PATCH /v2/collections/{id}', () => {
    const h = harness();
    const cases: Array<[string, string, string, (b: unknown) => string]> = [
      ['NoteCreateRequest', 'POST', 'NoteCreateResponse', () => '/v2/notes'],
      ['CollectionCreateRequest', 'POST', 'CollectionFields', () => '/v2/collections'],
    ];
    for (const [request, method, response, path] of cases) {
      for (const body of bodies(request, RUNS)) {
        const r = h.call(method, path(body), body);
        expect(r.status, `${method} ${path(body)} ${JSON.stringify(body)} -> ${r.text}`).toBe(200);
        expect(schemas.validate(response, r.json), JSON.stringify(r.json)).toEqual([]);
      }
    }
    const id = (h.call('POST', '/v2/collections', { title: 'patched' }).json as { id: string }).id;
    for (const body of bodies('CollectionUpdateRequest', RUNS)) {
      const r = h.call('PATCH', `/v2/collections/${id}`, body);
      expect(r.status, `PATCH ${JSON.stringify(body)} -> ${r.text}`).toBe(200);
      expect(schemas.validate('CollectionFields', r.json)).toEqual([]);
    }
  });

  it('POST /v2/notes/search and POST /v2/collections/search', () => {
    const h = harness();
    h.call('POST', '/v2/notes', { content: 'a note to find\n- [ ] open task' });
    for (const [request, path, response] of [
      ['NoteSearchRequest', '/v2/notes/search', 'NoteSearchResponse'],
      ['CollectionSearchRequest', '/v2/collections/search', 'CollectionSearchResponse'],
    ] as const) {
      for (const body of bodies(request, RUNS)) {
        const r = h.call('POST', path, body);
        expect(r.status, `POST ${path} ${JSON.stringify(body)} -> ${r.text}`).toBe(200);
        expect(schemas.validate(response, r.json)).toEqual([]);
      }
    }
  });
});
