import { invalid } from '../service/errors.js';
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
};
