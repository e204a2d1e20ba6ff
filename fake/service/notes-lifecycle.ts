import type { NoteRecord, UserRecord } from '../store/records.js';
import { type ServiceContext, faultMemory } from './context.js';
import { notFound } from './errors.js';
import { requireNote } from './permissions.js';
import { type View, noteReadView } from './views.js';

/** GET /v2/notes/{note_id}: trashed notes included, with trashed_at. */
export function getNote(ctx: ServiceContext, user: UserRecord, noteId: string): View {
  const note = requireNote(ctx, user, noteId, 'access');
  if (note.trashedAt !== null && ctx.broken('notes.read.trashed-not-found')) throw notFound('note');
  const view = noteReadView(ctx, note);
  if (note.trashedAt !== null && ctx.broken('notes.read.trashed-without-trashed-at')) view.trashed_at = null;
  return view;
}

/** POST /v2/notes/{note_id}/trash (body not shown): sets trashed_at; trashing again keeps the first time. */
export function trashNote(ctx: ServiceContext, user: UserRecord, noteId: string): View {
  const note = requireNote(ctx, user, noteId, ctx.broken('notes.trash.access-level-can-trash') ? 'access' : 'edit');
  if (note.trashedAt === null && !ctx.broken('notes.trash.trashed-at-not-set')) note.trashedAt = ctx.clock.now();
  return {};
}

/** The restore operation (endpoint not shown; the profile names it). */
export function restoreNote(ctx: ServiceContext, user: UserRecord, noteId: string): View {
  const binned = deletedBin(ctx).get(noteId);
  if (binned && binned.ownerId === user.id && ctx.broken('notes.delete.restorable')) {
    ctx.store.insertNote({ ...binned, trashedAt: null });
    deletedBin(ctx).delete(noteId);
    return {};
  }
  const note = requireNote(ctx, user, noteId, 'edit');
  if (ctx.broken('notes.restore.keeps-trashed-at')) return {};
  if (note.trashedAt !== null && ctx.broken('notes.restore.still-locked')) {
    lockedAfterRestore(ctx).add(note.id);
  }
  note.trashedAt = null;
  return {};
}

/** DELETE /v2/notes/{note_id}: permanent, for active and trashed notes. */
export function deleteNote(ctx: ServiceContext, user: UserRecord, noteId: string): View {
  if (!ctx.store.notes.has(noteId) && ctx.broken('errors.missing.note-delete-succeeds')) return {};
  const note = requireNote(ctx, user, noteId, ctx.broken('notes.delete.access-level-can-delete') ? 'access' : 'edit');
  if (note.trashedAt !== null && ctx.broken('notes.delete.trashed-refused')) throw notFound('note');
  if (ctx.broken('notes.delete.soft')) {
    note.trashedAt ??= ctx.clock.now();
    return {};
  }
  if (ctx.broken('notes.delete.restorable')) {
    deletedBin(ctx).set(note.id, { ...note, collectionIds: new Set(), trashedAt: null });
  }
  ctx.store.deleteNote(note);
  return {};
}

const deletedBin = (ctx: ServiceContext) => faultMemory(ctx, 'deleted-bin', () => new Map<string, NoteRecord>());
export const lockedAfterRestore = (ctx: ServiceContext) => faultMemory(ctx, 'locked-after-restore', () => new Set<string>());
