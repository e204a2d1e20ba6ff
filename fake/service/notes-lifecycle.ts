import type { UserRecord } from '../store/records.js';
import type { ServiceContext } from './context.js';
import { requireNote } from './permissions.js';
import { noteReadView, type View } from './views.js';

/** GET /v2/notes/{note_id}: trashed notes included, with trashed_at (part 4). */
export function getNote(ctx: ServiceContext, user: UserRecord, noteId: string): View {
  return noteReadView(ctx, requireNote(ctx, user, noteId, 'access'));
}

/** POST /v2/notes/{note_id}/trash (body not shown): sets trashed_at; trashing again keeps the first time. */
export function trashNote(ctx: ServiceContext, user: UserRecord, noteId: string): View {
  const note = requireNote(ctx, user, noteId, ctx.policy.levels.trashNote);
  if (note.trashedAt === null) note.trashedAt = ctx.clock.now();
  return {};
}

/** The restore operation (endpoint not shown; the profile names it). */
export function restoreNote(ctx: ServiceContext, user: UserRecord, noteId: string): View {
  requireNote(ctx, user, noteId, ctx.policy.levels.restoreNote).trashedAt = null;
  return {};
}

/** DELETE /v2/notes/{note_id}: permanent, for active and trashed notes. */
export function deleteNote(ctx: ServiceContext, user: UserRecord, noteId: string): View {
  ctx.store.deleteNote(requireNote(ctx, user, noteId, ctx.policy.levels.deleteNote));
  return {};
}
