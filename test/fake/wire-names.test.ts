import { describe, expect, it } from 'vitest';
import { IGNORED_FIELDS_HEADER } from '../../fake/http/core.js';
import { closest, editDistance } from '../../fake/http/name-hints.js';
import type { FakeResponse } from '../../fake/http/types.js';
import { loadBuiltinProfile, type Profile } from '../../spec/profile.js';
import { harness } from './helpers.js';

const message = (r: FakeResponse) => {
  const body = r.json as { error?: { message: string }; detail?: unknown };
  return body.error?.message ?? body.detail;
};
const withFake = (extra: Partial<Profile>): Profile => ({ ...loadBuiltinProfile('fake'), ...extra });
const titles = (r: FakeResponse) => (r.json as { results: Array<{ title: string }> }).results.map((n) => n.title);

describe('a refusal of unknown names lists them all at once, each with a hint', () => {
  it('names every unknown query parameter and body field, where it belongs or the closest declared name', () => {
    const h = harness();
    const list = h.call('GET', '/v2/notes?next=abc&colection_id=x&snapshot_id=s&zzz=1');
    expect(list.status).toBe(400);
    // No hint names another endpoint's parameter (snapshot_id belongs to note search only).
    expect(message(list)).toBe(
      'unknown query parameter next (did you mean page?); ' +
        'unknown query parameter colection_id (did you mean collection_id?); ' +
        'unknown query parameter snapshot_id; ' +
        'unknown query parameter zzz',
    );
    const search = h.call('POST', '/v2/notes/search?filter_by_contains_open_tasks=true', {
      query: 'x',
      limit: 5,
      filter_by_collection_ids: [],
      config: { include_note_content: true, shape: 'full' },
    });
    expect(message(search)).toBe(
      // The public clients' spellings are accepted (fake.yaml's aliases); only the misplaced and unknown are named.
      'unknown query parameter filter_by_contains_open_tasks (a field of the JSON body here); ' +
        'unknown field limit (a query parameter here: send it in the query string); ' +
        'unknown field config.shape',
    );
    expect(h.ctx.store.snapshots.size).toBe(0);
  });

  it('describes at most 20 unknown names and counts the rest (a hostile body may carry thousands)', () => {
    const h = harness();
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`extra_${i}`, i]));
    const r = h.call('POST', '/v2/notes', { content: 'x', ...many });
    expect(r.status).toBe(400);
    const text = message(r) as string;
    expect(text.split('; ')).toHaveLength(21);
    expect(text.endsWith('; and 480 more unknown names')).toBe(true);
    expect(h.ctx.store.notes.size).toBe(0);
    // Past MAX_BODY_MEMBERS the body is refused for its shape, before JSON.parse builds it.
    const more = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`extra_${i}`, i]));
    expect(message(h.call('POST', '/v2/notes', { content: 'x', ...more }))).toBe(
      'the body has more than 1000 object members; no request of this API needs more than a dozen',
    );
  });

  it('finds close names by stem, by other servers’ names for the same thing and by edit distance', () => {
    const declared = [
      ['page', 'cursor'],
      ['contains_open_tasks', 'open_tasks'],
      ['include_note_content', 'include_content'],
    ] as const;
    expect(closest('filter_by_contains_open_tasks', declared)).toBe('contains_open_tasks');
    expect(closest('page_token', declared)).toBe('page');
    expect(closest('include_content', declared)).toBe('include_note_content');
    expect(closest('colour', declared)).toBeUndefined();
    // mem-ai-skill sends order for order_by: too far by edit distance, but the first word of it.
    expect(closest('order', [['order_by', 'order_by']])).toBe('order_by');
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('the response-shape object: its fields are the profile’s, aliases included', () => {
  it('honours include_content under each alias and refuses a non-boolean or an unknown field', () => {
    const h = harness({ profile: 'hosted' });
    h.call('POST', '/v2/notes', { content: 'Shaped\nbody text' });
    for (const name of ['include_note_content', 'include_content']) {
      const r = h.call('POST', '/v2/notes/search', { query: 'shaped', config: { [name]: true } });
      expect((r.json as { results: Array<{ content?: string }> }).results[0]?.content, name).toBe('Shaped\nbody text');
    }
    const plain = h.call('POST', '/v2/notes/search', { query: 'shaped', config: {} });
    expect((plain.json as { results: Array<{ content?: string }> }).results[0]?.content).toBeUndefined();
    // A non-boolean is a bad value, whatever unknown_fields says: refused with the name sent.
    const bad = h.call('POST', '/v2/notes/search', { query: 'shaped', config: { include_content: 'yes' } });
    expect(bad.status).toBe(400);
    expect(message(bad)).toBe('config.include_content must be a boolean');
    expect(h.call('POST', '/v2/notes/search', { query: 'shaped', config: [] }).status).toBe(400);
  });

  it('refuses an unknown field inside the object under unknown_fields: refuse', () => {
    const h = harness();
    const r = h.call('POST', '/v2/notes/search', { query: 'x', config: { include_content: true, colour: 'red' } });
    expect(r.status).toBe(400);
    expect(message(r)).toBe('unknown field config.colour');
  });

  it('reads the divergent profile’s own field name', () => {
    const h = harness({ profile: 'fake-divergent' });
    h.call('POST', '/v2/notes', { content: 'Other\nshape' });
    h.clock.advance(1000); // the divergent search index sees a write 300 ms after it
    const r = h.call('POST', '/v2/notes/search', { query: 'other', options: { with_content: true } });
    expect((r.json as { results: Array<{ content?: string }> }).results[0]?.content).toBe('Other\nshape');
    expect(h.call('POST', '/v2/notes/search', { query: 'other', options: { include_content: true } }).status).toBe(422);
  });
});

describe('unknown_fields: ignore says what it ignored', () => {
  it('reports ignored names in X-Ignored-Fields and on the served request (for the log)', () => {
    const h = harness({ profile: withFake({ unknown_fields: 'ignore' }) });
    h.call('POST', '/v2/notes', { content: 'One' });
    const served = h.core.serve({
      method: 'POST',
      url: '/v2/notes/search?verbose=1',
      headers: { authorization: 'Bearer alice-token', 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'one', colour: 'red', config: { include_content: true, extra: 1 } }),
    });
    expect(served.response.status).toBe(200);
    expect(served.response.headers[IGNORED_FIELDS_HEADER.toLowerCase()]).toBe(
      'verbose (query), colour (body), config.extra (body)',
    );
    expect(served.ignored).toEqual(['verbose (query)', 'colour (body)', 'config.extra (body)']);
    const clean = h.call('GET', '/v2/notes');
    expect(clean.headers[IGNORED_FIELDS_HEADER.toLowerCase()]).toBeUndefined();
  });

  it('refuses a list cursor sent under an undeclared name instead of serving page 1 again', () => {
    const h = harness({ profile: withFake({ unknown_fields: 'ignore' }) });
    for (const title of ['A', 'B', 'C']) h.call('POST', '/v2/notes', { content: title });
    const first = h.call('GET', '/v2/notes?limit=2');
    const cursor = (first.json as { next_page: string }).next_page;
    const guessed = h.call('GET', `/v2/notes?limit=2&next=${encodeURIComponent(cursor)}`);
    expect(guessed.status).toBe(400);
    expect(message(guessed)).toBe(
      'query parameter next carries a cursor, but the cursor parameter here is page; ' +
        'ignoring it would serve the first page again',
    );
    expect(titles(h.call('GET', `/v2/notes?limit=2&page=${encodeURIComponent(cursor)}`))).toHaveLength(1);
    // The same for collections; an ignored name with any other value is just ignored.
    h.call('POST', '/v2/collections', { title: 'x' });
    h.call('POST', '/v2/collections', { title: 'y' });
    const next = (h.call('GET', '/v2/collections?limit=1').json as { next_page: string }).next_page;
    expect(h.call('GET', `/v2/collections?limit=1&next=${encodeURIComponent(next)}`).status).toBe(400);
    expect(h.call('GET', '/v2/notes?limit=2&next=hello').status).toBe(200);
  });
});

describe('aliases, null fields and names the profile cannot declare twice', () => {
  it('accepts every alias of a name; validation messages name the alias the client sent', () => {
    const profile = withFake({
      names: { ...loadBuiltinProfile('fake').names, notes_list: { collection: ['collection_id', 'collection'] } },
    });
    const h = harness({ profile });
    expect(message(h.call('GET', '/v2/notes?collection=nope'))).toBe('collection must be a UUID');
    expect(message(h.call('GET', '/v2/notes?collection_id=nope'))).toBe('collection_id must be a UUID');
  });

  it('reads null as absent in optional create fields under null_fields: absent, and refuses it by default', () => {
    const nulls = { content: 'Nulls', id: null, collection_ids: null, created_at: null };
    expect(harness().call('POST', '/v2/notes', nulls).status).toBe(400);
    const h = harness({ profile: withFake({ null_fields: 'absent' }) });
    expect(h.call('POST', '/v2/notes', nulls).status).toBe(200);
    // Content is required: a null there is still a bad value.
    expect(message(h.call('POST', '/v2/notes', { content: null }))).toBe('content must be a string');
  });

  it('refuses at start a profile that declares one wire name for two things', () => {
    const profile = withFake({
      names: {
        ...loadBuiltinProfile('fake').names,
        notes_list: { cursor: ['page', 'collection_id'], collection: 'collection_id' },
      },
    });
    expect(() => harness({ profile })).toThrow(
      'profile names: collection_id is declared for both cursor and collection in the query of GET /v2/notes',
    );
  });

  it('answers {"detail": ...} when the profile declares a message and no kind (FastAPI)', () => {
    const h = harness({ profile: withFake({ error_body: { message_pointer: '/detail' } }) });
    const r = h.call('POST', '/v2/notes', {});
    expect(r.json).toEqual({ detail: 'content is required' });
  });
});
