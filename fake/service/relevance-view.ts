import type { UserRecord } from '../store/records.js';
import type { CorpusView } from '../store/search-index.js';
import type { ServiceContext } from './context.js';
import { notesSharedWith } from './permissions.js';

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
  return notesSharedWith(ctx, user).map((note) => note.seq);
}
