import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../fake/config.js';
import { createCore } from '../../fake/instance.js';
import { listOperations } from '../../spec/openapi.js';
import { createSchemaRegistry } from '../../spec/schemas.js';
import { responseExamples } from './response-examples.js';

const SHAPED = [
  'createNote',
  'getNote',
  'updateNote',
  'setNoteCreatedAt',
  'deleteNote',
  'listNotes',
  'searchNotes',
  'getRelatedNotes',
  'createCollection',
  'getCollection',
  'updateCollection',
  'deleteCollection',
  'listCollections',
  'searchCollections',
  'addNoteToCollection',
  'moveNote',
];
const NOT_SHOWN = [
  'trashNote',
  'restoreNote',
  'removeNoteFromCollection',
  'getAttachmentDownloadUrl',
  'askAttachmentQuestion',
];
/** Not in the document: the reference fake serves them at profile-chosen endpoints. */
const FAKE_EXTENSIONS = [
  'captureNote',
  'trashCollection',
  'fixtureCreateUser',
  'fixtureDeleteUser',
  'fixtureSetQuota',
  'fixtureSetRateLimit',
  'fixtureGrant',
  'fixtureAddAttachment',
  'fixtureAddAudioRecording',
  'fixtureReset',
  'fixtureStats',
  'fixtureFaults',
];

describe('openapi.yaml', () => {
  const registry = createSchemaRegistry();
  const operations = listOperations();

  it("describes the 16 shaped operations, the 5 the document names without shapes and the fake's extensions", () => {
    const ids = operations.map((o) => o.operationId).sort();
    expect(ids).toEqual([...SHAPED, ...NOT_SHOWN, ...FAKE_EXTENSIONS].sort());
    for (const op of operations) {
      if (NOT_SHOWN.includes(op.operationId) || FAKE_EXTENSIONS.includes(op.operationId))
        expect(op.notShown, op.operationId).toBeDefined();
      else expect(op.notShown, op.operationId).toBeUndefined();
      expect(op.fakeExtension === true, op.operationId).toBe(FAKE_EXTENSIONS.includes(op.operationId));
    }
  });

  it("describes every endpoint the reference fake serves, fixture API included, at its default profile's paths", () => {
    const core = createCore(resolveConfig());
    const key = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;
    const described = new Set(operations.map((o) => key(o.method, o.path)));
    const served = [
      ...core.routes.map((r) => key(r.method, r.path)),
      ...core.fixtures.routes.map((r) => key(r.method, `${core.config.fixturesPrefix}${r.path}`)),
    ];
    expect(served.filter((e) => !described.has(e))).toEqual([]);
    expect([...described].filter((e) => !served.includes(e))).toEqual([]);
  });

  it('gives every shaped operation a JSON 200 response schema', () => {
    for (const id of SHAPED) expect(registry.responseSchemaOf(id), id).toBeDefined();
  });

  it('has an example set for every response schema', () => {
    const used = new Set(SHAPED.map((id) => registry.responseSchemaOf(id)));
    used.add('AttachmentQuestionResponse');
    used.add('QuotaExceededError');
    expect([...used].sort()).toEqual(Object.keys(responseExamples).sort());
  });

  describe.each(Object.entries(responseExamples))('%s', (name, examples) => {
    it('accepts the valid example (lenient and strict)', () => {
      expect(registry.validate(name, examples.valid)).toEqual([]);
      expect(registry.validate(name, examples.valid, { strict: true })).toEqual([]);
    });
    it.each(examples.invalid.map((e) => [e.why, e.data] as const))('refuses: %s', (_why, data) => {
      expect(registry.validate(name, data)).not.toEqual([]);
    });
  });

  it('allows unknown extra fields unless strict, at the top and in nested objects', () => {
    const body = { ...(responseExamples.NoteReadResponse!.valid as object), extra: 1 };
    expect(registry.validate('NoteReadResponse', body)).toEqual([]);
    expect(registry.validate('NoteReadResponse', body, { strict: true }).join()).toMatch(/extra|unevaluated/);
    const nested = structuredClone(responseExamples.RelatedNotesResponse!.valid) as {
      results: Array<{ collections: Array<Record<string, unknown>> }>;
    };
    nested.results[0]!.collections[0]!.colour = 'red';
    expect(registry.validate('RelatedNotesResponse', nested)).toEqual([]);
    expect(registry.validate('RelatedNotesResponse', nested, { strict: true })).not.toEqual([]);
  });

  it('states the documented bounds of request bodies', () => {
    const create = (body: unknown) => registry.validate('NoteCreateRequest', body);
    expect(create({ content: 'x'.repeat(200_000) })).toEqual([]);
    expect(create({ content: 'x'.repeat(200_001) })).not.toEqual([]);
    expect(create({})).not.toEqual([]);
    expect(create({ content: 'x', created_at: '2025-01-01T00:00:00' })).not.toEqual([]);
    expect(create({ content: 'x', collection_titles: ['y'.repeat(1001)] })).not.toEqual([]);
    expect(registry.validate('NoteUpdateRequest', { content: 'x', version: 0 })).not.toEqual([]);
    expect(registry.validate('NoteSearchRequest', { query: '   ' })).not.toEqual([]);
    expect(registry.validate('NoteSearchRequest', { query: ' a ' })).toEqual([]);
    expect(
      registry.validate('CollectionCreateRequest', {
        title: 't',
        id: null,
        created_at: null,
        updated_at: null,
        description: null,
      }),
    ).toEqual([]);
    expect(registry.validate('CollectionCreateRequest', { title: 't', description: 'd'.repeat(10_001) })).not.toEqual(
      [],
    );
    expect(
      registry.validate('AttachmentQuestionRequest', {
        attachment_id: '0b6f7a52-3c1e-4f0e-9d7a-1b2c3d4e5f60',
        attachment_kind: 'pdf',
        question: '',
      }),
    ).not.toEqual([]);
    expect(registry.validate('MoveRequest', {})).not.toEqual([]);
  });
});
