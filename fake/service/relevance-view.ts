import type { UserRecord } from '../store/records.js';
import type { CorpusView } from '../store/search-index.js';
import type { ServiceContext } from './context.js';
import { canSeeNote } from './permissions.js';

/**
 * The notes whose statistics rank and score the caller's search and related notes: every note
 * the caller can read, that is their own notes (active and trashed: both stay readable by id) and
 * the notes of other owners opened to them by a grant on the note or on a collection holding it
 * (permissions.ts). Nothing else: another user's private words must not move the caller's scores.
 */
export function relevanceView(ctx: ServiceContext, user: UserRecord): CorpusView {
  return ctx.store.search.view(user.id, sharedNoteSeqs(ctx, user));
}

/** Handles of other owners' notes the caller can see, found from the grants held by the caller. */
function sharedNoteSeqs(ctx: ServiceContext, user: UserRecord): number[] {
  const { store } = ctx;
  if (store.grants.size === 0) return [];
  const seqs = new Set<number>();
  const consider = (noteId: string) => {
    const note = store.notes.get(noteId);
    if (note && note.ownerId !== user.id && canSeeNote(ctx, user, note)) seqs.add(note.seq);
  };
  for (const [resourceId, levels] of store.grants) {
    if (!levels.has(user.id)) continue;
    const collection = store.collections.get(resourceId);
    if (collection) for (const noteId of collection.noteIds) consider(noteId);
    else consider(resourceId);
  }
  return [...seqs];
}
