import { invalid } from '../service/errors.js';
import type { View } from '../service/views.js';
import type { FaultName } from './catalogue.js';
import type { FaultFactory } from './hooks.js';
import { owningAll } from './query-support.js';
import { after, around, before, fields, pathNote, pretending } from './support.js';

export const NOTES_RELATED_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  'notes.related.limit-max-off-by-one': () => ({ policy: { related: { max: 21 } } }),
  'notes.related.default-limit-20': () => ({ policy: { related: { fallback: 20 } } }),
  // Any existing note will do, as if the caller owned it.
  'notes.related.access-unchecked': around('getRelatedNotes', (next) => (ctx, call) => {
    const note = pathNote(ctx, call);
    if (!note) return next(ctx, call);
    return pretending(note as { ownerId: string }, 'ownerId', call.user.id, () => next(ctx, call));
  }),
  // The note asked about keeps its own owner, so access to it is still checked.
  'auth.scope.related-shows-all-users': around('getRelatedNotes', (next) => (ctx, call) =>
    owningAll(ctx, call.user.id, () => next(ctx, call), call.params.note_id)),
  'notes.related.total-as-string': after('getRelatedNotes', (_ctx, _call, view) =>
    ({ ...view, total: String(view.total) })),
  // A note is embedded once, the first time its related notes are asked for, and never again:
  // later requests run against the index as it held the note then.
  'notes.related.stale-content': () => {
    const embedded = new Map<string, { title: string; content: string }>();
    return {
      ops: {
        getRelatedNotes: (next) => (ctx, call) => {
          const note = pathNote(ctx, call);
          if (!note) return next(ctx, call);
          const first = embedded.get(note.id);
          if (!first) {
            const view = next(ctx, call);
            embedded.set(note.id, { title: note.title, content: note.content });
            return view;
          }
          if (first.title === note.title && first.content === note.content) return next(ctx, call);
          // The index reads a note's text from the record: re-index it with the first text for the
          // length of the request, then put the record and its index entry back.
          const index = ctx.store.search;
          const now = { title: note.title, content: note.content };
          const swap = (text: { title: string; content: string }) => {
            index.remove(note.seq);
            Object.assign(note as { title: string; content: string }, text);
            index.add(note.seq);
          };
          swap(first);
          try {
            return next(ctx, call);
          } finally {
            swap(now);
          }
        },
      },
    };
  },
};

/** Faults of issue 10's missing search and related-notes rules (the lead folds them into notes-search.ts). */
export const SEARCH_INPUT_AND_SUMMARY_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  // A validator that reads "at least one non-whitespace character" as "no whitespace at the ends".
  'notes.search.padded-query-refused': before('searchNotes', (_ctx, call) => {
    const query = fields(call).query;
    if (typeof query === 'string' && query.trim() !== '' && query !== query.trim()) throw invalid('query must not start or end with whitespace');
    return call;
  }),
  // Summaries read from a copy taken when the note was created (and first embedded), never refreshed.
  'notes.related.summaries-from-create': () => {
    const atCreate = new Map<string, Set<string>>();
    return {
      ops: {
        createNote: (next) => (ctx, call) => {
          const view = next(ctx, call);
          atCreate.set(String(view.id), new Set((view.collection_ids as string[] | undefined) ?? []));
          return view;
        },
        getRelatedNotes: (next) => (ctx, call) => {
          const view = next(ctx, call);
          if (!Array.isArray(view.results)) return view;
          const stale = (item: View): View => {
            const kept = atCreate.get(String(item.id));
            return kept && Array.isArray(item.collections) ? { ...item, collections: item.collections.filter((c: View) => kept.has(String(c.id))) } : item;
          };
          return { ...view, results: view.results.map(stale) };
        },
      },
    };
  },
};
