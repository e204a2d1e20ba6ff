import { LIMITS } from '../../spec/limits.js';
import { DomainError } from '../service/errors.js';
import { listFiltersKey, listKey, readListFilters } from '../service/notes-list.js';
import { decodeCursor, encodeCursor } from '../service/paging.js';
import type { View } from '../service/views.js';
import type { NoteRecord } from '../store/records.js';
import type { Fault, OperationWrapper } from './hooks.js';
import {
  containsAll,
  exclusiveBounds,
  owningAll,
  pretendingEach,
  updatedBoundsOnCreated,
  wantedFeatures,
} from './query-support.js';
import { after, around, before, withQuery } from './support.js';

/** Every note of every user is listed and searched. */
const showingAllUsers: OperationWrapper = (next) => (ctx, call) => owningAll(ctx, call.user.id, () => next(ctx, call));

export const NOTES_LIST_FAULTS = {
  'notes.list.limit-max-off-by-one': {
    rules: ['notes.list.limit-range'],
    does: 'limit 101 is accepted',
    hooks: () => ({ policy: { notesList: { max: 101 } } }),
  },
  'notes.list.default-limit-20': {
    rules: ['notes.list.limit-default-50'],
    does: 'the default page size is 20',
    hooks: () => ({ policy: { notesList: { fallback: 20 } } }),
  },
  // One switch for every paged read: search, related notes and both lists.
  'limits.fractions-truncated': {
    rules: [
      'notes.search.limit-range',
      'notes.related.limit-range',
      'collections.list.limit-range',
      'notes.search.offset-min-0',
      'notes.list.limit-range',
    ],
    does: 'a fractional limit or offset such as 2.5 is read as 2 on search, related notes and both lists',
    hooks: () => ({ policy: { refuseFractions: false } }),
  },
  'notes.list.default-order-created-at': {
    rules: ['notes.list.order-by-default-updated-at'],
    does: 'the default order is created_at',
    hooks: () => ({ policy: { notesList: { defaultOrder: 'created_at' } } }),
  },
  'notes.list.order-by-unvalidated': {
    rules: ['notes.list.order-by-values'],
    does: 'an unknown order_by falls back to updated_at',
    hooks: before('listNotes', (_ctx, call) => {
      const orderBy = call.query.order_by;
      return orderBy !== undefined && orderBy !== 'created_at' ? withQuery(call, { order_by: 'updated_at' }) : call;
    }),
  },
  // Unknown values are still refused: only the valid choice is dropped.
  'notes.list.order-by-ignored': {
    rules: ['notes.list.order-by-honoured'],
    does: 'order_by=created_at still orders by updated_at',
    hooks: before('listNotes', (_ctx, call) => {
      const orderBy = call.query.order_by;
      return orderBy === undefined || orderBy === 'created_at' ? withQuery(call, { order_by: 'updated_at' }) : call;
    }),
  },
  'notes.list.order-reversed': {
    rules: ['notes.list.order-direction'],
    does: 'the list runs opposite to the declared direction',
    hooks: around(
      'listNotes',
      (next) => (ctx, call) =>
        next({ ...ctx, settings: { ...ctx.settings, newestFirst: !ctx.settings.newestFirst } }, call),
    ),
  },
  'notes.list.bounds-exclusive': {
    rules: ['notes.list.bounds-inclusive'],
    does: 'bounds exclude a note exactly on them',
    hooks: before('listNotes', (_ctx, call) => withQuery(call, exclusiveBounds(call.query))),
  },
  'notes.list.updated-bounds-use-created': {
    rules: ['notes.list.bounds-filter'],
    does: 'updated_* bounds compare created_at',
    hooks: before('listNotes', (_ctx, call) => withQuery(call, updatedBoundsOnCreated(call.query))),
  },
  'notes.list.collection-filter-ignored': {
    rules: ['notes.list.collection-filter'],
    does: 'the collection filter is ignored',
    hooks: before('listNotes', (_ctx, call) => withQuery(call, { collection: undefined })),
  },
  'notes.list.open-tasks-matches-any-task': {
    rules: ['notes.list.contains-filters'],
    does: 'the open-task filter also matches finished tasks',
    hooks: before('listNotes', (_ctx, call) => {
      const { open_tasks: open, tasks } = call.query;
      const tasksReadable = tasks === undefined || tasks === 'true' || tasks === 'false';
      return open === 'true' && tasksReadable ? withQuery(call, { open_tasks: undefined, tasks: 'true' }) : call;
    }),
  },
  'notes.list.contains-and': {
    rules: ['notes.list.contains-or'],
    does: 'several contains filters combine with AND',
    hooks: around(
      'listNotes',
      (next) => (ctx, call) =>
        containsAll(
          ctx,
          wantedFeatures(call.query, (v) => v === 'true'),
          () => next(ctx, call),
        ),
    ),
  },
  'notes.list.content-always': {
    rules: ['notes.list.content-omitted-by-default'],
    does: 'list items always carry content',
    hooks: before('listNotes', (_ctx, call) => withQuery(call, { include_content: 'true' })),
  },
  'notes.list.include-content-ignored': {
    rules: ['notes.list.include-content'],
    does: 'include-content is ignored',
    hooks: before('listNotes', (_ctx, call) =>
      call.query.include_content === 'true' ? withQuery(call, { include_content: 'false' }) : call,
    ),
  },
  // The cursor is re-stamped with the filters of this request, so a mismatch is never seen.
  'notes.list.cursor-filters-unchecked': {
    rules: ['notes.list.cursor-filter-mismatch'],
    does: 'a cursor reused with other filters is accepted',
    hooks: before('listNotes', (ctx, call) => {
      if (call.query.cursor === undefined) return call;
      try {
        const position = decodeCursor(String(call.query.cursor), '', false);
        const filters = listFiltersKey(readListFilters(ctx, call.user, call.query));
        return withQuery(call, { cursor: encodeCursor({ ...position, filters }) });
      } catch (error) {
        if (error instanceof DomainError) return call; // a bad cursor or filter: the reference refuses it
        throw error;
      }
    }),
  },
  // Off by one: next_page points past the first note of the next page.
  'notes.list.cursor-skips-one': {
    rules: ['notes.list.cursor-pages'],
    does: 'next_page skips the first note of the next page',
    hooks: around('listNotes', (next) => (ctx, call) => {
      const view = next(ctx, call);
      if (typeof view.next_page !== 'string') return view;
      const following = next(ctx, withQuery(call, { cursor: view.next_page, limit: '1' }));
      const skipped = ctx.store.notes.get(String((following.results as View[])[0]?.id));
      if (!skipped) return view;
      const filters = readListFilters(ctx, call.user, call.query);
      const cursor = { key: listKey(skipped, filters.orderBy), id: skipped.id, filters: listFiltersKey(filters) };
      return { ...view, next_page: encodeCursor(cursor) };
    }),
  },
  // A "more?" probe of limit + 1 capped at the largest page: a full page of 100 looks like the end.
  // No check aims at a page of 100; each model-based check's fixed walk of the largest page passes one.
  'notes.list.largest-page-ends-walk': {
    rules: ['notes.list.next-page-omitted-at-end'],
    judgedBy: 'oracle',
    does: 'a full page of the largest size (100) carries no next_page, though more notes match',
    hooks: after('listNotes', (_ctx, _call, view) => {
      if ((view.results as View[]).length < LIMITS.notesListLimit.max || view.next_page === undefined) return view;
      const { next_page: _dropped, ...rest } = view;
      return rest;
    }),
  },
  'notes.list.total-is-page-size': {
    rules: ['notes.list.total-before-pagination'],
    does: 'total is the number of notes on the page',
    hooks: after('listNotes', (_ctx, _call, view) => ({ ...view, total: (view.results as View[]).length })),
  },
  'notes.list.next-page-null-at-end': {
    rules: ['notes.list.next-page-omitted-at-end'],
    does: 'the last page carries next_page: null',
    hooks: after('listNotes', (_ctx, _call, view) =>
      view.next_page === undefined ? { ...view, next_page: null } : view,
    ),
  },
  'auth.scope.list-shows-all-users': {
    rules: ['auth.scope.notes-list-isolated'],
    does: "list and search show every user's notes",
    hooks: () => ({ ops: { listNotes: showingAllUsers, searchNotes: showingAllUsers } }),
  },
  // Notes shared with the caller are left out, as if they were in the trash.
  'auth.scope.list-hides-shared': {
    rules: ['auth.scope.shared-visible'],
    does: "the note list shows only the caller's own notes, not those shared with them",
    hooks: around('listNotes', (next) => (ctx, call) => {
      const trashedUnlessOwn = (n: NoteRecord) =>
        n.ownerId === call.user.id ? undefined : (n.trashedAt ?? ctx.clock.now());
      return pretendingEach(ctx.store.notes.values(), 'trashedAt', trashedUnlessOwn, () => next(ctx, call));
    }),
  },
} satisfies Record<string, Fault>;
