import { iso, type Scenario, T0 } from './fault-session.js';

const DAY = 86_400_000;

/**
 * Scenarios for issue 32's batch of sequence faults (fake/faults/sequences.ts): each sets up the
 * sequence or the combined state its fault needs, so the fault test sees each one change an answer.
 */
export const SEQUENCE_SCENARIOS: Scenario[] = [
  {
    name: 'a note trashed, restored, read, backdated twice and updated',
    rules: [
      'notes.restore.edits-allowed-again',
      'notes.trashed-at.null-when-active',
      'notes.set-created-at.applied',
      'notes.update.created-at-unchanged',
    ],
    run(s) {
      const id = s.note('Heron\nbody');
      s.call('POST', `/v2/notes/${id}/trash`);
      s.later();
      s.call('POST', `/v2/notes/${id}/restore`);
      s.call('GET', `/v2/notes/${id}`);
      s.call('PATCH', `/v2/notes/${id}/created-at`, { created_at: iso(T0 - 10 * DAY) });
      s.call('PATCH', `/v2/notes/${id}/created-at`, { created_at: iso(T0 - 20 * DAY) });
      s.call('GET', `/v2/notes/${id}`);
      s.call('PATCH', `/v2/notes/${id}`, { content: 'Heron two\nbody', version: 1 });
      s.call('GET', `/v2/notes/${id}`);
    },
  },
  {
    name: 'a note updated twice, searched, then deleted and read',
    rules: ['notes.delete.permanent', 'notes.search.finds-matching-note'],
    run(s) {
      const id = s.note('Kingfisher\nbody');
      s.call('PATCH', `/v2/notes/${id}`, { content: 'Kingfisher one\nbody', version: 1 });
      s.call('PATCH', `/v2/notes/${id}`, { content: 'Kingfisher two\nbody', version: 2 });
      s.call('POST', '/v2/notes/search', { query: 'kingfisher' });
      s.call('DELETE', `/v2/notes/${id}`);
      s.call('GET', `/v2/notes/${id}`);
    },
  },
  {
    name: 'membership repeated, moved between three collections and back, a note deleted',
    rules: [
      'membership.collection-ids.current',
      'collections.read.note-count',
      'membership.move.moves',
      'notes.list.collection-filter',
      'notes.search.collection-filter',
    ],
    run(s) {
      const [a, b, c] = [s.coll('Alpha'), s.coll('Beta'), s.coll('Gamma')];
      const id = s.note('Plover\nbody');
      s.call('PUT', `/v2/collections/${a}/notes/${id}`);
      s.call('PUT', `/v2/collections/${a}/notes/${id}`);
      s.call('PUT', `/v2/collections/${b}/notes/${id}`);
      s.call('GET', `/v2/notes/${id}`);
      s.call('GET', `/v2/collections/${a}`);
      s.call('GET', `/v2/notes?collection_id=${a}`);
      s.call('POST', '/v2/notes/search', { query: 'plover', collection_ids: [a] });
      s.call('POST', `/v2/collections/${a}/notes/${id}/move`, { target_collection_id: c });
      s.call('GET', `/v2/notes/${id}`);
      s.call('POST', `/v2/collections/${c}/notes/${id}/move`, { target_collection_id: a });
      s.call('GET', `/v2/notes/${id}`);
      s.call('DELETE', `/v2/notes/${id}`);
      s.call('GET', `/v2/collections/${a}`);
      s.call('GET', '/v2/collections');
    },
  },
  {
    name: 'a collection renamed after its notes were linked, and named both ways on one create',
    rules: [
      'notes.related.collections-match',
      'collections.update.fields-applied',
      'notes.create.collection-titles-case-insensitive',
      'notes.create.collection-ids-linked',
      'membership.collection-ids.current',
      'collections.update.updated-at-defaults-to-server-time',
    ],
    run(s) {
      const c = s.coll('Waders');
      const other = s.coll('Gulls');
      const id = s.note('Curlew\nbody curlew', { collection_ids: [c] });
      s.note('Curlew again\nbody curlew', { collection_ids: [c] });
      s.later();
      s.call('PATCH', `/v2/collections/${c}`, { title: 'Shorebirds' });
      s.call('GET', `/v2/notes/${id}/related-notes`);
      s.call('POST', '/v2/collections/search', { query: 'shorebirds' });
      s.call('POST', '/v2/notes', { content: 'Dunlin\nbody', collection_titles: ['shorebirds'] });
      s.call('POST', '/v2/notes', { content: 'Knot\nbody', collection_titles: ['waders'] });
      s.call('POST', '/v2/notes', {
        content: 'Stint\nbody',
        collection_ids: [other],
        collection_titles: ['Shorebirds'],
      });
      s.call('POST', '/v2/notes', { content: 'Ruff\nbody', collection_ids: [c], collection_titles: ['Shorebirds'] });
      s.later();
      s.call('PATCH', `/v2/collections/${c}`, { title: 'Shorebirds' });
    },
  },
  {
    name: 'pages that end exactly at the last item, and a filtered walk',
    rules: [
      'notes.list.next-page-omitted-at-end',
      'collections.list.next-page-null-at-end',
      'notes.list.total-before-pagination',
    ],
    run(s) {
      for (const t of ['One', 'Two', 'Three', 'Four']) {
        s.note(`${t}\nbody`);
        s.coll(t);
        s.later();
      }
      const first = s.call('GET', '/v2/notes?limit=2');
      s.call('GET', `/v2/notes?limit=2&cursor=${String(first.next_page)}`);
      s.call('GET', '/v2/notes?limit=4');
      s.call('GET', '/v2/collections?limit=4');
      const bounded = s.call('GET', `/v2/notes?limit=1&filter_by_created_after=${iso(T0 + 1500)}`);
      s.call('GET', `/v2/notes?limit=1&filter_by_created_after=${iso(T0 + 1500)}&cursor=${String(bounded.next_page)}`);
    },
  },
];
