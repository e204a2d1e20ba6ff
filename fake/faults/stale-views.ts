import type { ServiceContext } from '../service/context.js';
import type { View } from '../service/views.js';
import type { Fault, FaultFactory, OperationWrapper } from './hooks.js';

/**
 * Views that lag: one answer about a resource shows an older value than the others. No check sets
 * up these situations; the oracle sees them in the traffic of the whole run, so the fault matrix
 * proves each with a whole run (`judgedBy: 'oracle'`).
 */

/** Keeps the first value each resource had (per fake instance) and shows it in one operation's items. */
function firstValueIn(
  remember: 'createNote' | 'createCollection',
  field: 'title' | 'description',
  showIn: 'searchNotes' | 'listCollections',
): FaultFactory {
  return () => {
    const first = new Map<string, unknown>();
    const keep: OperationWrapper = (next) => (ctx, call) => {
      const view = next(ctx, call);
      if (typeof view.id === 'string' && !first.has(view.id)) first.set(view.id, view[field]);
      return view;
    };
    const show: OperationWrapper = (next) => (ctx, call) => {
      const view = next(ctx, call);
      const results = (view.results as View[]).map((item) =>
        first.has(item.id as string) ? { ...item, [field]: first.get(item.id as string) } : item,
      );
      return { ...view, results };
    };
    return { ops: { [remember]: keep, [showIn]: show } };
  };
}

/** The answer to a create shows what was sent; the store keeps something else (reads show it later). */
function answerOnly(keep: (ctx: ServiceContext, id: string) => void): FaultFactory {
  return () => ({
    ops: {
      createCollection: (next) => (ctx, call) => {
        const view = next(ctx, call);
        keep(ctx, view.id as string);
        return view;
      },
    },
  });
}

/** An update answers the new title but the store keeps the old one. */
const titleUpdateNotKept: FaultFactory = () => ({
  ops: {
    updateCollection: (next) => (ctx, call) => {
      const c = ctx.store.collections.get(call.params.collection_id ?? '');
      const before = c?.title;
      const view = next(ctx, call);
      if (c && before !== undefined && c.title !== before) ctx.store.setCollectionTitle(c, before);
      return view;
    },
  },
});

export const STALE_VIEW_FAULTS = {
  'notes.search.title-from-create': {
    rules: ['notes.title.first-line'],
    does: 'search items show the title a note had when it was created, also after updates changed its first line',
    judgedBy: 'oracle',
    hooks: firstValueIn('createNote', 'title', 'searchNotes'),
  },
  'collections.list.title-lags-update': {
    rules: ['collections.update.fields-applied'],
    does: 'collection list items show the title a collection was created with, not the one a PATCH gave it',
    judgedBy: 'oracle',
    hooks: firstValueIn('createCollection', 'title', 'listCollections'),
  },
  'collections.create.description-not-stored': {
    rules: ['collections.create.fields-stored'],
    does: 'a collection created with a description answers it, but stores none (reads, lists and searches show null)',
    judgedBy: 'oracle',
    hooks: answerOnly((ctx, id) => {
      const c = ctx.store.collections.get(id);
      if (c) c.description = null;
    }),
  },
  'collections.update.title-not-kept': {
    rules: ['collections.update.fields-applied'],
    does: 'a PATCH answers the new title, but the collection keeps its old one',
    judgedBy: 'oracle',
    hooks: titleUpdateNotKept,
  },
} as const satisfies Record<string, Fault>;
