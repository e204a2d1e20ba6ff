import { describe, expect, it } from 'vitest';
import { grant } from '../../fake/service/fixtures.js';
import { harness } from './helpers.js';

type Page = {
  results: Array<{ id: string; title: string; content?: string }>;
  total: number;
  has_next_page: boolean;
  snapshot_id: string;
};

describe('search snapshots hold note handles, not contents', () => {
  it('freeze membership, order, total and shape; items show the notes as they are now', () => {
    const h = harness();
    const ids = Array.from(
      { length: 6 },
      (_, i) =>
        (h.call('POST', '/v2/notes', { content: `kiwi ${i}\nbody ${'x'.repeat(1000)}` }).json as { id: string }).id,
    );
    const first = h.call('POST', '/v2/notes/search?limit=2', { query: 'kiwi', config: { include_content: true } })
      .json as Page;
    expect(first.total).toBe(6);
    const window = (
      h.call('POST', `/v2/notes/search?limit=6&offset=0&snapshot_id=${first.snapshot_id}`, { query: 'kiwi' })
        .json as Page
    ).results.map((r) => r.id);
    expect(window.slice(0, 2)).toEqual(first.results.map((r) => r.id));
    // Edit the third, delete the fourth, create a new match: the snapshot keeps its slots and total.
    const third = h.ctx.store.notes.get(window[2]!)!;
    expect(
      h.call('PATCH', `/v2/notes/${third.id}`, { content: 'kiwi edited\nnew body', version: third.version }).status,
    ).toBe(200);
    expect(h.call('DELETE', `/v2/notes/${window[3]}`).status).toBe(200);
    h.call('POST', '/v2/notes', { content: 'kiwi new' });
    const later = h.call('POST', `/v2/notes/search?limit=2&offset=2&snapshot_id=${first.snapshot_id}`, {
      query: 'kiwi',
    }).json as Page;
    expect(later.total).toBe(6);
    expect(later.has_next_page).toBe(true);
    expect(later.results.map((r) => [r.id, r.title, r.content])).toEqual([
      [third.id, 'kiwi edited', 'kiwi edited\nnew body'],
    ]);
    const last = h.call('POST', `/v2/notes/search?limit=2&offset=4&snapshot_id=${first.snapshot_id}`, { query: 'kiwi' })
      .json as Page;
    expect(last.results.map((r) => r.id)).toEqual(window.slice(4));
    expect(last.has_next_page).toBe(false);
    expect(ids.sort()).toEqual([...window].sort());
  });

  it('do not show a note the caller can no longer see', () => {
    const h = harness();
    const coll = (h.call('POST', '/v2/collections', { title: 'shared' }, 'bob-token-0').json as { id: string }).id;
    const note = (
      h.call('POST', '/v2/notes', { content: 'plum shared', collection_ids: [coll] }, 'bob-token-0').json as {
        id: string;
      }
    ).id;
    grant(h.ctx, { resource: 'collection', id: coll, user_id: h.alice.id, level: 'access' });
    const first = h.call('POST', '/v2/notes/search', { query: 'plum' }).json as Page;
    expect(first.results.map((r) => r.id)).toEqual([note]);
    expect(h.call('DELETE', `/v2/collections/${coll}/notes/${note}`, undefined, 'bob-token-0').status).toBeLessThan(
      300,
    );
    const again = h.call('POST', `/v2/notes/search?offset=0&snapshot_id=${first.snapshot_id}`, { query: 'plum' })
      .json as Page;
    expect(again.results).toEqual([]);
    expect(again.total).toBe(1);
  });

  it('expire, and keep only handles: thousands of update-and-search rounds hold no old contents', () => {
    const h = harness({ snapshotTtlMs: 60_000 });
    const id = (h.call('POST', '/v2/notes', { content: 'fig\nbody' }).json as { id: string }).id;
    let version = 1;
    for (let round = 0; round < 3_000; round++) {
      const r = h.call('PATCH', `/v2/notes/${id}`, {
        content: `fig round ${round}\n${String(round).repeat(2000)}`,
        version,
      });
      version = (r.json as { version: number }).version;
      expect(h.call('POST', '/v2/notes/search', { query: 'fig', config: { include_content: true } }).status).toBe(200);
      h.clock.advance(1_000);
    }
    // One snapshot a second with a 60 s lifetime: about 60 are kept, each a handful of numbers.
    expect(h.ctx.store.snapshots.size).toBeLessThanOrEqual(62);
    for (const snapshot of h.ctx.store.snapshots.values()) {
      expect(Object.values(snapshot).filter((v) => typeof v === 'string' && v.length > 64)).toEqual([]);
      expect(snapshot.seqs.length).toBeLessThanOrEqual(100);
    }
    expect(h.call('DELETE', `/v2/notes/${id}`).status).toBe(200);
    const [newest] = [...h.ctx.store.snapshots.values()].slice(-1);
    expect(
      (h.call('POST', `/v2/notes/search?offset=0&snapshot_id=${newest!.id}`, { query: 'fig' }).json as Page).results,
    ).toEqual([]);
  });
});
