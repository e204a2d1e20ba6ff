import { collectionView } from '../service/views.js';
import type { FaultName } from './catalogue.js';
import type { FaultFactory } from './hooks.js';
import { after } from './support.js';

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
};
