import { DomainError } from '../service/errors.js';
import { readBounds } from '../service/notes-list.js';
import { REFERENCE_POLICY } from '../service/policy.js';
import type { View } from '../service/views.js';
import type { NoteRecord } from '../store/records.js';
import type { Fault } from './hooks.js';
import { containsAll, exclusiveBounds, pretendingEach, wantedFeatures } from './query-support.js';
import { after, around, before, combined, fields, withFields, withQuery } from './support.js';

/** A query that is not blank but has no searchable term: it passes the query rules and matches nothing by itself. */
const TERMLESS = '-';
const BOUNDS = ['created_after', 'created_before', 'updated_after', 'updated_before'] as const;
const isBlank = (query: unknown) => typeof query === 'string' && !/\S/.test(query);
const positive = (offset: unknown) => typeof offset === 'string' && /^\d{1,15}$/.test(offset) && Number(offset) > 0;
const resultsOf = (view: View) => view.results as View[];

export const NOTES_SEARCH_FAULTS = {
  // ---- paging ----
  'notes.search.limit-max-off-by-one': {
    rules: ['notes.search.limit-range'],
    does: 'search limit 51 is accepted',
    hooks: () => ({ policy: { notesSearch: { max: 51 } } }),
  },
  'notes.search.default-limit-10': {
    rules: ['notes.search.limit-default-20'],
    does: 'the default search limit is 10',
    hooks: () => ({ policy: { notesSearch: { fallback: 10 } } }),
  },
  // The route accepts these fields in the body too; the operation then reads them there instead of the query.
  'notes.search.paging-from-body': {
    rules: ['notes.search.paging-in-query'],
    does: 'limit, offset and snapshot_id are read from the body',
    hooks: combined(
      () => ({
        routes: (table) =>
          table.map((r) =>
            r.op === 'searchNotes'
              ? { ...r, body: { ...r.body, limit: 'limit', offset: 'offset', snapshot_id: 'snapshot_id' } }
              : r,
          ),
      }),
      before('searchNotes', (_ctx, call) => {
        const body = call.body;
        if (body === null || typeof body !== 'object' || Array.isArray(body)) return call;
        const { limit, offset, snapshot_id } = fields(call);
        const moved = withFields(call, { limit: undefined, offset: undefined, snapshot_id: undefined });
        return { ...moved, query: { limit, offset, snapshot_id } };
      }),
    ),
  },
  'notes.search.negative-offset-accepted': {
    rules: ['notes.search.offset-min-0'],
    does: 'a negative offset is read as 0',
    hooks: before('searchNotes', (_ctx, call) => {
      const offset = call.query.offset;
      return typeof offset === 'string' && /^-\d+$/.test(offset) ? withQuery(call, { offset: '0' }) : call;
    }),
  },
  'notes.search.echo-default-limit': {
    rules: ['notes.search.limit-offset-echoed'],
    does: 'the response always reports limit 20',
    hooks: after('searchNotes', (_ctx, _call, view) => ({ ...view, limit: 20 })),
  },
  'notes.search.offset-omitted-when-default': {
    rules: ['notes.search.offset-default-0'],
    does: 'without offset the response has no offset field',
    hooks: after('searchNotes', (_ctx, call, view) => {
      if (call.query.offset !== undefined) return view;
      const { offset: _omitted, ...rest } = view;
      return rest;
    }),
  },
  // Offset k is read as the kth result (k - 1 from zero); the response still echoes k.
  'notes.search.offset-one-based': {
    rules: ['notes.search.offset-zero-based', 'notes.search.snapshot-pages'],
    does: 'offset k starts at the kth result, not the (k+1)th',
    hooks: around('searchNotes', (next) => (ctx, call) => {
      const offset = call.query.offset;
      if (!positive(offset) || call.query.snapshot_id === undefined) return next(ctx, call);
      const k = Number(offset);
      const view = next(ctx, withQuery(call, { offset: String(k - 1) }));
      return { ...view, offset: k, has_next_page: k + resultsOf(view).length < (view.total as number) };
    }),
  },
  'notes.search.has-next-page-full-page': {
    rules: ['notes.search.has-next-page'],
    does: 'has_next_page is true whenever the page is full',
    hooks: after('searchNotes', (_ctx, _call, view) => ({
      ...view,
      has_next_page: resultsOf(view).length === view.limit,
    })),
  },
  // The server ranks and counts every match, but still serves only the first 100.
  'notes.search.total-uncapped': {
    rules: ['notes.search.total-capped-100'],
    does: 'total counts every match, beyond the 100 window',
    hooks: () => {
      const served = REFERENCE_POLICY.notesSearch.window;
      return {
        policy: { notesSearch: { window: Number.MAX_SAFE_INTEGER } },
        ops: {
          searchNotes: (next) => (ctx, call) => {
            const view = next(ctx, call);
            const offset = typeof view.offset === 'number' ? view.offset : 0;
            const results = resultsOf(view).slice(0, Math.max(0, served - offset));
            return {
              ...view,
              results,
              has_next_page: offset + results.length < Math.min(view.total as number, served),
            };
          },
        },
      };
    },
  },

  // ---- snapshots ----
  // Later pages come from a fresh ranking (a new snapshot the client never sees), under the id it sent.
  'notes.search.snapshot-live': {
    rules: ['notes.search.snapshot-frozen'],
    does: 'later pages re-run the search instead of reading the snapshot',
    hooks: around('searchNotes', (next) => (ctx, call) => {
      const sent = call.query.snapshot_id;
      if (sent === undefined) return next(ctx, call);
      const fresh = next(ctx, withQuery(call, { snapshot_id: undefined, offset: undefined }));
      const page = next(ctx, withQuery(call, { snapshot_id: fresh.snapshot_id }));
      return { ...page, snapshot_id: String(sent) };
    }),
  },
  // Offset > 0 without a snapshot ranks afresh and reads the page from that new snapshot.
  'notes.search.snapshot-optional': {
    rules: ['notes.search.snapshot-required'],
    does: 'offset > 0 without snapshot_id ranks afresh',
    hooks: around('searchNotes', (next) => (ctx, call) => {
      if (call.query.snapshot_id !== undefined || !positive(call.query.offset)) return next(ctx, call);
      const fresh = next(ctx, withQuery(call, { offset: undefined }));
      return next(ctx, withQuery(call, { snapshot_id: fresh.snapshot_id }));
    }),
  },
  // Pages read with a snapshot_id come from the window read backwards.
  'notes.search.snapshot-reorders': {
    rules: ['notes.search.snapshot-pages'],
    does: 'later pages read the snapshot in reverse',
    hooks: around('searchNotes', (next) => (ctx, call) => {
      const view = next(ctx, call);
      if (call.query.snapshot_id === undefined) return view;
      const end = (view.total as number) - (view.offset as number);
      if (end <= 0) return view;
      const start = Math.max(0, end - (view.limit as number));
      const mirrored = next(ctx, withQuery(call, { offset: String(start), limit: String(end - start) }));
      return { ...view, results: [...resultsOf(mirrored)].reverse() };
    }),
  },

  // ---- the query ----
  // A missing or blank query becomes one without terms; the ranking then lists recent notes
  // (a seam in fake/service/notes-search.ts).
  'notes.search.query-optional': {
    rules: ['notes.search.query-required'],
    does: 'a search without query lists recent notes',
    hooks: combined(
      before('searchNotes', (_ctx, call) => {
        const query = fields(call).query;
        return query === undefined || isBlank(query) ? withFields(call, { query: TERMLESS }) : call;
      }),
      () => ({ seams: ['notes.search.query-optional'] }),
    ),
  },
  'notes.search.whitespace-query-accepted': {
    rules: ['notes.search.query-non-whitespace'],
    does: 'a whitespace-only query is accepted',
    hooks: before('searchNotes', (_ctx, call) =>
      isBlank(fields(call).query) ? withFields(call, { query: TERMLESS }) : call,
    ),
  },

  // ---- filters ----
  // The bounds are still validated, then dropped.
  'notes.search.bounds-ignored': {
    rules: ['notes.search.bounds-filter'],
    does: 'search time bounds are ignored',
    hooks: before('searchNotes', (ctx, call) => {
      try {
        readBounds(ctx, fields(call), 'notes.search.bounds');
      } catch (error) {
        if (error instanceof DomainError) return call;
        throw error;
      }
      return withFields(call, Object.fromEntries(BOUNDS.map((b) => [b, undefined])));
    }),
  },
  'notes.search.bounds-exclusive': {
    rules: ['notes.search.bounds-inclusive'],
    does: 'search bounds exclude a note exactly on them',
    hooks: before('searchNotes', (_ctx, call) => withFields(call, exclusiveBounds(fields(call)))),
  },
  'notes.search.images-filter-ignored': {
    rules: ['notes.search.contains-filters'],
    does: 'the image filter is ignored',
    hooks: before('searchNotes', (_ctx, call) =>
      typeof fields(call).images === 'boolean' ? withFields(call, { images: undefined }) : call,
    ),
  },
  'notes.search.contains-and': {
    rules: ['notes.search.contains-or'],
    does: 'several search contains filters combine with AND',
    hooks: around(
      'searchNotes',
      (next) => (ctx, call) =>
        containsAll(
          ctx,
          wantedFeatures(fields(call), (v) => v === true),
          () => next(ctx, call),
        ),
    ),
  },
  // As if notes outside any listed collection were outside all of them: OR across collections acts as AND.
  'notes.search.collections-all-required': {
    rules: ['notes.search.collection-filter'],
    does: 'a note must be in every listed collection',
    hooks: around('searchNotes', (next) => (ctx, call) => {
      const listed = fields(call).collections;
      if (!Array.isArray(listed) || listed.length < 2) return next(ctx, call);
      const ids = new Set(listed.map((c) => String(c).toLowerCase()));
      const outsideAll = (n: NoteRecord) =>
        [...ids].every((c) => n.collectionIds.has(c))
          ? undefined
          : new Set([...n.collectionIds].filter((c) => !ids.has(c)));
      return pretendingEach(ctx.store.notes.values(), 'collectionIds', outsideAll, () => next(ctx, call));
    }),
  },
} satisfies Record<string, Fault>;
