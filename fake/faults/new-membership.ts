import type { ServiceContext } from '../service/context.js';
import type { View } from '../service/views.js';
import type { FaultName } from './catalogue.js';
import type { FaultFactory } from './hooks.js';

/** Faults of issue 10's missing membership rules (the lead folds them into membership.ts). */
export const NEW_MEMBERSHIP_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  // A link table without a unique key: a second add stores a second row, and reads join both.
  'membership.collection-ids.duplicated': () => {
    const twice = new Map<string, Set<string>>();
    const withRepeats = (ctx: ServiceContext, item: View): View => {
      const note = ctx.store.notes.get(String(item.id));
      const extra = [...(twice.get(String(item.id)) ?? [])].filter((c) => note?.collectionIds.has(c));
      return Array.isArray(item.collection_ids) && extra.length > 0 ? { ...item, collection_ids: [...item.collection_ids, ...extra] } : item;
    };
    return {
      ops: {
        addNoteToCollection: (next) => (ctx, call) => {
          const { collection_id: collectionId = '', note_id: noteId = '' } = call.params;
          const already = ctx.store.notes.get(noteId)?.collectionIds.has(collectionId) ?? false;
          const view = next(ctx, call);
          if (already) (twice.get(noteId) ?? twice.set(noteId, new Set()).get(noteId)!).add(collectionId);
          return view;
        },
        getNote: (next) => (ctx, call) => withRepeats(ctx, next(ctx, call)),
        listNotes: (next) => (ctx, call) => {
          const view = next(ctx, call);
          return Array.isArray(view.results) ? { ...view, results: view.results.map((r: View) => withRepeats(ctx, r)) } : view;
        },
      },
    };
  },
};
