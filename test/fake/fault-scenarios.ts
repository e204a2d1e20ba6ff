import { iso, MISSING, type Scenario, T0 } from './fault-session.js';
import { NEW_SCENARIOS } from './new-fault-scenarios.js';
import { SEQUENCE_SCENARIOS } from './sequence-fault-scenarios.js';

const PAST = iso(T0 - 86_400_000);
const HOUR_AGO = iso(T0 - 3_600_000);

/** Scenarios, each exercising a few rules; every fault must change what some scenario of its rules observes. */
export const SCENARIOS: Scenario[] = [
  {
    name: 'note write responses',
    rules: [
      'conventions.request-id.on-every-success',
      'conventions.request-id.unique',
      'conventions.success.status-200',
      'conventions.json.bodies',
      'conventions.json.content-type',
      'conventions.timestamps.response-format',
      'notes.create.response-fields',
      'notes.create.response-omits-trashed-at',
      'notes.update.response-fields',
      'notes.set-created-at.response-fields',
      'notes.trashed-at.null-when-active',
      'notes.read-only-fields.absent-from-writes',
      'notes.read.response-fields',
      'notes.delete.response-fields',
      'notes.title.first-line',
      'notes.create.content-stored',
      'notes.create.version-positive',
      'conventions.ids.uuid',
      'notes.create.id-generated',
    ],
    run(s) {
      const id = s.note('Title line\nbody  \n');
      s.call('GET', `/v2/notes/${id}`);
      s.call('PATCH', `/v2/notes/${id}`, { content: 'Second\nbody', version: 1 });
      s.call('PATCH', `/v2/notes/${id}/created-at`, { created_at: PAST });
      s.call('GET', '/v2/notes');
      const c = s.coll('c');
      s.call('PUT', `/v2/collections/${c}/notes/${id}`);
      s.call('POST', `/v2/notes/${id}/trash`);
      s.call('DELETE', `/v2/notes/${id}`);
    },
  },
  {
    name: 'collection responses',
    rules: [
      'collections.create.response-fields',
      'collections.create.response-omits-note-count',
      'collections.read.response-fields',
      'collections.update.response-fields',
      'collections.update.response-omits-note-count',
      'collections.list.item-fields',
      'collections.list.response-fields',
      'collections.search.item-fields',
      'collections.search.response-fields',
      'collections.read.no-state-field',
      'collections.read.no-note-list',
      'collections.delete.response-fields',
      'conventions.ids.uuid',
      'collections.create.id-generated',
      'collections.read.note-count',
      'conventions.request-id.on-every-success',
      'conventions.success.status-200',
    ],
    run(s) {
      const c = s.coll('Kitchen', { description: 'pots' });
      s.call('POST', '/v2/notes', { content: 'n', collection_ids: [c] });
      s.call('GET', `/v2/collections/${c}`);
      s.call('PATCH', `/v2/collections/${c}`, { title: 'Kitchen 2' });
      s.call('GET', '/v2/collections');
      s.call('POST', '/v2/collections/search', { query: 'kitchen' });
      s.call('DELETE', `/v2/collections/${c}`);
    },
  },
  {
    name: 'list and search shapes',
    rules: [
      'notes.list.item-fields',
      'notes.list.response-fields',
      'notes.search.item-fields',
      'notes.search.response-fields',
      'notes.related.item-fields',
      'notes.related.response-fields',
      'notes.read.attachment-metadata-fields',
      'notes.read.response-fields',
      'membership.add.response-fields',
      'membership.move.response-fields',
      'headers.rate-limit.families',
      'headers.rate-limit.declared',
    ],
    run(s) {
      const a = s.note('apple pie\nrecipe with apples');
      const b = s.note('apple crumble\napples and flour');
      s.admin('POST', `/notes/${a}/attachments`, { attachment_kind: 'pdf', page_count: 2 });
      s.call('GET', `/v2/notes/${a}`);
      s.call('GET', '/v2/notes');
      s.call('POST', '/v2/notes/search', { query: 'apple' });
      s.call('GET', `/v2/notes/${a}/related-notes`);
      const c1 = s.coll('one');
      const c2 = s.coll('two');
      s.call('PUT', `/v2/collections/${c1}/notes/${b}`);
      s.call('POST', `/v2/collections/${c1}/notes/${b}/move`, { target_collection_id: c2 });
    },
  },
  {
    name: 'timestamps with offsets',
    rules: ['conventions.timestamps.offset-honoured', 'conventions.timestamps.compare-instants'],
    run(s) {
      s.call('POST', '/v2/notes', { content: 'east', created_at: '2026-06-02T01:00:00.000+14:00' });
      s.call('POST', '/v2/notes', { content: 'west', created_at: '2026-06-01T08:00:00.000-05:00' });
      s.call('POST', '/v2/notes', { content: 'plus one', updated_at: '2026-06-01T12:30:00.000+01:00' });
    },
  },
  {
    name: 'note create validation and limits',
    rules: [
      'notes.create.content-required',
      'notes.create.field-types',
      'notes.create.content-max-chars',
      'notes.create.content-max-bytes',
      'notes.create.collection-titles-max-chars',
      'notes.create.collection-titles-max-bytes',
      'notes.create.id-must-be-uuid',
      'errors.bad-input.no-5xx',
      'errors.status.validation',
      'errors.body.shape',
    ],
    run(s) {
      s.call('POST', '/v2/notes', {});
      s.call('POST', '/v2/notes', { content: 42 });
      s.call('POST', '/v2/notes', { content: 'x'.repeat(200_000) });
      s.call('POST', '/v2/notes', { content: 'x'.repeat(200_001) });
      s.call('POST', '/v2/notes', { content: 'é'.repeat(100_001) });
      s.call('POST', '/v2/notes', { content: 'x', collection_titles: ['t'.repeat(1001)] });
      s.call('POST', '/v2/notes', { content: 'x', collection_titles: ['é'.repeat(501)] });
      s.call('POST', '/v2/notes', { content: 'x', id: 'note-1' });
      s.call('POST', '/v2/notes', '{"content": ', 'alice-token', true);
      s.call('GET', '/v2/notes?limit=200');
    },
  },
  {
    name: 'note create timestamps',
    rules: [
      'notes.create.created-at-honoured',
      'notes.create.created-at-offset-required',
      'notes.create.created-at-not-future',
      'notes.create.created-at-defaults-to-updated-at',
      'notes.create.created-at-defaults-to-server-time',
      'notes.create.updated-at-honoured',
      'notes.create.updated-at-offset-required',
      'notes.create.updated-at-not-future',
      'notes.create.updated-at-defaults-to-server-time',
    ],
    run(s) {
      s.call('POST', '/v2/notes', { content: 'a', created_at: PAST });
      s.call('POST', '/v2/notes', { content: 'b', updated_at: PAST });
      s.call('POST', '/v2/notes', { content: 'c' });
      s.call('POST', '/v2/notes', { content: 'd', created_at: PAST, updated_at: HOUR_AGO });
      s.call('POST', '/v2/notes', { content: 'e', created_at: '2026-05-01T00:00:00' });
      s.call('POST', '/v2/notes', { content: 'f', updated_at: '2026-05-01T00:00:00' });
      s.call('POST', '/v2/notes', { content: 'g', created_at: iso(T0 + 60_000) });
      s.call('POST', '/v2/notes', { content: 'h', updated_at: iso(T0 + 60_000) });
      s.call('GET', '/v2/notes'); // what the refused creates left (nothing)
    },
  },
  {
    name: 'note ids',
    rules: [
      'notes.create.id-honoured',
      'notes.create.id-conflict-409',
      'notes.create.id-conflict-no-upsert',
      'notes.create.id-conflict-409-trashed',
      'notes.create.id-conflict-409-other-user',
    ],
    run(s) {
      const id = '0b6f7a52-3c1e-4f0e-9d7a-1b2c3d4e5f60';
      s.call('POST', '/v2/notes', { id, content: 'first' });
      s.call('POST', '/v2/notes', { id, content: 'second' });
      s.call('GET', `/v2/notes/${id}`);
      s.as('bob-token-0').call('POST', '/v2/notes', { id, content: 'bob' });
      s.call('POST', `/v2/notes/${id}/trash`);
      s.call('POST', '/v2/notes', { id, content: 'third' });
      s.call('GET', `/v2/notes/${id}`);
    },
  },
  {
    name: 'note create links',
    rules: [
      'notes.create.collection-ids-linked',
      'notes.create.collection-ids-unknown-ignored',
      'notes.create.collection-ids-inaccessible-ignored',
      'notes.create.collection-titles-case-insensitive',
      'notes.create.collection-titles-exact',
      'notes.create.collection-titles-unmatched-ignored',
      'membership.note.several-collections',
      'notes.create.collection-titles-inaccessible-ignored',
    ],
    run(s) {
      const home = s.coll('Home');
      s.coll('Work Stuff');
      const bobs = s.coll('Bob', {}, 'bob-token-0');
      s.call('POST', '/v2/notes', { content: 'a', collection_ids: [home, MISSING] });
      s.call('POST', '/v2/notes', { content: 'b', collection_ids: [bobs] });
      s.call('POST', '/v2/notes', { content: 'c', collection_titles: ['WORK STUFF'] });
      s.call('POST', '/v2/notes', { content: 'd', collection_titles: ['Work'] });
      s.call('POST', '/v2/notes', { content: 'e', collection_titles: ['nothing'] });
      const n = s.note('f');
      const other = s.coll('Other');
      s.call('PUT', `/v2/collections/${home}/notes/${n}`);
      s.call('PUT', `/v2/collections/${other}/notes/${n}`);
      s.call('GET', `/v2/notes/${n}`);
      s.as('bob-token-0').call('GET', `/v2/collections/${bobs}`);
      s.call('POST', '/v2/notes', { content: 'g', collection_titles: ['bob'] });
      s.as('bob-token-0').call('GET', `/v2/collections/${bobs}`);
    },
  },
  {
    name: 'read, trash, restore, delete',
    rules: [
      'notes.read.trashed-included',
      'notes.trash.readable-by-id',
      'notes.trash.sets-trashed-at',
      'notes.restore.returns-to-active',
      'notes.restore.edits-allowed-again',
      'notes.delete.active-or-trashed',
      'notes.delete.permanent',
      'notes.delete.not-restorable',
      'notes.read.invalid-id-refused',
      'errors.missing.note-refused',
      'errors.status.not-found',
      'errors.status.trashed',
      'notes.update.trashed-refused',
      'notes.set-created-at.trashed-refused',
    ],
    run(s) {
      const id = s.note('a');
      s.later();
      s.call('POST', `/v2/notes/${id}/trash`);
      s.call('GET', `/v2/notes/${id}`);
      s.call('PATCH', `/v2/notes/${id}`, { content: 'b', version: 1 });
      s.call('PATCH', `/v2/notes/${id}/created-at`, { created_at: PAST });
      s.call('POST', `/v2/notes/${id}/restore`);
      s.call('GET', `/v2/notes/${id}`);
      s.call('PATCH', `/v2/notes/${id}`, { content: 'c', version: 1 });
      s.call('POST', `/v2/notes/${id}/trash`);
      s.call('DELETE', `/v2/notes/${id}`);
      s.call('GET', `/v2/notes/${id}`);
      s.call('POST', `/v2/notes/${id}/restore`);
      s.call('GET', `/v2/notes/${id}`);
      s.call('DELETE', `/v2/notes/${id}`);
      s.call('GET', '/v2/notes/not-a-uuid');
    },
  },
  {
    name: 'note update',
    rules: [
      'notes.update.content-replaced',
      'notes.update.content-max-chars',
      'notes.update.version-required',
      'notes.update.version-min-1',
      'notes.update.version-stale-refused',
      'notes.update.version-ahead-refused',
      'notes.update.version-changes',
      'notes.update.version-from-read-or-write',
      'notes.update.updated-at-honoured',
      'notes.update.updated-at-defaults-to-server-time',
      'notes.update.updated-at-offset-required',
      'errors.status.version-mismatch',
      'notes.update.field-types',
    ],
    run(s) {
      const id = s.note('one\nold');
      s.later();
      const v = s.call('PATCH', `/v2/notes/${id}`, { content: 'two', version: 1 }).version as number;
      s.call('PATCH', `/v2/notes/${id}`, { content: 'three', version: v });
      s.call('PATCH', `/v2/notes/${id}`, { content: 'stale', version: 1 });
      s.call('PATCH', `/v2/notes/${id}`, { content: 'ahead', version: 99 });
      s.call('PATCH', `/v2/notes/${id}`, { content: 'zero', version: 0 });
      s.call('PATCH', `/v2/notes/${id}`, { content: 'none' });
      s.call('PATCH', `/v2/notes/${id}`, { content: 12, version: v + 1 });
      s.call('PATCH', `/v2/notes/${id}`, { content: 'text', version: String(v + 1) });
      s.call('GET', `/v2/notes/${id}`);
      const current = s.call('GET', `/v2/notes/${id}`).version as number;
      s.call('PATCH', `/v2/notes/${id}`, { content: 'x'.repeat(200_001), version: current });
      s.call('PATCH', `/v2/notes/${id}`, { content: 'kept time', version: current, updated_at: PAST });
      s.call('PATCH', `/v2/notes/${id}`, {
        content: 'no offset',
        version: current + 1,
        updated_at: '2026-01-01T00:00:00',
      });
      s.call('GET', `/v2/notes/${id}`);
    },
  },
  {
    name: 'set created-at',
    rules: [
      'notes.set-created-at.applied',
      'notes.set-created-at.required',
      'notes.set-created-at.offset-required',
      'notes.set-created-at.not-future',
      'notes.set-created-at.backdate-only',
      'notes.set-created-at.original-creation-bound',
      'notes.set-created-at.metadata-only',
      'notes.set-created-at.version-unchanged',
      'notes.set-created-at.original-inclusive',
    ],
    run(s) {
      const id = s.note('Title\nbody');
      s.later(120_000);
      s.call('PATCH', `/v2/notes/${id}/created-at`, { created_at: PAST });
      s.call('GET', `/v2/notes/${id}`);
      s.call('PATCH', `/v2/notes/${id}/created-at`, { created_at: iso(T0 - 1000) });
      s.call('PATCH', `/v2/notes/${id}/created-at`, { created_at: iso(T0) });
      s.call('PATCH', `/v2/notes/${id}/created-at`, { created_at: iso(T0 + 60_000) });
      s.call('PATCH', `/v2/notes/${id}/created-at`, { created_at: iso(T0 + 600_000) });
      s.call('PATCH', `/v2/notes/${id}/created-at`, {});
      s.call('PATCH', `/v2/notes/${id}/created-at`, { created_at: '2026-01-01T00:00:00' });
      s.call('GET', `/v2/notes/${id}`);
    },
  },
  {
    name: 'note list paging and filters',
    rules: [
      'notes.list.limit-range',
      'notes.list.limit-default-50',
      'notes.list.order-by-values',
      'notes.list.order-by-honoured',
      'notes.list.order-by-default-updated-at',
      'notes.list.order-direction',
      'notes.list.bounds-filter',
      'notes.list.bounds-inclusive',
      'notes.list.bounds-offset-required',
      'notes.list.cursor-pages',
      'notes.list.next-page-omitted-at-end',
      'notes.list.total-before-pagination',
      'notes.list.content-omitted-by-default',
      'notes.list.include-content',
      'notes.list.cursor-filter-mismatch',
      'notes.list.parameter-names',
    ],
    run(s) {
      for (let i = 0; i < 55; i++)
        s.call('POST', '/v2/notes', {
          content: `n${i}`,
          created_at: iso(T0 - (60 - i) * 60_000),
          updated_at: iso(T0 - ((i * 7) % 55) * 1000),
        });
      s.call('GET', '/v2/notes');
      s.call('GET', '/v2/notes?limit=101');
      s.call('GET', '/v2/notes?limit=100');
      s.call('GET', '/v2/notes?order_by=title');
      const first = s.call('GET', '/v2/notes?limit=20&order_by=created_at');
      const second = s.call(
        'GET',
        `/v2/notes?limit=20&order_by=created_at&page=${encodeURIComponent(String(first.next_page))}`,
      );
      s.call('GET', `/v2/notes?limit=20&order_by=created_at&page=${encodeURIComponent(String(second.next_page))}`);
      s.call('GET', `/v2/notes?limit=20&page=${encodeURIComponent(String(first.next_page))}`);
      s.call(
        'GET',
        `/v2/notes?filter_by_created_after=${encodeURIComponent(iso(T0 - 50 * 60_000))}&filter_by_created_before=${encodeURIComponent(iso(T0 - 45 * 60_000))}`,
      );
      s.call(
        'GET',
        `/v2/notes?filter_by_updated_after=${encodeURIComponent(iso(T0 - 3000))}&filter_by_updated_before=${encodeURIComponent(iso(T0 - 1000))}`,
      );
      s.call('GET', '/v2/notes?filter_by_created_after=2026-01-01T00:00:00');
      s.call('GET', '/v2/notes?limit=2&include_note_content=true');
      const c = s.coll('c');
      s.call('GET', `/v2/notes?collection_id=${c}`);
      // More notes than the largest page: its next_page must lead on.
      for (let i = 55; i < 105; i++) s.call('POST', '/v2/notes', { content: `n${i}` });
      s.call('GET', '/v2/notes?limit=100');
    },
  },
  {
    name: 'note list filters by collection and content',
    rules: [
      'notes.list.collection-filter',
      'notes.list.contains-filters',
      'notes.list.contains-or',
      'auth.scope.notes-list-isolated',
    ],
    run(s) {
      const c = s.coll('c');
      s.call('POST', '/v2/notes', { content: 'open\n- [ ] task', collection_ids: [c] });
      s.note('done\n- [x] task');
      s.note('img\n![a](https://x/y.png)');
      s.note('file\n[r](https://x/r.pdf)');
      s.note('bob', {}, 'bob-token-0');
      s.call('GET', '/v2/notes');
      s.call('POST', '/v2/notes/search', { query: 'bob' });
      s.call('GET', `/v2/notes?collection_id=${c}`);
      s.call('GET', '/v2/notes?contains_open_tasks=true');
      s.call('GET', '/v2/notes?contains_images=true&contains_files=true');
      s.call('GET', '/v2/notes?contains_tasks=true&contains_images=true');
    },
  },
  {
    name: 'search paging',
    rules: [
      'notes.search.limit-range',
      'notes.search.limit-default-20',
      'notes.search.limit-offset-echoed',
      'notes.search.offset-min-0',
      'notes.search.offset-zero-based',
      'notes.search.offset-default-0',
      'notes.search.paging-in-query',
      'notes.search.snapshot-required',
      'notes.search.snapshot-frozen',
      'notes.search.snapshot-pages',
      'notes.search.query-required',
      'notes.search.query-non-whitespace',
      'notes.search.total-capped-100',
      'notes.search.has-next-page',
      'notes.search.snapshot-unknown',
      'notes.search.relevance-ranked',
      'notes.search.finds-matching-note',
    ],
    run(s) {
      const strong = s.note('zebra\nzebra stripes');
      for (let i = 0; i < 104; i++) s.note(`animal ${i}\nsome text about a zebra ${'and more '.repeat(i % 9)}`);
      s.later();
      const first = s.call('POST', '/v2/notes/search?limit=25', { query: 'zebra' });
      s.call('PATCH', `/v2/notes/${strong}`, { content: 'horse', version: 1 });
      s.note('zebra zebra zebra');
      for (let offset = 25; offset <= 100; offset += 25) {
        s.call('POST', `/v2/notes/search?limit=25&offset=${offset}&snapshot_id=${first.snapshot_id}`, {
          query: 'zebra',
        });
      }
      s.call('POST', '/v2/notes/search', { query: 'zebra' });
      s.call('POST', '/v2/notes/search?limit=51', { query: 'zebra' });
      s.call('POST', '/v2/notes/search?limit=1.5', { query: 'zebra' });
      s.call('POST', '/v2/notes/search?offset=0.5', { query: 'zebra' });
      s.call('POST', '/v2/notes/search?offset=-1', { query: 'zebra' });
      s.call('POST', '/v2/notes/search?offset=5', { query: 'zebra' });
      s.call('POST', '/v2/notes/search?offset=5&snapshot_id=nope', { query: 'zebra' });
      s.call('POST', '/v2/notes/search', {});
      s.call('POST', '/v2/notes/search', { query: '   ' });
      s.call('POST', '/v2/notes/search', { query: 'stripes' });
      s.note('Quokka\nsmall marsupial');
      s.call('POST', '/v2/notes/search', { query: 'quokka' });
    },
  },
  {
    name: 'search filters',
    rules: [
      'notes.search.bounds-filter',
      'notes.search.bounds-inclusive',
      'notes.search.bounds-offset-required',
      'notes.search.collection-filter',
      'notes.search.contains-filters',
      'notes.search.contains-or',
      'notes.search.parameter-names',
    ],
    run(s) {
      const c1 = s.coll('one');
      const c2 = s.coll('two');
      s.call('POST', '/v2/notes', { content: 'lemon a', collection_ids: [c1], created_at: iso(T0 - 3000) });
      s.call('POST', '/v2/notes', {
        content: 'lemon b\n- [ ] x',
        collection_ids: [c1, c2],
        created_at: iso(T0 - 2000),
      });
      s.call('POST', '/v2/notes', { content: 'lemon c\n![i](https://x/i.png)', created_at: iso(T0 - 1000) });
      s.call('POST', '/v2/notes/search', {
        query: 'lemon',
        filter_by_created_after: iso(T0 - 2000),
        filter_by_created_before: iso(T0 - 1000),
      });
      s.call('POST', '/v2/notes/search', { query: 'lemon', filter_by_created_after: '2026-01-01T00:00:00' });
      s.call('POST', '/v2/notes/search', { query: 'lemon', collection_ids: [c1, c2] });
      s.call('POST', '/v2/notes/search', { query: 'lemon', collection_ids: [c2] });
      s.call('POST', '/v2/notes/search', { query: 'lemon', contains_images: true });
      s.call('POST', '/v2/notes/search', { query: 'lemon', contains_open_tasks: true, contains_images: true });
    },
  },
  {
    name: 'related notes',
    rules: [
      'notes.related.limit-range',
      'notes.related.limit-default-10',
      'notes.related.requires-access',
      'notes.related.current-content',
      'auth.scope.related-notes-isolated',
    ],
    run(s) {
      const base = s.note('sourdough bread\nflour water salt');
      for (let i = 0; i < 14; i++) s.note(`bread ${i}\nflour`);
      s.note('sourdough bread flour water salt', {}, 'bob-token-0');
      s.call('GET', `/v2/notes/${base}/related-notes`);
      s.call('GET', `/v2/notes/${base}/related-notes?limit=21`);
      s.call('GET', `/v2/notes/${base}/related-notes?limit=20`);
      s.as('bob-token-0').call('GET', `/v2/notes/${base}/related-notes`);
      s.call('PATCH', `/v2/notes/${base}`, { content: 'car engine\noil', version: 1 });
      s.note('car repair\noil change engine');
      s.call('GET', `/v2/notes/${base}/related-notes`);
    },
  },
  {
    name: 'collection create',
    rules: [
      'collections.create.title-required',
      'collections.create.title-max-chars',
      'collections.create.title-max-bytes',
      'collections.create.description-max-chars',
      'collections.create.description-max-bytes',
      'collections.create.nullable-fields',
      'collections.create.null-as-omitted',
      'collections.create.id-honoured',
      'collections.create.id-must-be-uuid',
      'collections.create.id-conflict-409',
      'collections.create.id-conflict-no-upsert',
      'collections.create.id-conflict-409-trashed',
      'collections.create.id-conflict-409-other-user',
      'collections.create.created-at-honoured',
      'collections.create.created-at-offset-required',
      'collections.create.created-at-not-future',
      'collections.create.created-at-defaults-to-updated-at',
      'collections.create.created-at-defaults-to-server-time',
      'collections.create.updated-at-honoured',
      'collections.create.updated-at-offset-required',
      'collections.create.updated-at-not-future',
      'collections.create.updated-at-defaults-to-created-at',
      'collections.create.field-types',
    ],
    run(s) {
      s.call('POST', '/v2/collections', {});
      s.call('POST', '/v2/collections', { title: 42 });
      s.call('POST', '/v2/collections', { title: 't'.repeat(1001) });
      s.call('POST', '/v2/collections', { title: 'é'.repeat(501) });
      s.call('POST', '/v2/collections', { title: 't', description: 'd'.repeat(10_001) });
      s.call('POST', '/v2/collections', { title: 't', description: 'é'.repeat(5001) });
      s.call('POST', '/v2/collections', {
        title: 'nulls',
        id: null,
        description: null,
        created_at: null,
        updated_at: null,
      });
      const id = '5a0c1f3e-8d2b-4c6a-9e7f-0a1b2c3d4e5f';
      s.call('POST', '/v2/collections', { id, title: 'mine' });
      s.call('POST', '/v2/collections', { id, title: 'again' });
      s.call('GET', `/v2/collections/${id}`);
      s.as('bob-token-0').call('POST', '/v2/collections', { id, title: 'bob' });
      s.call('POST', `/v2/collections/${id}/trash`);
      s.call('POST', '/v2/collections', { id, title: 'after trash' });
      s.call('POST', '/v2/collections', { id: 'x', title: 'bad id' });
      s.call('POST', '/v2/collections', { title: 'a', created_at: PAST });
      s.call('POST', '/v2/collections', { title: 'b', updated_at: PAST });
      s.call('POST', '/v2/collections', { title: 'c', created_at: PAST, updated_at: HOUR_AGO });
      s.call('POST', '/v2/collections', { title: 'd', created_at: '2026-01-01T00:00:00' });
      s.call('POST', '/v2/collections', { title: 'e', updated_at: '2026-01-01T00:00:00' });
      s.call('POST', '/v2/collections', { title: 'f', created_at: iso(T0 + 60_000) });
      s.call('POST', '/v2/collections', { title: 'g', updated_at: iso(T0 + 60_000) });
    },
  },
  {
    name: 'collection update, delete, read',
    rules: [
      'collections.update.partial',
      'collections.update.title-max-chars',
      'collections.update.title-max-bytes',
      'collections.update.description-max-chars',
      'collections.update.description-max-bytes',
      'collections.update.updated-at-preserved',
      'collections.update.updated-at-defaults-to-server-time',
      'collections.update.updated-at-offset-required',
      'collections.update.updated-at-not-future',
      'collections.delete.permanent',
      'collections.delete.unlinks-notes',
      'collections.delete.notes-survive',
      'collections.read.invalid-id-refused',
      'errors.missing.collection-refused',
      'collections.update.field-types',
    ],
    run(s) {
      const c = s.coll('T', { description: 'D' });
      s.later();
      s.call('PATCH', `/v2/collections/${c}`, { title: 'T2' });
      s.call('PATCH', `/v2/collections/${c}`, { description: 7 });
      s.call('GET', `/v2/collections/${c}`);
      s.call('PATCH', `/v2/collections/${c}`, { title: 't'.repeat(1001) });
      s.call('PATCH', `/v2/collections/${c}`, { title: 'é'.repeat(501) });
      s.call('PATCH', `/v2/collections/${c}`, { description: 'd'.repeat(10_001) });
      s.call('PATCH', `/v2/collections/${c}`, { description: 'é'.repeat(5001) });
      s.call('PATCH', `/v2/collections/${c}`, { updated_at: PAST });
      s.call('PATCH', `/v2/collections/${c}`, { updated_at: '2026-01-01T00:00:00' });
      s.call('PATCH', `/v2/collections/${c}`, { updated_at: iso(T0 + 60_000) });
      s.call('GET', `/v2/collections/${c}`);
      const n = s.note('member', { collection_ids: [c] });
      s.call('DELETE', `/v2/collections/${c}`);
      s.call('GET', `/v2/collections/${c}`);
      s.call('GET', `/v2/notes/${n}`);
      s.call('DELETE', `/v2/collections/${c}`);
      s.call('GET', '/v2/collections/not-a-uuid');
    },
  },
  {
    name: 'collection list and search',
    rules: [
      'collections.list.limit-range',
      'collections.list.limit-default-50',
      'collections.list.order-by-values',
      'collections.list.order-by-honoured',
      'collections.list.order-by-default-updated-at',
      'collections.list.order-direction',
      'collections.list.bounds-filter',
      'collections.list.bounds-inclusive',
      'collections.list.bounds-offset-required',
      'collections.list.cursor-pages',
      'collections.list.next-page-null-at-end',
      'collections.list.total-before-pagination',
      'collections.list.cursor-filter-mismatch',
      'collections.list.parameter-names',
      'collections.search.query-optional',
      'collections.search.total-is-count',
      'collections.search.no-next-page',
      'collections.search.bounds-filter',
      'collections.search.bounds-offset-required',
      'collections.search.finds-by-title',
      'collections.search.parameter-names',
      'auth.scope.collections-isolated',
    ],
    run(s) {
      for (let i = 0; i < 55; i++)
        s.coll(`c${i} shelf`, {
          description: i === 3 ? 'special' : null,
          created_at: iso(T0 - (60 - i) * 60_000),
          updated_at: iso(T0 - ((i * 7) % 55) * 1000),
        });
      s.coll('bob shelf', {}, 'bob-token-0');
      s.call('GET', '/v2/collections');
      s.call('GET', '/v2/collections?limit=101');
      s.call('GET', '/v2/collections?order_by=title');
      const first = s.call('GET', '/v2/collections?limit=30&order_by=created_at');
      s.call('GET', `/v2/collections?limit=30&order_by=created_at&page=${encodeURIComponent(String(first.next_page))}`);
      s.call('GET', `/v2/collections?limit=30&page=${encodeURIComponent(String(first.next_page))}`);
      s.call(
        'GET',
        `/v2/collections?filter_by_created_after=${encodeURIComponent(iso(T0 - 50 * 60_000))}&filter_by_created_before=${encodeURIComponent(iso(T0 - 45 * 60_000))}`,
      );
      s.call(
        'GET',
        `/v2/collections?filter_by_updated_after=${encodeURIComponent(iso(T0 - 3000))}&filter_by_updated_before=${encodeURIComponent(iso(T0 - 1000))}`,
      );
      s.call('GET', '/v2/collections?filter_by_created_after=2026-01-01T00:00:00');
      s.call('POST', '/v2/collections/search', {});
      s.call('POST', '/v2/collections/search', { query: 'c3' });
      s.call('POST', '/v2/collections/search', {
        query: 'shelf',
        filter_by_created_after: iso(T0 - 50 * 60_000),
        filter_by_created_before: iso(T0 - 45 * 60_000),
      });
      s.call('POST', '/v2/collections/search', { query: 'shelf', filter_by_created_after: '2026-01-01T00:00:00' });
      s.as('bob-token-0').call('GET', '/v2/collections');
    },
  },
  {
    name: 'membership',
    rules: [
      'membership.add.links',
      'membership.add.link-only',
      'membership.add.missing-refused',
      'membership.add.requires-note-access',
      'membership.move.moves',
      'membership.move.content-unchanged',
      'membership.move.target-required',
      'membership.move.failed-add-keeps-source',
      'membership.move.missing-refused',
      'membership.remove.unlinks',
      'membership.collection-ids.current',
      'collections.read.note-count',
    ],
    run(s) {
      const a = s.coll('a');
      const b = s.coll('b');
      const n = s.note('note\nbody');
      s.call('PUT', `/v2/collections/${a}/notes/${n}`);
      s.call('GET', `/v2/notes/${n}`);
      s.call('GET', `/v2/collections/${a}`);
      s.call('PUT', `/v2/collections/${a}/notes/${MISSING}`);
      const bobs = s.note('bob private', {}, 'bob-token-0');
      s.call('PUT', `/v2/collections/${a}/notes/${bobs}`);
      s.call('POST', `/v2/collections/${a}/notes/${n}/move`, { target_collection_id: MISSING });
      s.call('GET', `/v2/notes/${n}`);
      s.call('POST', `/v2/collections/${a}/notes/${n}/move`, {});
      s.call('POST', `/v2/collections/${MISSING}/notes/${n}/move`, { target_collection_id: b });
      s.call('GET', `/v2/notes/${n}`);
      s.call('POST', `/v2/collections/${a}/notes/${n}/move`, { target_collection_id: b });
      s.call('GET', `/v2/notes/${n}`);
      s.call('GET', `/v2/collections/${a}`);
      s.call('DELETE', `/v2/collections/${b}/notes/${n}`);
      s.call('GET', `/v2/notes/${n}`);
      // Back into the collection it was removed from: an add like any other.
      s.call('PUT', `/v2/collections/${b}/notes/${n}`);
      s.call('GET', `/v2/notes/${n}`);
      s.call('GET', '/v2/notes');
    },
  },
  {
    name: 'auth',
    rules: [
      'auth.bearer.required',
      'auth.bearer.invalid-refused',
      'auth.scope.notes-isolated',
      'errors.status.unauthenticated',
    ],
    run(s) {
      const n = s.note('secret');
      s.call('GET', '/v2/notes', undefined, '');
      s.call('GET', `/v2/notes/${n}`, undefined, '');
      s.call('POST', '/v2/notes', { content: 'x' }, '');
      s.call('GET', '/v2/notes', undefined, 'unknown-token');
      s.as('bob-token-0').call('GET', `/v2/notes/${n}`);
      s.as('bob-token-0').call('PATCH', `/v2/notes/${n}`, { content: 'hacked', version: 1 });
      s.call('GET', `/v2/notes/${n}`);
    },
  },
  {
    name: 'permissions through grants',
    rules: [
      'permissions.access.read',
      'permissions.edit.update-delete',
      'permissions.own.set-created-at',
      'permissions.contribute.add',
      'permissions.collection.access-edit',
      'notes.trash.requires-edit',
      'notes.delete.requires-edit',
      'notes.update.requires-edit',
      'notes.set-created-at.requires-owner',
      'collections.update.requires-edit',
      'collections.delete.requires-edit',
      'membership.add.requires-contribute',
      'membership.move.requires-permissions',
      'errors.status.forbidden',
      'auth.scope.shared-visible',
    ],
    run(s) {
      const bob = s.userId('bob-token-0');
      const bobApi = s.as('bob-token-0');
      const n = s.note('shared');
      s.admin('POST', '/grants', { resource: 'note', id: n, user_id: bob, level: 'access' });
      bobApi.call('GET', `/v2/notes/${n}`);
      bobApi.call('GET', '/v2/notes');
      bobApi.call('PATCH', `/v2/notes/${n}`, { content: 'x', version: 1 });
      bobApi.call('POST', `/v2/notes/${n}/trash`);
      bobApi.call('DELETE', `/v2/notes/${n}`);
      s.admin('POST', '/grants', { resource: 'note', id: n, user_id: bob, level: 'edit' });
      bobApi.call('PATCH', `/v2/notes/${n}`, { content: 'edited', version: 1 });
      bobApi.call('PATCH', `/v2/notes/${n}/created-at`, { created_at: PAST });
      s.admin('POST', '/grants', { resource: 'note', id: n, user_id: bob, level: 'own' });
      bobApi.call('PATCH', `/v2/notes/${n}/created-at`, { created_at: PAST });
      const c = s.coll('team');
      const target = s.coll('target');
      const mine = s.note('bob note', {}, 'bob-token-0');
      s.admin('POST', '/grants', { resource: 'collection', id: c, user_id: bob, level: 'access' });
      s.admin('POST', '/grants', { resource: 'collection', id: target, user_id: bob, level: 'access' });
      bobApi.call('GET', `/v2/collections/${c}`);
      bobApi.call('PUT', `/v2/collections/${c}/notes/${mine}`);
      bobApi.call('PATCH', `/v2/collections/${c}`, { title: 'x' });
      bobApi.call('DELETE', `/v2/collections/${c}`);
      s.admin('POST', '/grants', { resource: 'collection', id: c, user_id: bob, level: 'contribute' });
      bobApi.call('PUT', `/v2/collections/${c}/notes/${mine}`);
      s.admin('POST', '/grants', { resource: 'collection', id: c, user_id: bob, level: 'edit' });
      bobApi.call('POST', `/v2/collections/${c}/notes/${mine}/move`, { target_collection_id: target });
      bobApi.call('GET', `/v2/notes/${mine}`);
      bobApi.call('PATCH', `/v2/collections/${c}`, { title: 'renamed' });
      bobApi.call('DELETE', `/v2/collections/${c}`);
      bobApi.call('DELETE', `/v2/notes/${n}`);
    },
  },
  {
    name: 'title heading markers',
    rules: ['notes.title.heading-markers'],
    run(s) {
      s.note('# Heading\nbody');
    },
  },
  {
    name: 'attachments',
    rules: ['attachments.question.length', 'attachments.question.response-fields'],
    run(s) {
      const n = s.note('with pdf');
      const a = s.admin('POST', `/notes/${n}/attachments`, {
        attachment_kind: 'pdf',
        page_count: 2,
        ocr_text: 'Revenue grew. Costs fell.',
      });
      const ask = (question: string) =>
        s.call('POST', `/v2/note-attachments/${a.attachment_id}/question`, {
          attachment_id: a.attachment_id,
          attachment_kind: 'pdf',
          question,
        });
      ask('What about revenue?');
      ask('');
      ask('q'.repeat(10_000));
      ask('q'.repeat(10_001));
    },
  },
  {
    name: 'quota',
    rules: ['quota.create.exceeded-body', 'quota.create.exceeded-status', 'quota.set-created-at.neutral'],
    run(s) {
      const token = s.user({ quota: { limit: 2 } });
      const first = s.call('POST', '/v2/notes', { content: 'a' }, token).id;
      s.call('PATCH', `/v2/notes/${first}/created-at`, { created_at: PAST }, token);
      s.call('POST', '/v2/notes', { content: 'b' }, token);
      s.call('POST', '/v2/notes', { content: 'c' }, token);
    },
  },
  {
    name: 'rate limit',
    rules: ['headers.rate-limit.exhausted', 'headers.rate-limit.families'],
    run(s) {
      const token = s.user({ rate_limit: { requests: 2, requests_per_second: 1 } });
      for (let i = 0; i < 3; i++) s.call('POST', '/v2/notes/search', { query: 'x' }, token);
    },
  },
  // Issue 10's missing rules, in their own file while other areas change this one.
  ...NEW_SCENARIOS,
  ...SEQUENCE_SCENARIOS,
];
