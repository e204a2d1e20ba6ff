import type { Clock } from '../clock.js';
import type { HookFactory, OperationWrapper } from '../http/hooks.js';
import type { Store } from '../store/store.js';

/**
 * A search index fed asynchronously, as any search engine beside the primary store is: search and
 * related notes see a write only `lagMs` after it.
 *
 * - A created note is absent from search results and from other notes' related notes until its time
 *   comes. As the subject of related notes it is embedded at request time, as the document says.
 * - An updated note is absent too until then, neither found by its old words nor by its new ones:
 *   this index re-indexes by delete-then-add, and the delete is immediate while the add waits. (An
 *   index that still shows the old content is the other valid choice; the kit polls until the
 *   expected state appears, which serves both.)
 * - A deleted note leaves at once; the primary store is the source of truth for reads by id and lists.
 *
 * The index catches up lazily: each search or related-notes request first indexes the writes whose
 * time has come. Snapshots already taken keep what they froze.
 */
export function laggingSearchIndex(lagMs: number, clock: Clock): HookFactory {
  return () => {
    /** note seq -> when the index sees its current text. */
    const pending = new Map<number, number>();
    const defer = (store: Store, seq: number) => {
      store.search.remove(seq);
      pending.set(seq, clock.now() + lagMs);
    };
    const catchUp = (store: Store) => {
      const now = clock.now();
      for (const [seq, due] of pending) {
        if (due > now) continue;
        pending.delete(seq);
        store.search.add(seq);
      }
    };
    const caughtUp: OperationWrapper = (next) => (ctx, call) => {
      catchUp(ctx.store);
      return next(ctx, call);
    };
    // "Related to the note's current persisted content (embedded at request time)": the subject is
    // embedded now, even while the index has not caught up with it; the candidates still lag.
    const relatedNow: OperationWrapper = (next) => (ctx, call) => {
      catchUp(ctx.store);
      const subject = ctx.store.notes.get(call.params.note_id ?? '');
      if (!subject || !pending.has(subject.seq)) return next(ctx, call);
      ctx.store.search.add(subject.seq);
      try {
        return next(ctx, call);
      } finally {
        ctx.store.search.remove(subject.seq);
      }
    };
    return {
      store: {
        insertNote: (next, store) => (note) => {
          next(note);
          defer(store, note.seq);
        },
        setNoteContent: (next, store) => (note, fields) => {
          next(note, fields);
          defer(store, note.seq);
        },
        deleteNote: (next) => (note) => {
          pending.delete(note.seq);
          next(note);
        },
        clear: (next) => () => {
          pending.clear();
          next();
        },
      },
      ops: { searchNotes: caughtUp, getRelatedNotes: relatedNow },
    };
  };
}
