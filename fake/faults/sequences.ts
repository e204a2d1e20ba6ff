import type { Call } from '../http/routes.js';
import type { ServiceContext } from '../service/context.js';
import { DomainError, invalid } from '../service/errors.js';
import { noteReadView, type View } from '../service/views.js';
import type { Fault, FaultFactory, OperationWrapper } from './hooks.js';
import { fields, pathNote, withFields } from './support.js';

/**
 * Issue 32's held-out batch: single-rule violations that show only after a sequence of operations
 * or in a combined state (trashed then restored, backdated twice, linked twice, renamed after a
 * link, a page that ends exactly at the last item, two inputs of one request that interact). They
 * were written before the explorer, from the document, without looking at which checks exist.
 * Every one is judged by the oracle on a whole run (`judgedBy: 'oracle'`). The batch is held out
 * of the fault matrix: it measures how well the kit finds what nobody aimed a check at, so no
 * check is written for one of them; `scripts/measure-batch.js` measures it (README, "Proving").
 */

/** A note view (by id and collection_ids) or each item of a page of them, changed by `change`. */
function eachNote(view: View, change: (item: View) => View): View {
  if (Array.isArray(view.results)) return { ...view, results: (view.results as View[]).map(change) };
  return typeof view.id === 'string' && Array.isArray(view.collection_ids) ? change(view) : view;
}

/** The same for collection views (by id and note_count), also a page of them. */
function eachCollection(view: View, change: (item: View) => View): View {
  if (Array.isArray(view.results)) return { ...view, results: (view.results as View[]).map(change) };
  return typeof view.id === 'string' ? change(view) : view;
}

/** Drops the items `drop` picks from a page, counting them out of its total. */
function dropItems(view: View, drop: (item: View) => boolean): View {
  if (!Array.isArray(view.results)) return view;
  const results = (view.results as View[]).filter((item) => !drop(item));
  const dropped = view.results.length - results.length;
  return dropped === 0 ? view : { ...view, results, total: Number(view.total) - dropped };
}

const NOTE_VIEWS = [
  'getNote',
  'updateNote',
  'setNoteCreatedAt',
  'listNotes',
  'searchNotes',
  'getRelatedNotes',
] as const;
const COLLECTION_VIEWS = ['getCollection', 'listCollections', 'searchCollections'] as const;
const all = <K extends string>(ops: readonly K[], wrap: OperationWrapper) =>
  Object.fromEntries(ops.map((op) => [op, wrap])) as Record<K, OperationWrapper>;

const stringList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** Notes shown with a collection id twice where `twice` holds the pair (note id -> collection ids). */
function listedTwice(twice: Map<string, Set<string>>): OperationWrapper {
  return (next) => (ctx, call) =>
    eachNote(next(ctx, call), (item) => {
      const extra = [...(twice.get(item.id as string) ?? [])].filter((c) =>
        (item.collection_ids as string[]).includes(c),
      );
      return extra.length === 0 ? item : { ...item, collection_ids: [...(item.collection_ids as string[]), ...extra] };
    });
}

const pair = (map: Map<string, Set<string>>, key: string, value: string) => {
  const set = map.get(key) ?? new Set<string>();
  set.add(value);
  map.set(key, set);
};

// ---- notes in combined states ----

/** Restore that leaves a mark: set-created-at still treats a once-trashed note as trashed. */
const restoredStillLocked: FaultFactory = () => {
  const restored = new Set<string>();
  return {
    ops: {
      restoreNote: (next) => (ctx, call) => {
        const view = next(ctx, call);
        restored.add(call.params.note_id ?? '');
        return view;
      },
      setNoteCreatedAt: (next) => (ctx, call) => {
        if (restored.has(call.params.note_id ?? '') && pathNote(ctx, call))
          throw new DomainError('trashed', 'the note is in the trash; restore it first');
        return next(ctx, call);
      },
    },
  };
};

/** A read of a restored note shows the time it was last trashed (a column restore forgot). */
const restoredShowsOldTrashedAt: FaultFactory = () => {
  const lastTrashed = new Map<string, number>();
  return {
    ops: {
      trashNote: (next) => (ctx, call) => {
        const view = next(ctx, call);
        const at = pathNote(ctx, call)?.trashedAt;
        if (typeof at === 'number') lastTrashed.set(call.params.note_id ?? '', at);
        return view;
      },
      getNote: (next) => (ctx, call) => {
        const view = next(ctx, call);
        const at = lastTrashed.get(view.id as string);
        return view.trashed_at === null && at !== undefined
          ? { ...view, trashed_at: ctx.settings.formatTime(at) }
          : view;
      },
    },
  };
};

/** An update of a backdated note puts created_at back to the original creation. */
const updateUndoesBackdate: FaultFactory = () => ({
  ops: {
    updateNote: (next) => (ctx, call) => {
      const view = next(ctx, call);
      const note = pathNote(ctx, call);
      if (!note || note.createdAt === note.originalCreatedAt) return view;
      ctx.store.setNoteCreatedAt(note, note.originalCreatedAt);
      return { ...view, created_at: ctx.settings.formatTime(note.createdAt) };
    },
  },
});

/** A second set-created-at of a note answers the new time but stores nothing. */
const secondBackdateNotStored: FaultFactory = () => {
  const backdated = new Set<string>();
  return {
    ops: {
      setNoteCreatedAt: (next) => (ctx, call) => {
        const note = pathNote(ctx, call);
        const before = note?.createdAt;
        const view = next(ctx, call);
        if (!note) return view;
        if (backdated.has(note.id) && before !== undefined) ctx.store.setNoteCreatedAt(note, before);
        backdated.add(note.id);
        return view;
      },
    },
  };
};

/** A note updated before it was deleted is still served by id (a read cache keyed by version). */
const updatedNoteStillReadable: FaultFactory = () => {
  const cached = new Map<string, View>();
  return {
    ops: {
      deleteNote: (next) => (ctx, call) => {
        const note = pathNote(ctx, call);
        const copy = note && note.version > 1 ? noteReadView(ctx, note) : undefined;
        const view = next(ctx, call);
        if (copy) cached.set(copy.id as string, copy);
        return view;
      },
      getNote: (next) => (ctx, call) => {
        const copy = cached.get(call.params.note_id ?? '');
        if (copy && !pathNote(ctx, call)) return copy;
        return next(ctx, call);
      },
    },
  };
};

/** Search drops notes updated twice or more (the index re-keys a note once). */
const twiceUpdatedUnsearchable: FaultFactory = () => ({
  ops: {
    searchNotes: (next) => (ctx, call) =>
      dropItems(next(ctx, call), (item) => (ctx.store.notes.get(item.id as string)?.version ?? 0) >= 3),
  },
});

// ---- membership after several operations ----

/** Adding a note to a collection that already holds it lists the collection twice. */
const addedTwiceListedTwice: FaultFactory = () => {
  const twice = new Map<string, Set<string>>();
  return {
    ops: {
      addNoteToCollection: (next) => (ctx, call) => {
        const note = pathNote(ctx, call);
        const coll = call.params.collection_id ?? '';
        const already = note?.collectionIds.has(coll) ?? false;
        const view = next(ctx, call);
        if (note && already) pair(twice, note.id, coll);
        return view;
      },
      ...all(NOTE_VIEWS, listedTwice(twice)),
    },
  };
};

/** Adding a note twice counts it twice in note_count. */
const addedTwiceCountedTwice: FaultFactory = () => {
  const extra = new Map<string, Set<string>>(); // collection id -> notes added twice
  const count: OperationWrapper = (next) => (ctx, call) =>
    eachCollection(next(ctx, call), (item) => {
      const holds = ctx.store.collections.get(item.id as string)?.noteIds;
      const more = [...(extra.get(item.id as string) ?? [])].filter((n) => holds?.has(n)).length;
      return typeof item.note_count === 'number' && more > 0 ? { ...item, note_count: item.note_count + more } : item;
    });
  return {
    ops: {
      addNoteToCollection: (next) => (ctx, call) => {
        const coll = call.params.collection_id ?? '';
        const already = pathNote(ctx, call)?.collectionIds.has(coll) ?? false;
        const view = next(ctx, call);
        if (already) pair(extra, coll, call.params.note_id ?? '');
        return view;
      },
      ...all(COLLECTION_VIEWS, count),
    },
  };
};

/** A move takes the note out of every collection but the target, not only out of the source. */
const moveDropsOthers: FaultFactory = () => ({
  ops: {
    moveNote: (next) => (ctx, call) => {
      const view = next(ctx, call);
      const note = pathNote(ctx, call);
      const target = fields(call).target_collection_id;
      for (const id of [...(note?.collectionIds ?? [])]) {
        const c = ctx.store.collections.get(id);
        if (note && c && id !== target) ctx.store.unlink(note, c);
      }
      return view;
    },
  },
});

/** A note cannot be moved back into a collection it was moved out of (a tombstone of the link). */
const moveBackRefused: FaultFactory = () => {
  const movedOut = new Map<string, Set<string>>(); // note id -> collections it left by a move
  return {
    ops: {
      moveNote: (next) => (ctx, call) => {
        const noteId = call.params.note_id ?? '';
        const target = fields(call).target_collection_id;
        if (typeof target === 'string' && movedOut.get(noteId)?.has(target))
          throw invalid('the note was moved out of that collection');
        const view = next(ctx, call);
        pair(movedOut, noteId, call.params.source_collection_id ?? '');
        return view;
      },
    },
  };
};

/** Deleting a note leaves it counted in the note_count of the collections that held it. */
const deletedNotesCounted: FaultFactory = () => {
  const ghosts = new Map<string, number>();
  const count: OperationWrapper = (next) => (ctx, call) =>
    eachCollection(next(ctx, call), (item) => {
      const more = ghosts.get(item.id as string) ?? 0;
      return typeof item.note_count === 'number' && more > 0 ? { ...item, note_count: item.note_count + more } : item;
    });
  return {
    ops: {
      deleteNote: (next) => (ctx, call) => {
        const held = [...(pathNote(ctx, call)?.collectionIds ?? [])];
        const view = next(ctx, call);
        for (const id of held) ghosts.set(id, (ghosts.get(id) ?? 0) + 1);
        return view;
      },
      ...all(COLLECTION_VIEWS, count),
    },
  };
};

/** The collections a note was created in: the filters of list and search know only those. */
function creationFilter(op: 'listNotes' | 'searchNotes', filterOf: (call: Call) => string[]): FaultFactory {
  return () => {
    const createdIn = new Map<string, Set<string>>();
    return {
      ops: {
        createNote: (next) => (ctx, call) => {
          const view = next(ctx, call);
          createdIn.set(view.id as string, new Set(view.collection_ids as string[]));
          return view;
        },
        [op]: ((next) => (ctx, call) => {
          const wanted = filterOf(call);
          const view = next(ctx, call);
          if (wanted.length === 0) return view;
          return dropItems(view, (item) => !wanted.some((c) => createdIn.get(item.id as string)?.has(c)));
        }) satisfies OperationWrapper,
      },
    };
  };
}

/** Related items summarise a collection with the title it had when the note joined it. */
const summaryTitleAtLink: FaultFactory = () => {
  const titleAtLink = new Map<string, string>(); // `${note} ${collection}` -> title then
  const remember = (ctx: ServiceContext, note: string, collections: readonly string[]) => {
    for (const id of collections) {
      const title = ctx.store.collections.get(id)?.title;
      if (title !== undefined && !titleAtLink.has(`${note} ${id}`)) titleAtLink.set(`${note} ${id}`, title);
    }
  };
  return {
    ops: {
      createNote: (next) => (ctx, call) => {
        const view = next(ctx, call);
        remember(ctx, view.id as string, view.collection_ids as string[]);
        return view;
      },
      addNoteToCollection: (next) => (ctx, call) => {
        const view = next(ctx, call);
        remember(ctx, call.params.note_id ?? '', [call.params.collection_id ?? '']);
        return view;
      },
      getRelatedNotes: (next) => (ctx, call) => {
        const view = next(ctx, call);
        return eachNote(view, (item) => ({
          ...item,
          collections: ((item.collections as View[] | undefined) ?? []).map((c) => {
            const then = titleAtLink.get(`${item.id as string} ${c.id as string}`);
            return then === undefined ? c : { ...c, title: then };
          }),
        }));
      },
    },
  };
};

// ---- collections renamed ----

/** Collection search shows the title a collection was created with. */
const searchShowsFirstTitle: FaultFactory = () => {
  const first = new Map<string, unknown>();
  return {
    ops: {
      createCollection: (next) => (ctx, call) => {
        const view = next(ctx, call);
        first.set(view.id as string, view.title);
        return view;
      },
      searchCollections: (next) => (ctx, call) =>
        eachCollection(next(ctx, call), (item) =>
          first.has(item.id as string) ? { ...item, title: first.get(item.id as string) } : item,
        ),
    },
  };
};

/** collection_titles match the title a collection was created with, not its current one. */
const titlesMatchFirstTitle: FaultFactory = () => {
  const first = new Map<string, string>();
  return {
    ops: {
      createCollection: (next) => (ctx, call) => {
        const view = next(ctx, call);
        first.set(view.id as string, view.title as string);
        return view;
      },
      createNote: (next) => (ctx, call) => {
        const titles = fields(call).collection_titles;
        if (!Array.isArray(titles)) return next(ctx, call);
        const renamed = [...ctx.store.collections.values()].filter(
          (c) => c.ownerId === call.user.id && first.has(c.id) && first.get(c.id) !== c.title,
        );
        const rewritten = titles.map((t) => {
          if (typeof t !== 'string') return t;
          const low = t.toLowerCase();
          const byOld = renamed.find((c) => first.get(c.id)!.toLowerCase() === low);
          if (byOld) return byOld.title;
          return renamed.some((c) => c.title.toLowerCase() === low) ? `${t} (renamed)` : t;
        });
        return next(ctx, withFields(call, { collection_titles: rewritten }));
      },
    },
  };
};

/** A PATCH that repeats the current title leaves updated_at as it was. */
const sameTitleNotTouched: FaultFactory = () => ({
  ops: {
    updateCollection: (next) => (ctx, call) => {
      const body = fields(call);
      const c = ctx.store.collections.get(call.params.collection_id ?? '');
      const before = c?.updatedAt;
      const same = c !== undefined && body.title === c.title && !('description' in body) && !('updated_at' in body);
      const view = next(ctx, call);
      if (!same || before === undefined) return view;
      ctx.store.setCollectionUpdatedAt(c, before);
      return { ...view, updated_at: ctx.settings.formatTime(before) };
    },
  },
});

// ---- paging boundaries ----

/**
 * A page that ends exactly at the last match still offers a next page (whose page is empty): the
 * server asked for `limit` items and saw no more, but did not look one further.
 */
function exactLastPageOffersMore(op: 'listNotes' | 'listCollections', end: 'omitted' | 'null'): FaultFactory {
  return () => {
    const empty = new Map<string, View>();
    let issued = 0;
    return {
      ops: {
        [op]: ((next) => (ctx, call) => {
          const cursor = call.query.cursor;
          if (typeof cursor === 'string' && empty.has(cursor)) return empty.get(cursor)!;
          const view = next(ctx, call);
          const limit = Number(call.query.limit ?? 50);
          const atEnd = end === 'omitted' ? view.next_page === undefined : view.next_page === null;
          if (!atEnd || !Array.isArray(view.results) || view.results.length !== limit) return view;
          const token = Buffer.from(`end-of-walk ${++issued}`).toString('base64url');
          empty.set(token, { ...view, results: [] });
          return { ...view, next_page: token };
        }) satisfies OperationWrapper,
      },
    };
  };
}

/** Pages after the first count every note of the caller in total, not the matches. */
const laterPagesTotalUnfiltered: FaultFactory = () => ({
  ops: {
    listNotes: (next) => (ctx, call) => {
      const view = next(ctx, call);
      if (call.query.cursor === undefined) return view;
      const everything = next(ctx, { ...call, query: { limit: 1, order_by: call.query.order_by } });
      return { ...view, total: everything.total };
    },
  },
});

// ---- two inputs of one request ----

/** With both collection_ids and collection_titles, the ids are ignored. */
const bothFormsIdsIgnored: FaultFactory = () => ({
  ops: {
    createNote: (next) => (ctx, call) => {
      const body = fields(call);
      const both = stringList(body.collection_ids).length > 0 && stringList(body.collection_titles).length > 0;
      return next(ctx, both ? withFields(call, { collection_ids: [] }) : call);
    },
  },
});

/** A collection named both by id and by title is listed twice in the note's collection_ids. */
const bothFormsListedTwice: FaultFactory = () => {
  const twice = new Map<string, Set<string>>();
  return {
    ops: {
      createNote: (next) => (ctx, call) => {
        const view = next(ctx, call);
        const body = fields(call);
        const titles = stringList(body.collection_titles).map((t) => t.toLowerCase());
        for (const id of stringList(body.collection_ids)) {
          const c = ctx.store.collections.get(id.toLowerCase());
          if (c && titles.includes(c.title.toLowerCase()) && (view.collection_ids as string[]).includes(c.id))
            pair(twice, view.id as string, c.id);
        }
        return listedTwice(twice)(() => view)(ctx, call);
      },
      ...all(NOTE_VIEWS, listedTwice(twice)),
    },
  };
};

export const SEQUENCE_FAULTS = {
  'seq.restore.set-created-at-still-refused': {
    rules: ['notes.restore.edits-allowed-again'],
    does: 'after trash and restore, set-created-at still refuses the note as trashed (updates work)',
    judgedBy: 'oracle',
    hooks: restoredStillLocked,
  },
  'seq.restore.read-shows-old-trashed-at': {
    rules: ['notes.trashed-at.null-when-active'],
    does: 'a note read after trash and restore shows the time it was trashed instead of null',
    judgedBy: 'oracle',
    hooks: restoredShowsOldTrashedAt,
  },
  'seq.update.backdate-undone': {
    rules: ['notes.update.created-at-unchanged'],
    does: 'updating a note whose created_at was set back puts created_at back to the original creation',
    judgedBy: 'oracle',
    hooks: updateUndoesBackdate,
  },
  'seq.set-created-at.second-not-stored': {
    rules: ['notes.set-created-at.applied'],
    does: 'a second set-created-at of the same note answers the new time but keeps the first one',
    judgedBy: 'oracle',
    hooks: secondBackdateNotStored,
  },
  'seq.delete.updated-note-still-readable': {
    rules: ['notes.delete.permanent'],
    does: 'a note updated before it was deleted can still be read by id',
    judgedBy: 'oracle',
    hooks: updatedNoteStillReadable,
  },
  'seq.search.twice-updated-not-found': {
    rules: ['notes.search.finds-matching-note'],
    does: 'notes updated twice or more drop out of search',
    judgedBy: 'oracle',
    hooks: twiceUpdatedUnsearchable,
  },
  'seq.membership.added-twice-listed-twice': {
    rules: ['membership.collection-ids.current'],
    does: 'adding a note to a collection that already holds it lists that collection twice in collection_ids',
    judgedBy: 'oracle',
    hooks: addedTwiceListedTwice,
  },
  'seq.membership.added-twice-counted-twice': {
    rules: ['collections.read.note-count'],
    does: 'adding a note to a collection that already holds it counts it twice in note_count',
    judgedBy: 'oracle',
    hooks: addedTwiceCountedTwice,
  },
  'seq.membership.move-drops-other-collections': {
    rules: ['membership.collection-ids.current', 'membership.move.moves'],
    does: 'moving a note out of one of its collections also takes it out of every other but the target',
    judgedBy: 'oracle',
    hooks: moveDropsOthers,
  },
  'seq.membership.move-back-refused': {
    rules: ['membership.move.moves'],
    does: 'a note cannot be moved back into a collection it was moved out of',
    judgedBy: 'oracle',
    hooks: moveBackRefused,
  },
  'seq.collections.deleted-notes-counted': {
    rules: ['collections.read.note-count'],
    does: 'a deleted note still counts in the note_count of the collections that held it',
    judgedBy: 'oracle',
    hooks: deletedNotesCounted,
  },
  'seq.list.collection-filter-misses-added': {
    rules: ['notes.list.collection-filter'],
    does: 'the list collection filter knows only the collections a note was created in, not later adds and moves',
    judgedBy: 'oracle',
    hooks: creationFilter('listNotes', (call) =>
      typeof call.query.collection === 'string' ? [call.query.collection] : [],
    ),
  },
  'seq.search.collection-filter-misses-added': {
    rules: ['notes.search.collection-filter'],
    does: 'the search collection filter knows only the collections a note was created in',
    judgedBy: 'oracle',
    hooks: creationFilter('searchNotes', (call) => stringList(fields(call).collections)),
  },
  'seq.related.summary-title-at-link': {
    rules: ['notes.related.collections-match'],
    does: 'related items summarise a collection with the title it had when the note joined it, not its current one',
    judgedBy: 'oracle',
    hooks: summaryTitleAtLink,
  },
  'seq.collections.search-shows-first-title': {
    rules: ['collections.update.fields-applied'],
    does: 'collection search items show the title a collection was created with, not the one a PATCH gave it',
    judgedBy: 'oracle',
    hooks: searchShowsFirstTitle,
  },
  'seq.create.titles-match-first-title': {
    rules: ['notes.create.collection-titles-case-insensitive'],
    does: 'collection_titles match a renamed collection by its first title, and no longer by its current one',
    judgedBy: 'oracle',
    hooks: titlesMatchFirstTitle,
  },
  'seq.collections.same-title-not-touched': {
    rules: ['collections.update.updated-at-defaults-to-server-time'],
    does: 'a PATCH that repeats the current title (no updated_at) leaves updated_at as it was',
    judgedBy: 'oracle',
    hooks: sameTitleNotTouched,
  },
  'seq.list.exact-last-page-offers-more': {
    rules: ['notes.list.next-page-omitted-at-end'],
    does: 'a note page that ends exactly at the last match carries next_page (the page after it is empty)',
    judgedBy: 'oracle',
    hooks: exactLastPageOffersMore('listNotes', 'omitted'),
  },
  'seq.collections.exact-last-page-offers-more': {
    rules: ['collections.list.next-page-null-at-end'],
    does: 'a collection page that ends exactly at the last match carries a next_page string',
    judgedBy: 'oracle',
    hooks: exactLastPageOffersMore('listCollections', 'null'),
  },
  'seq.list.later-pages-total-unfiltered': {
    rules: ['notes.list.total-before-pagination'],
    does: 'pages after the first report in total every note of the caller, not the matches of the filters',
    judgedBy: 'oracle',
    hooks: laterPagesTotalUnfiltered,
  },
  'seq.create.both-forms-ids-ignored': {
    rules: ['notes.create.collection-ids-linked'],
    does: 'a create naming collections both by collection_ids and by collection_titles links only the titled ones',
    judgedBy: 'oracle',
    hooks: bothFormsIdsIgnored,
  },
  'seq.create.both-forms-listed-twice': {
    rules: ['membership.collection-ids.current'],
    does: 'a collection named both by id and by title on one create is listed twice in collection_ids',
    judgedBy: 'oracle',
    hooks: bothFormsListedTwice,
  },
} as const satisfies Record<string, Fault>;

/** The faults the matrix leaves out: the whole batch. */
export const HELD_OUT: ReadonlySet<keyof typeof SEQUENCE_FAULTS> = new Set(
  Object.keys(SEQUENCE_FAULTS) as Array<keyof typeof SEQUENCE_FAULTS>,
);
