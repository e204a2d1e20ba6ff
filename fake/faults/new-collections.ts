import { notFound } from '../service/errors.js';
import { collectionView } from '../service/views.js';
import type { FaultName } from './catalogue.js';
import type { FaultFactory } from './hooks.js';
import { after, around } from './support.js';

/** Faults of issue 10's missing collection rules (the lead folds them into collections.ts). */
export const NEW_COLLECTION_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  // A server that stamps both timestamps on every write.
  'collections.update.created-at-reset': after('updateCollection', (ctx, call, view) => {
    const collection = ctx.store.collections.get(call.params.collection_id ?? '');
    if (!collection) return view;
    const now = ctx.clock.now();
    ctx.store.collectionsByCreated.move(collection.createdAt, now, collection.id);
    collection.createdAt = now;
    return { ...view, created_at: collectionView(ctx, collection, false).created_at };
  }),
  // Links are not cleaned up, and a read by id joins the collections and drops the note it cannot join.
  'collections.delete.dangling-links-break-reads': () => ({
    ops: {
      deleteCollection: (next) => (ctx, call) => {
        const id = call.params.collection_id ?? '';
        const held = [...(ctx.store.collections.get(id)?.noteIds ?? [])];
        const view = next(ctx, call);
        if (!ctx.store.collections.has(id)) for (const noteId of held) ctx.store.notes.get(noteId)?.collectionIds.add(id);
        return view;
      },
      getNote: (next) => (ctx, call) => {
        const note = ctx.store.notes.get(call.params.note_id ?? '');
        if (note && [...note.collectionIds].some((c) => !ctx.store.collections.has(c))) throw notFound('note');
        return next(ctx, call);
      },
    },
  }),
  // A list query that forgot its owner filter: run the list as if the caller could see everything.
  'auth.scope.collection-list-shows-all-users': around('listCollections', (next) => (ctx, call) => {
    const lent = [...ctx.store.collections.values()].filter((c) => c.ownerId !== call.user.id && ctx.store.grantLevel(c.id, call.user.id) === undefined);
    for (const c of lent) ctx.store.grant(c.id, call.user.id, 'access');
    try {
      return next(ctx, call);
    } finally {
      for (const c of lent) ctx.store.grants.get(c.id)?.delete(call.user.id);
    }
  }),
};
