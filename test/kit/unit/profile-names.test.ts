import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assumedProfile } from '../../../kit/assumed-profile.js';
import { Api } from '../../../kit/core/api.js';
import { TargetClient } from '../../../kit/core/client.js';
import { Ledger } from '../../../kit/core/ledger.js';
import { loadBuiltinProfile, type Profile } from '../../../spec/profile.js';
import type { SchemaRegistry } from '../../../spec/schemas.js';
import { KitError } from '../../../suites/harness/errors.js';
import { type RecordingServer, recordingServer } from './recording-server.js';

/**
 * The wire names come from the profile: the same call of the kit's API sends the parameter names,
 * body fields and endpoints each profile declares, and a name no profile declares is a KitError
 * (the check cannot judge) with nothing sent.
 */
const noSchemas: SchemaRegistry = { names: [], validate: () => [], responseSchemaOf: () => undefined };
let server: RecordingServer;
let client: TargetClient;
let dir: string;
beforeAll(async () => {
  server = await recordingServer();
  client = new TargetClient({ baseUrl: server.url, timeoutMs: 5000, requestBudget: 1000, secrets: [] });
  dir = mkdtempSync(join(tmpdir(), 'nc-names-'));
});
afterEach(() => {
  server.seen.length = 0;
});
afterAll(async () => {
  await client.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const apiWith = (profile: Profile) => new Api(client, profile, noSchemas, new Ledger(dir), 'tok', 'primary', false);
const last = () => server.seen[server.seen.length - 1]!;

describe('wire names from the profile', () => {
  it('sends the note list parameters under the names of each profile', async () => {
    const query = {
      cursor: 'c1',
      collection: 'k1',
      include_content: true,
      open_tasks: true,
      created_after: '2020-01-01T00:00:00Z',
    };
    await apiWith(loadBuiltinProfile('fake')).listNotes(query);
    expect(Object.fromEntries(last().url.searchParams)).toEqual({
      page: 'c1',
      collection_id: 'k1',
      include_note_content: 'true',
      contains_open_tasks: 'true',
      filter_by_created_after: '2020-01-01T00:00:00Z',
    });
    await apiWith(loadBuiltinProfile('fake-divergent')).listNotes(query);
    expect(Object.fromEntries(last().url.searchParams)).toEqual({
      cursor: 'c1',
      collection: 'k1',
      with_content: 'true',
      has_open_tasks: 'true',
      filter_by_created_after: '2020-01-01T00:00:00Z',
    });
  });

  it('names search body fields and collection list bounds by the profile', async () => {
    const divergent = apiWith(loadBuiltinProfile('fake-divergent'));
    await divergent.searchNotes(
      { limit: 5 },
      { query: 'word', collections: ['k1'], response_shape: { x: 1 }, images: true },
    );
    expect(JSON.parse(last().body)).toEqual({
      query: 'word',
      in_collections: ['k1'],
      options: { x: 1 },
      has_images: true,
    });
    expect(last().url.searchParams.get('limit')).toBe('5');
    await divergent.listCollections({ cursor: 'a', created_before: '2021-01-01T00:00:00Z' });
    expect(Object.fromEntries(last().url.searchParams)).toEqual({ after: 'a', created_to: '2021-01-01T00:00:00Z' });
    await divergent.searchCollections({ query: 'q1' });
    expect(JSON.parse(last().body)).toEqual({ q: 'q1' });
  });

  it('calls the endpoints a profile declares, with the ids in the path', async () => {
    await apiWith(loadBuiltinProfile('fake')).restoreNote('n 1');
    expect([last().method, last().url.pathname]).toEqual(['POST', '/v2/notes/n%201/restore']);
    await apiWith(loadBuiltinProfile('fake-divergent')).restoreNote('n1');
    expect([last().method, last().url.pathname]).toEqual(['PUT', '/v2/trash/n1/restore']);
  });

  it('refuses, sending nothing, what the profile does not declare', async () => {
    // As a check calls them: awaited inside an async function.
    const refusal = (call: () => Promise<unknown>) => (async () => call())().catch((e: unknown) => e);
    const assumed = apiWith(assumedProfile());
    const error = await refusal(() => assumed.restoreNote('n1'));
    expect(error).toBeInstanceOf(KitError);
    expect((error as Error).message).toBe('the profile declares no endpoints.restore_note');
    const bare = apiWith({ name: 'bare' });
    expect(String(await refusal(() => bare.listNotes({ cursor: 'c' })))).toMatch(
      /declares no names\.notes_list\.cursor/,
    );
    expect(String(await refusal(() => bare.searchCollections({ query: 'q' })))).toMatch(
      /declares no names\.collections_search\.query/,
    );
    expect(server.seen).toEqual([]);
  });
});
