import { describe, expect, it } from 'vitest';
import type { FakeResponse } from '../../fake/http/types.js';
import { loadBuiltinProfile, type Profile } from '../../spec/profile.js';
import { harness, iso, T0 } from './helpers.js';

/** The reference profile with some of the `fake` variant switches and their declared values. */
function profile(extra: Partial<Profile>, fake: NonNullable<Profile['fake']>): Profile {
  const base = loadBuiltinProfile('fake');
  return { ...base, ...extra, fake: { ...base.fake, ...fake } };
}

type Json = Record<string, unknown>;
const json = (r: FakeResponse): Json => {
  expect(r.status, r.text).toBeLessThan(300);
  return r.json as Json;
};
const ids = (r: FakeResponse): string[] => (json(r).results as Json[]).map((i) => i.id as string);

describe('variant: instants stored at timestamp_precision_ms', () => {
  const h = () => harness({ profile: profile({ timestamp_precision_ms: 1000 }, { truncate_timestamps: true }) });

  it('cuts supplied and server instants of notes to whole seconds, and compares the backdate bound with the cut value', () => {
    const { call, clock } = h();
    clock.set(T0 + 789);
    const note = json(call('POST', '/v2/notes', { content: 'a', created_at: iso(T0 - 60_000 + 456) }));
    expect([note.created_at, note.updated_at]).toEqual([iso(T0 - 60_000), iso(T0)]);
    clock.advance(1_500);
    const updated = json(call('PATCH', `/v2/notes/${note.id}`, { content: 'b', version: note.version }));
    expect(updated.updated_at).toBe(iso(T0 + 2_000));
    // The original creation time is stored cut too: the same instant with its milliseconds is later.
    expect(call('PATCH', `/v2/notes/${note.id}/created-at`, { created_at: iso(T0 - 60_000 + 456) }).status).toBe(400);
    const backdated = json(call('PATCH', `/v2/notes/${note.id}/created-at`, { created_at: iso(T0 - 120_000 + 999) }));
    expect(backdated.created_at).toBe(iso(T0 - 120_000));
    json(call('POST', `/v2/notes/${note.id}/trash`));
    expect(json(call('GET', `/v2/notes/${note.id}`)).trashed_at).toBe(iso(T0 + 2_000));
  });

  it('cuts collection instants, and bounds filter on the stored values', () => {
    const { call, clock } = h();
    clock.set(T0 + 250);
    const c = json(call('POST', '/v2/collections', { title: 'cut', created_at: iso(T0 - 5_000 + 999) }));
    expect([c.created_at, c.updated_at]).toEqual([iso(T0 - 5_000), iso(T0 - 5_000)]);
    expect(json(call('PATCH', `/v2/collections/${c.id}`, { title: 'cut again' })).updated_at).toBe(iso(T0));
    const after = encodeURIComponent(iso(T0 - 5_000 + 500));
    expect(ids(call('GET', `/v2/collections?filter_by_created_after=${after}`))).not.toContain(c.id);
  });

  it('keeps milliseconds when the switch is off, whatever the profile declares', () => {
    const { call, clock } = harness({ profile: profile({ timestamp_precision_ms: 1000 }, {}) });
    clock.set(T0 + 789);
    expect(json(call('POST', '/v2/notes', { content: 'a' })).created_at).toBe(iso(T0 + 789));
  });
});

describe('variant: a search index that lags writes by search_index_lag_ms', () => {
  const h = () => harness({ profile: profile({ search_index_lag_ms: 1_500 }, { search_index_lag: true }) });
  const search = (call: ReturnType<typeof h>['call'], query: string) =>
    ids(call('POST', '/v2/notes/search', { query }));

  it('shows a created note in search and related notes only once the lag has passed', () => {
    const { call, clock } = h();
    const a = json(call('POST', '/v2/notes', { content: 'lagging walrus harbour' }));
    const b = json(call('POST', '/v2/notes', { content: 'walrus harbour ferry' }));
    expect(search(call, 'walrus')).toEqual([]);
    // The subject is embedded at request time, but b is not indexed yet.
    expect(ids(call('GET', `/v2/notes/${a.id}/related-notes`))).toEqual([]);
    // Reads by id and lists come from the primary store at once.
    expect(call('GET', `/v2/notes/${a.id}`).status).toBe(200);
    expect(ids(call('GET', '/v2/notes'))).toEqual(expect.arrayContaining([a.id, b.id]));
    clock.advance(1_499);
    expect(search(call, 'walrus')).toEqual([]);
    clock.advance(1);
    expect(search(call, 'walrus').sort()).toEqual([a.id, b.id].sort());
    expect(ids(call('GET', `/v2/notes/${a.id}/related-notes`))).toEqual([b.id]);
    // A fresh subject finds the indexed notes at once; it stays out of search until its own time.
    const c = json(call('POST', '/v2/notes', { content: 'walrus harbour ferry again' }));
    expect(ids(call('GET', `/v2/notes/${c.id}/related-notes`)).sort()).toEqual([a.id, b.id].sort());
    expect(search(call, 'walrus')).not.toContain(c.id);
  });

  it('hides an updated note (old words and new) until the lag has passed, then finds it by its new words only', () => {
    const { call, clock } = h();
    const a = json(call('POST', '/v2/notes', { content: 'ancient otter' }));
    clock.advance(1_500);
    expect(search(call, 'otter')).toEqual([a.id]);
    json(call('PATCH', `/v2/notes/${a.id}`, { content: 'modern heron', version: a.version }));
    expect([search(call, 'otter'), search(call, 'heron')]).toEqual([[], []]);
    clock.advance(1_500);
    expect([search(call, 'otter'), search(call, 'heron')]).toEqual([[], [a.id]]);
  });

  it('drops a deleted note at once, also one still waiting to be indexed', () => {
    const { call, clock } = h();
    const a = json(call('POST', '/v2/notes', { content: 'fleeting lemur' }));
    json(call('DELETE', `/v2/notes/${a.id}`));
    clock.advance(1_500);
    expect(search(call, 'lemur')).toEqual([]);
  });

  it('indexes at once without the switch', () => {
    const { call } = harness({ profile: profile({ search_index_lag_ms: 1_500 }, {}) });
    const a = json(call('POST', '/v2/notes', { content: 'prompt puffin' }));
    expect(search(call, 'puffin')).toEqual([a.id]);
  });
});

describe('variant: membership changes bump the note version', () => {
  const h = () => harness({ profile: profile({}, { version_on_membership: true }) });

  it('adding, moving and removing change version (once each), not updated_at; a no-op add and a create with collections do not', () => {
    const { call, clock } = h();
    const c1 = json(call('POST', '/v2/collections', { title: 'one' }));
    const c2 = json(call('POST', '/v2/collections', { title: 'two' }));
    const created = json(call('POST', '/v2/notes', { content: 'member', collection_ids: [c1.id] }));
    const read = () => json(call('GET', `/v2/notes/${created.id}`));
    const first = read() as Json & { version: number };
    expect(first.version).toBe(created.version);
    clock.advance(5_000);
    json(call('PUT', `/v2/collections/${c2.id}/notes/${created.id}`));
    expect(read().version).toBe(first.version + 1);
    json(call('PUT', `/v2/collections/${c2.id}/notes/${created.id}`));
    expect(read().version).toBe(first.version + 1);
    json(call('DELETE', `/v2/collections/${c2.id}/notes/${created.id}`));
    expect(read().version).toBe(first.version + 2);
    const c3 = json(call('POST', '/v2/collections', { title: 'three' }));
    json(call('POST', `/v2/collections/${c1.id}/notes/${created.id}/move`, { target_collection_id: c3.id }));
    const last = read();
    expect(last.version).toBe(first.version + 3);
    expect(last.updated_at).toBe(first.updated_at);
    // The new version is the one an update must send.
    expect(call('PATCH', `/v2/notes/${created.id}`, { content: 'x', version: first.version }).status).toBe(409);
    expect(call('PATCH', `/v2/notes/${created.id}`, { content: 'x', version: last.version }).status).toBe(200);
  });

  it('leaves version alone without the switch', () => {
    const { call } = harness();
    const c = json(call('POST', '/v2/collections', { title: 'one' }));
    const note = json(call('POST', '/v2/notes', { content: 'member' }));
    json(call('PUT', `/v2/collections/${c.id}/notes/${note.id}`));
    expect(json(call('GET', `/v2/notes/${note.id}`)).version).toBe(note.version);
  });
});

describe('variant: a strict lifecycle', () => {
  const h = () => harness({ profile: profile({}, { strict_lifecycle: true }) });

  it('refuses a second trash and a restore of an active note with 409, and keeps a trashed note out of membership changes', () => {
    const { call } = h();
    const c1 = json(call('POST', '/v2/collections', { title: 'one' }));
    const c2 = json(call('POST', '/v2/collections', { title: 'two' }));
    const note = json(call('POST', '/v2/notes', { content: 'strict', collection_ids: [c1.id] }));
    const links = () => json(call('GET', `/v2/notes/${note.id}`)).collection_ids;
    expect(call('POST', `/v2/notes/${note.id}/restore`).status).toBe(409);
    json(call('POST', `/v2/notes/${note.id}/trash`));
    const trashedAt = json(call('GET', `/v2/notes/${note.id}`)).trashed_at;
    expect(call('POST', `/v2/notes/${note.id}/trash`).status).toBe(409);
    expect(json(call('GET', `/v2/notes/${note.id}`)).trashed_at).toBe(trashedAt);
    json(call('PUT', `/v2/collections/${c2.id}/notes/${note.id}`));
    json(call('POST', `/v2/collections/${c1.id}/notes/${note.id}/move`, { target_collection_id: c2.id }));
    json(call('DELETE', `/v2/collections/${c1.id}/notes/${note.id}`));
    expect(links()).toEqual([c1.id]);
    expect(json(call('GET', `/v2/collections/${c2.id}`)).note_count).toBe(0);
    // Refusals of a missing note stay the reference's.
    expect(call('POST', '/v2/notes/00000000-0000-4000-8000-000000000000/trash').status).toBe(404);
    json(call('POST', `/v2/notes/${note.id}/restore`));
    json(call('PUT', `/v2/collections/${c2.id}/notes/${note.id}`));
    expect(links()).toEqual(expect.arrayContaining([c1.id, c2.id]));
  });
});
