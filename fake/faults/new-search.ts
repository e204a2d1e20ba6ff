import { invalid } from '../service/errors.js';
import type { View } from '../service/views.js';
import type { FaultName } from './catalogue.js';
import type { FaultFactory } from './hooks.js';
import { before, fields } from './support.js';

/** Faults of issue 10's missing search and related-notes rules (the lead folds them into notes-search.ts). */
export const NEW_SEARCH_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
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
