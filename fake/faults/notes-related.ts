import { invalid } from '../service/errors.js';
import type { View } from '../service/views.js';
import type { Fault } from './hooks.js';
import { owningAll } from './query-support.js';
import { after, around, before, fields, pathNote, pretending } from './support.js';

export const NOTES_RELATED_FAULTS = {
  'notes.related.limit-max-off-by-one': {
    rules: ['notes.related.limit-range'],
    does: 'related limit 21 is accepted',
    hooks: () => ({ policy: { related: { max: 21 } } }),
  },
  'notes.related.default-limit-20': {
    rules: ['notes.related.limit-default-10'],
    does: 'the default related limit is 20',
    hooks: () => ({ policy: { related: { fallback: 20 } } }),
  },
  // Any existing note will do, as if the caller owned it.
  'notes.related.access-unchecked': {
    rules: ['notes.related.requires-access'],
    does: 'related notes of any note can be asked for',
    hooks: around('getRelatedNotes', (next) => (ctx, call) => {
      const note = pathNote(ctx, call);
      if (!note) return next(ctx, call);
      return pretending(note as { ownerId: string }, 'ownerId', call.user.id, () => next(ctx, call));
    }),
  },
  // The note asked about keeps its own owner, so access to it is still checked.
  'auth.scope.related-shows-all-users': {
    rules: ['auth.scope.related-notes-isolated'],
    does: "related notes include every user's notes",
    hooks: around(
      'getRelatedNotes',
      (next) => (ctx, call) => owningAll(ctx, call.user.id, () => next(ctx, call), call.params.note_id),
    ),
  },
  'notes.related.total-as-string': {
    rules: ['notes.related.response-fields'],
    does: 'the related-notes total is a string',
    hooks: after('getRelatedNotes', (_ctx, _call, view) => ({ ...view, total: String(view.total) })),
  },
  // A note is embedded once, the first time its related notes are asked for, and never again:
  // later requests run against the index as it held the note then.
  'notes.related.stale-content': {
    rules: ['notes.related.current-content'],
    does: 'a note is embedded once and never again',
    hooks: () => {
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
  },
} satisfies Record<string, Fault>;

/** Faults of issue 10's missing search and related-notes rules (the lead folds them into notes-search.ts). */
export const SEARCH_INPUT_AND_SUMMARY_FAULTS = {
  // A validator that reads "at least one non-whitespace character" as "no whitespace at the ends".
  'notes.search.padded-query-refused': {
    rules: ['notes.search.query-non-whitespace'],
    does: 'a query with whitespace around its words is refused',
    hooks: before('searchNotes', (_ctx, call) => {
      const query = fields(call).query;
      if (typeof query === 'string' && query.trim() !== '' && query !== query.trim())
        throw invalid('query must not start or end with whitespace');
      return call;
    }),
  },
  // Summaries read from a copy taken when the note was created (and first embedded), never refreshed.
  'notes.related.summaries-from-create': {
    rules: ['notes.related.collections-match'],
    does: 'related items summarise only the collections a note was created in, not those linked later',
    hooks: () => {
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
              return kept && Array.isArray(item.collections)
                ? { ...item, collections: item.collections.filter((c: View) => kept.has(String(c.id))) }
                : item;
            };
            return { ...view, results: view.results.map(stale) };
          },
        },
      };
    },
  },
} satisfies Record<string, Fault>;
