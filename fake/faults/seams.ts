import type { Seam } from '../service/seams.js';
import type { Fault, FaultFactory } from './hooks.js';

const seam =
  (name: Seam): FaultFactory =>
  () => ({ seams: [name] });

/**
 * Faults that live inside an algorithm of the reference, where no wrapper reaches: ownership, the
 * reading of instants, the ranking and the index. Each switches on its seam (fake/service/seams.ts),
 * which the service asks with `ctx.broken(name)` beside a comment; a test holds the two lists together.
 * (notes.search.query-optional, a seam with a wrapper too, is in notes-search.ts.)
 */
export const SEAM_FAULTS = {
  'auth.scope.collections-unchecked': {
    rules: ['auth.scope.collections-isolated'],
    does: 'any user may see and act on any collection',
    hooks: seam('auth.scope.collections-unchecked'),
  },
  'auth.scope.notes-unchecked': {
    rules: ['auth.scope.notes-isolated'],
    does: 'any user may act on any note',
    hooks: seam('auth.scope.notes-unchecked'),
  },
  'conventions.timestamps.compared-as-strings': {
    rules: ['conventions.timestamps.compare-instants'],
    does: 'not-in-the-future compares strings, not instants',
    hooks: seam('conventions.timestamps.compared-as-strings'),
  },
  'conventions.timestamps.offset-ignored': {
    rules: ['conventions.timestamps.offset-honoured'],
    does: 'request timestamps are read as UTC wall-clock time, ignoring the offset',
    hooks: seam('conventions.timestamps.offset-ignored'),
  },
  'notes.search.title-not-indexed': {
    rules: ['notes.search.finds-matching-note'],
    does: 'titles are not searched',
    hooks: seam('notes.search.title-not-indexed'),
  },
  'notes.search.unranked': {
    rules: ['notes.search.relevance-ranked'],
    does: 'results are ordered by updated_at, not relevance',
    hooks: seam('notes.search.unranked'),
  },
  'permissions.collection.grants-ignored': {
    rules: ['permissions.collection.access-edit'],
    does: 'grants on a collection do not open the collection itself',
    hooks: seam('permissions.collection.grants-ignored'),
  },
} satisfies Partial<Record<Seam, Fault>>;
