import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atSize, charCount, LIMITS, pastSize } from '../../spec/limits.js';
import { loadOpenApi } from '../../spec/openapi.js';

type Node = Record<string, unknown>;

/** The schema a $ref names, or the schema itself. */
function resolve(doc: Node, schema: unknown): Node {
  const ref = (schema as Node | undefined)?.$ref;
  if (typeof ref !== 'string') return (schema ?? {}) as Node;
  return resolve(
    doc,
    ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Node)[key], doc),
  );
}

/** The query parameter of an operation, by name, with its $ref resolved. */
function queryParam(doc: Node, operationId: string, name: string): Node {
  for (const item of Object.values(doc.paths as Node)) {
    for (const op of Object.values(item as Node)) {
      if ((op as Node)?.operationId !== operationId) continue;
      for (const p of ((op as Node).parameters as unknown[]) ?? []) {
        const param = resolve(doc, p);
        if (param.name === name && param.in === 'query') return resolve(doc, param.schema);
      }
    }
  }
  throw new Error(`${operationId} has no query parameter ${name}`);
}

function property(doc: Node, component: string, field: string): Node {
  const schemas = (doc.components as { schemas: Node }).schemas;
  const properties = resolve(doc, schemas[component]).properties as Node;
  return resolve(doc, properties[field]);
}

describe('the documented limits (spec/limits.ts)', () => {
  const doc = loadOpenApi() as unknown as Node;

  it('are the numbers openapi.yaml states where it can state them', () => {
    expect(property(doc, 'NoteCreateRequest', 'content').maxLength).toBe(LIMITS.noteContentCreate.chars);
    expect(property(doc, 'NoteUpdateRequest', 'content').maxLength).toBe(LIMITS.noteContentUpdate.chars);
    expect((property(doc, 'NoteCreateRequest', 'collection_titles').items as Node).maxLength).toBe(
      LIMITS.collectionTitlesEntry.chars,
    );
    expect(property(doc, 'CollectionCreateRequest', 'title').maxLength).toBe(LIMITS.collectionTitle.chars);
    expect(property(doc, 'CollectionCreateRequest', 'description').maxLength).toBe(LIMITS.collectionDescription.chars);
    for (const [op, limit] of [
      ['listNotes', LIMITS.notesListLimit],
      ['listCollections', LIMITS.collectionsListLimit],
      ['searchNotes', LIMITS.searchLimit],
      ['getRelatedNotes', LIMITS.relatedLimit],
    ] as const) {
      const schema = queryParam(doc, op, 'limit');
      expect([schema.minimum, schema.maximum, schema.default], op).toEqual([limit.min, limit.max, limit.default]);
    }
    const offset = queryParam(doc, 'searchNotes', 'offset');
    expect([offset.minimum, offset.default]).toEqual([LIMITS.searchOffset.min, LIMITS.searchOffset.default]);
  });

  it('count characters as code points and bytes in UTF-8', () => {
    const limit = { chars: 4, bytes: 8 };
    expect(pastSize('aaaaa', limit)).toBe('chars');
    expect(pastSize('ééé😀', limit)).toBe('bytes');
    expect(atSize('😀😀', limit)).toEqual(['bytes']);
    expect(atSize('aaaa', limit)).toEqual(['chars']);
    expect(atSize('aaaaaaaa', { chars: 8, bytes: 8 })).toEqual(['chars', 'bytes']);
    expect(atSize('aaa', limit)).toEqual([]);
  });
});

describe('charCount', () => {
  it('counts code points as a for-of walk does, lone surrogates included', () => {
    const units = fc.constantFrom('a', 'é', '\uD83D', '\uDE00', '😀', '\uDBFF\uDFFF', '中');
    fc.assert(
      fc.property(fc.array(units, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(charCount(text)).toBe([...text].length);
      }),
      { numRuns: 500, seed: 41 },
    );
  });
});
