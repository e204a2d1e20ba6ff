import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../fake/index.js';

/**
 * Three public clients of the hosted service, against `notes-conformance fake --profile hosted`:
 * each request below is what the client's code sends (method, path, query in the client's order,
 * headers it sets, body as it serialises it), read from these versions:
 *
 *   MCP   Schmouly/mem-mcp-server @ 6254d74a59e76d3c6ab58572a4e46f1c44448dba, index.js
 *         (callMemAPIv2: fetch with Authorization and Content-Type; mem_list builds URLSearchParams
 *         limit, order_by, include_note_content, page, collection_id, contains_*; mem_search sends
 *         {query, config: {include_note_content: true}, filter_by_*}; mem_it sends {input, ...})
 *   CLI   hskksk/mem-ai-mcp-cli @ f3fbe70fe8a65a205da557be9d1db77a1daa5d50,
 *         src/client/mem-api-client.ts (listNotes: limit, page, order_by, collection_id, contains_*,
 *         include_note_content; bodies through JSON.stringify, so undefined fields vanish) and
 *         src/cli/commands/{note,collection}/search.ts, src/cli/commands/mem-it.ts
 *         (config: {include_snippet, include_content}; collection search config.include_description)
 *   Conn  metorial/integrations @ cf89f9b85b820b09f51071bdded5a08dafa02b60,
 *         integrations/mem/src/lib/client.ts (axios with baseURL .../v2: query params in insertion
 *         order, booleans as "true"; null for every optional create and mem-it field it was not given)
 */

const TOKEN = 'hosted-client-token';
let fake: Fake;
let base: string;

beforeAll(async () => {
  fake = await createFake({ profile: 'hosted', users: [TOKEN] });
  base = fake.url!;
});
afterAll(() => fake.close());

interface Answer {
  status: number;
  json: Record<string, unknown>;
  headers: Headers;
}

/** The headers every one of the three sets: the bearer token and a JSON content type (also on GET). */
async function send(method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    json: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

const ok = (a: Answer) => {
  expect(a.status, JSON.stringify(a.json)).toBe(200);
  expect(a.json.request_id).toBeTypeOf('string');
  return a.json;
};
const ids = (a: Answer) => (a.json.results as Array<{ id: string }>).map((r) => r.id);
const results = (a: Answer) => a.json.results as Array<Record<string, unknown>>;

describe('public clients of the hosted service, unchanged, against fake --profile hosted', () => {
  it('the MCP server: create, list page by page with content, search with filters and content, mem-it', async () => {
    // mem_collections_list and mem_create (collection_titles given: the note joins that collection)
    const inbox = ok(await send('POST', '/v2/collections', { title: 'MCP inbox' }));
    const made: string[] = [];
    for (const text of [
      'MCP first\n- [ ] call back',
      'MCP second\nplain',
      'MCP third\n![chart](https://x.test/c.png)',
    ]) {
      made.push(ok(await send('POST', '/v2/notes', { content: text, collection_titles: ['MCP inbox'] })).id as string);
    }
    ok(await send('GET', '/v2/collections?limit=20'));
    // mem_list: limit, order_by and include_note_content always; then page, collection_id, contains_*.
    const params = new URLSearchParams();
    params.append('limit', '2');
    params.append('order_by', 'updated_at');
    params.append('include_note_content', 'true');
    params.append('collection_id', inbox.id as string);
    const first = await send('GET', `/v2/notes?${params.toString()}`);
    ok(first);
    expect(results(first).every((r) => typeof r.content === 'string')).toBe(true);
    const next = first.json.next_page as string;
    expect(next).toBeTypeOf('string');
    const paged = new URLSearchParams();
    paged.append('limit', '2');
    paged.append('order_by', 'updated_at');
    paged.append('include_note_content', 'true');
    paged.append('page', next);
    paged.append('collection_id', inbox.id as string);
    const second = await send('GET', `/v2/notes?${paged.toString()}`);
    ok(second);
    expect([...ids(first), ...ids(second)].sort()).toEqual([...made].sort());
    expect(second.json.next_page).toBeUndefined();
    // mem_search: config.include_note_content always, the filters only when true.
    const search = await send('POST', '/v2/notes/search', {
      query: 'MCP',
      config: { include_note_content: true },
      filter_by_contains_open_tasks: true,
      filter_by_collection_ids: [inbox.id],
    });
    ok(search);
    expect(ids(search)).toEqual([made[0]]);
    expect(results(search)[0]!.content).toBe('MCP first\n- [ ] call back');
    // mem_read and mem_collections_search
    expect(ok(await send('GET', `/v2/notes/${made[1]}`)).title).toBe('MCP second');
    expect(ids(await send('POST', '/v2/collections/search', { query: 'inbox' }))).toContain(inbox.id);
    // mem_it: {input} plus what was given; the answer carries request_id, the note comes after.
    const captured = ok(
      await send('POST', '/v2/mem-it', {
        input: 'MCP captured thought',
        instructions: 'file it under ideas',
        context: 'from a chat',
        timestamp: '2026-01-02T03:04:05Z',
      }),
    );
    expect(Object.keys(captured)).toEqual(['request_id']);
    const found = await send('POST', '/v2/notes/search', { query: 'captured', config: { include_note_content: true } });
    expect(results(found).map((r) => [r.title, r.created_at])).toEqual([
      ['MCP captured thought', '2026-01-02T03:04:05.000Z'],
    ]);
  });

  it('the CLI: config.include_content and include_snippet, collection search config, paging collections', async () => {
    ok(await send('POST', '/v2/collections', JSON.parse(JSON.stringify({ title: 'CLI one', description: undefined }))));
    ok(await send('POST', '/v2/collections', { title: 'CLI two', description: 'second' }));
    const note = ok(
      await send(
        'POST',
        '/v2/notes',
        JSON.parse(JSON.stringify({ content: 'CLI note\n- [x] done task', id: undefined, created_at: undefined })),
      ),
    );
    // note list: only the flags given; booleans as the string true.
    const query = new URLSearchParams();
    query.append('limit', '5');
    query.append('order_by', 'created_at');
    query.append('contains_tasks', 'true');
    query.append('include_note_content', 'true');
    const listed = await send('GET', `/v2/notes?${query.toString()}`);
    ok(listed);
    expect(ids(listed)).toContain(note.id);
    // note search --include-snippet --include-content --tasks
    const searched = await send(
      'POST',
      '/v2/notes/search',
      JSON.parse(
        JSON.stringify({
          query: 'CLI',
          filter_by_collection_ids: undefined,
          filter_by_contains_tasks: true,
          config: { include_snippet: true, include_content: true },
        }),
      ),
    );
    ok(searched);
    expect(results(searched).map((r) => [r.id, r.content])).toEqual([[note.id, 'CLI note\n- [x] done task']]);
    expect(results(searched)[0]!.snippet).toBeTypeOf('string');
    // collection list --limit 1, then --page with the answer's next_page
    const page1 = await send('GET', '/v2/collections?limit=1&order_by=created_at');
    ok(page1);
    const page2 = await send(
      'GET',
      `/v2/collections?limit=1&page=${encodeURIComponent(page1.json.next_page as string)}&order_by=created_at`,
    );
    ok(page2);
    expect(ids(page2)).not.toEqual(ids(page1));
    // collection search --include-description: the document shows no such object; it is ignored, and said so.
    const collections = await send('POST', '/v2/collections/search', {
      query: 'CLI',
      config: { include_description: true },
    });
    ok(collections);
    expect(collections.headers.get('x-ignored-fields')).toBe('config (body)');
    // mem-it with only the text: JSON.stringify drops the undefined options.
    const captured = await send(
      'POST',
      '/v2/mem-it',
      JSON.parse(JSON.stringify({ input: 'CLI capture', instructions: undefined, context: undefined })),
    );
    expect(Object.keys(ok(captured))).toEqual(['request_id']);
    expect(ok(await send('DELETE', `/v2/notes/${note.id}`))).toEqual({ request_id: expect.any(String) });
  });

  it('the connector: null for every optional field, axios query params, config.include_note_content', async () => {
    const collection = ok(
      await send('POST', '/v2/collections', {
        title: 'Connector shelf',
        id: null,
        description: null,
        created_at: null,
        updated_at: null,
      }),
    );
    const note = ok(
      await send('POST', '/v2/notes', {
        content: 'Connector note\n[sheet](https://x.test/s.pdf)',
        id: null,
        collection_ids: [collection.id],
        collection_titles: null,
        created_at: null,
        updated_at: null,
      }),
    );
    expect(note.collection_ids).toEqual([collection.id]);
    // listNotes({limit, collectionId, containsFiles, includeNoteContent}): axios keeps insertion order.
    const listed = await send(
      'GET',
      `/v2/notes?limit=10&collection_id=${collection.id}&contains_files=true&include_note_content=true`,
    );
    ok(listed);
    expect(results(listed).map((r) => [r.id, r.content])).toEqual([[note.id, note.content]]);
    const searched = await send('POST', '/v2/notes/search', {
      query: 'Connector',
      filter_by_collection_ids: [collection.id],
      filter_by_contains_files: true,
      config: { include_note_content: true },
    });
    expect(results(searched).map((r) => [r.id, r.content])).toEqual([[note.id, note.content]]);
    const captured = await send('POST', '/v2/mem-it', {
      input: 'Connector capture',
      instructions: null,
      context: null,
      timestamp: null,
    });
    expect(Object.keys(ok(captured))).toEqual(['request_id']);
    ok(await send('GET', '/v2/collections?limit=50&order_by=updated_at'));
    expect(ids(await send('POST', '/v2/collections/search', { query: 'shelf' }))).toEqual([collection.id]);
    expect(ok(await send('DELETE', `/v2/collections/${collection.id}`))).toEqual({ request_id: expect.any(String) });
  });

  it('still refuses what no client may send: a bad value, a non-boolean inside config, a cursor under a guessed name', async () => {
    expect((await send('GET', '/v2/notes?include_note_content=yes')).status).toBe(400);
    const shape = await send('POST', '/v2/notes/search', { query: 'x', config: { include_note_content: 'yes' } });
    expect(shape.status).toBe(400);
    expect(JSON.stringify(shape.json)).toContain('config.include_note_content must be a boolean');
    const first = await send('GET', '/v2/notes?limit=1');
    const guessed = await send('GET', `/v2/notes?limit=1&next=${encodeURIComponent(first.json.next_page as string)}`);
    expect(guessed.status).toBe(400);
    expect(JSON.stringify(guessed.json)).toContain('the cursor parameter here is page');
  });
});
