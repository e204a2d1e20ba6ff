import type { HookFactory } from '../http/hooks.js';
import type { NoteRecord } from '../store/records.js';

/**
 * A store that keeps instants at a coarser step (a plain SQL `DATETIME` keeps whole seconds):
 * every instant is cut down to a multiple of `stepMs` as it is stored, supplied or server time
 * alike, and is read back cut. Comparisons the service makes before storing (the set-created-at
 * backdate bound, bounds filters) see the stored, cut values, as a database query would.
 */
export function truncatedInstants(stepMs: number): HookFactory {
  const cut = (ms: number) => Math.floor(ms / stepMs) * stepMs;
  return () => ({
    store: {
      insertNote: (next) => (note) => {
        note.createdAt = cut(note.createdAt);
        note.updatedAt = cut(note.updatedAt);
        // The backdate bound is a stored instant too.
        (note as { originalCreatedAt: number }).originalCreatedAt = cut(note.originalCreatedAt);
        next(note);
      },
      setNoteCreatedAt: (next) => (note, at) => next(note, cut(at)),
      setNoteUpdatedAt: (next) => (note, at) => next(note, cut(at)),
      insertCollection: (next) => (collection) => {
        collection.createdAt = cut(collection.createdAt);
        collection.updatedAt = cut(collection.updatedAt);
        next(collection);
      },
      setCollectionUpdatedAt: (next) => (collection, at) => next(collection, cut(at)),
      trashCollection: (next) => (collection, at) => next(collection, cut(at)),
    },
    ops: {
      // The service sets a note's trashed_at itself (no store method to wrap): cut it after the fact.
      trashNote: (next) => (ctx, call) => {
        const view = next(ctx, call);
        const note: NoteRecord | undefined = ctx.store.notes.get(call.params.note_id ?? '');
        if (note && note.trashedAt !== null) note.trashedAt = cut(note.trashedAt);
        return view;
      },
    },
  });
}
