import { iso, type Scenario, T0 } from './fault-session.js';

const YEAR_AGO = iso(T0 - 365 * 86_400_000);
const DAY = 86_400_000;

/** Scenarios for issue 10's missing rules (folded into fault-scenarios.ts when the branches meet). */
export const NEW_SCENARIOS: Scenario[] = [
  {
    name: 'views after writes: a search after an update, a collection list and read after a create and a PATCH',
    rules: ['notes.title.first-line', 'collections.update.fields-applied', 'collections.create.fields-stored'],
    run(s) {
      const id = s.note('Sparrow\nbody');
      s.call('PATCH', `/v2/notes/${id}`, { content: 'Heron sparrow\nbody', version: 1 });
      s.call('POST', '/v2/notes/search', { query: 'sparrow' });
      const c = s.coll('Birds', { description: 'Seen in spring' });
      s.call('PATCH', `/v2/collections/${c}`, { title: 'Waders' });
      s.call('GET', '/v2/collections');
      s.call('GET', `/v2/collections/${c}`);
    },
  },
  {
    name: 'a content update keeps created_at',
    rules: ['notes.update.created-at-unchanged'],
    run(s) {
      const id = s.note('Old\nbody', { created_at: YEAR_AGO });
      s.later(5_000);
      s.call('PATCH', `/v2/notes/${id}`, { content: 'New\nbody', version: 1 });
      s.call('GET', `/v2/notes/${id}`);
    },
  },
  {
    name: 'an update without content',
    rules: ['notes.update.content-required'],
    run(s) {
      const id = s.note('Kept\nbody');
      s.call('PATCH', `/v2/notes/${id}`, { version: 1 });
      s.call('GET', `/v2/notes/${id}`);
    },
  },
  {
    name: 'a collection PATCH keeps created_at',
    rules: ['collections.update.partial'],
    run(s) {
      const c = s.coll('Dated', { created_at: YEAR_AGO });
      s.later(5_000);
      s.call('PATCH', `/v2/collections/${c}`, { title: 'Renamed' });
      s.call('GET', `/v2/collections/${c}`);
    },
  },
  {
    name: 'a note added twice',
    rules: ['membership.collection-ids.current'],
    run(s) {
      const id = s.note('Twice');
      const c = s.coll('Once');
      s.call('PUT', `/v2/collections/${c}/notes/${id}`);
      s.call('PUT', `/v2/collections/${c}/notes/${id}`);
      s.call('GET', `/v2/notes/${id}`);
      s.call('GET', '/v2/notes');
    },
  },
  {
    name: 'impossible dates',
    rules: ['conventions.timestamps.real-dates'],
    run(s) {
      s.call('POST', '/v2/notes', { content: 'month 13', created_at: '2019-13-01T00:00:00Z' });
      s.call('POST', '/v2/collections', { title: 'February 30', created_at: '2019-02-30T12:00:00Z' });
      const id = s.note('dated');
      s.call('PATCH', `/v2/notes/${id}/created-at`, { created_at: '2019-04-31T08:30:00+02:00' });
    },
  },
  {
    name: 'the collection list of another user',
    rules: ['auth.scope.collections-isolated'],
    run(s) {
      s.coll('Alice private');
      s.as('bob-token-0').call('GET', '/v2/collections');
    },
  },
  {
    name: 'a deleted note is gone from the list and from updates',
    rules: ['notes.delete.permanent'],
    run(s) {
      const id = s.note('Doomed');
      s.call('DELETE', `/v2/notes/${id}`);
      s.call('GET', `/v2/notes/${id}`);
      s.call('GET', '/v2/notes');
      s.call('PATCH', `/v2/notes/${id}`, { content: 'Back', version: 1 });
    },
  },
  {
    name: 'set-created-at drives the list order and bounds',
    rules: ['notes.set-created-at.lists-follow'],
    run(s) {
      const a = s.note('first');
      const b = s.note('second');
      s.call('PATCH', `/v2/notes/${a}/created-at`, { created_at: iso(T0 - 2 * DAY) });
      s.call('PATCH', `/v2/notes/${b}/created-at`, { created_at: iso(T0 - 3 * DAY) });
      s.call('GET', '/v2/notes?order_by=created_at');
      s.call('GET', `/v2/notes?filter_by_created_before=${iso(T0 - DAY)}`);
      s.call('DELETE', `/v2/notes/${a}`);
      s.call('GET', '/v2/notes?order_by=created_at');
    },
  },
  {
    name: 'a quota refusal creates nothing',
    rules: ['quota.create.exceeded-body'],
    run(s) {
      const token = s.user({ quota: { limit: 1 } });
      s.call('POST', '/v2/notes', { content: 'a' }, token);
      s.call('POST', '/v2/notes', { content: 'b', id: '0d5b1c7e-8a8e-4a7f-9a55-2f0d6c1e9b01' }, token);
      s.call('GET', '/v2/notes/0d5b1c7e-8a8e-4a7f-9a55-2f0d6c1e9b01', undefined, token);
    },
  },
  {
    name: 'a plain note reads empty media lists',
    rules: ['notes.read.response-fields'],
    run(s) {
      s.call('GET', `/v2/notes/${s.note('Plain')}`);
    },
  },
  {
    name: 'the attachment download URL',
    rules: ['attachments.download-url.exists'],
    run(s) {
      const n = s.note('with pdf');
      const a = s.admin('POST', `/notes/${n}/attachments`, { attachment_kind: 'pdf', page_count: 1 });
      s.call('GET', `/v2/note-attachments/${a.attachment_id}/download-url`);
      s.call('GET', `/v2/note-attachments/${a.attachment_id}/download-url`, undefined, '');
    },
  },
  {
    name: 'a padded search query',
    rules: ['notes.search.query-non-whitespace'],
    run(s) {
      s.note('apple pie');
      s.call('POST', '/v2/notes/search', { query: '  apple  ' });
    },
  },
  {
    name: 'related-note collection summaries after a later link',
    rules: ['notes.related.collections-match'],
    run(s) {
      const c1 = s.coll('first');
      const c2 = s.coll('later');
      const base = s.note('apple pie\napples');
      const kin = s.note('apple crumble\napples', { collection_ids: [c1] });
      s.call('PUT', `/v2/collections/${c2}/notes/${kin}`);
      s.call('GET', `/v2/notes/${base}/related-notes`);
    },
  },
  {
    name: 'astral characters round-trip',
    rules: ['notes.create.content-stored'],
    run(s) {
      s.call('GET', `/v2/notes/${s.note('Emoji \u{1F600}\nfamily \u{1F469}\u200D\u{1F469}\u200D\u{1F467}')}`);
    },
  },
  {
    name: 'emoji at the content limits',
    rules: ['notes.update.content-max-chars', 'notes.create.content-max-bytes'],
    run(s) {
      const id = s.note('x');
      s.call('PATCH', `/v2/notes/${id}`, { content: '\u{1F600}'.repeat(100_001), version: 1 });
      s.call('POST', '/v2/notes', { content: '\u{1F600}'.repeat(50_000) });
    },
  },
  {
    name: 'a deleted collection leaves no link behind, in reads or in the list',
    rules: ['collections.delete.unlinks-notes', 'collections.delete.notes-survive'],
    run(s) {
      const gone = s.coll('gone');
      const kept = s.coll('kept');
      const id = s.note('held', { collection_ids: [gone, kept] });
      s.call('DELETE', `/v2/collections/${gone}`);
      s.call('GET', `/v2/notes/${id}`);
      s.call('GET', '/v2/notes');
    },
  },
  {
    name: 'a capture, with and without a token, and the note it files',
    rules: ['notes.capture.request-id', 'notes.capture.bearer-required'],
    run(s) {
      s.call('POST', '/v2/mem-it', { input: 'Captured\nthought' });
      s.call('POST', '/v2/mem-it', { input: 'Anonymous' }, '');
      s.call('GET', '/v2/notes');
    },
  },
];
