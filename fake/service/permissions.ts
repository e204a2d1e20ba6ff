import { type CollectionRecord, LEVEL_RANK, type Level, type NoteRecord, type UserRecord } from '../store/records.js';
import type { ServiceContext } from './context.js';
import { DomainError, notFound } from './errors.js';

function stronger(a: Level | undefined, b: Level | undefined): Level | undefined {
  if (!a) return b;
  if (!b) return a;
  return LEVEL_RANK[a] >= LEVEL_RANK[b] ? a : b;
}

/**
 * A user's level on a note: own for the owner; otherwise the strongest grant on the note itself
 * or on a collection holding it (how sharing works is not shown; this is the fake's model).
 */
export function noteLevel(ctx: ServiceContext, user: UserRecord, note: NoteRecord): Level | undefined {
  if (note.ownerId === user.id) return 'own';
  // Seam: a server that checks no ownership of notes at all (every other fault wraps from outside).
  if (ctx.broken('auth.scope.notes-unchecked')) return 'own';
  if (ctx.store.grants.size === 0) return undefined;
  let level = ctx.store.grantLevel(note.id, user.id);
  for (const collectionId of note.collectionIds) level = stronger(level, ctx.store.grantLevel(collectionId, user.id));
  return level;
}

export function collectionLevel(
  ctx: ServiceContext,
  user: UserRecord,
  collection: CollectionRecord,
): Level | undefined {
  if (collection.ownerId === user.id) return 'own';
  // Seams: ownership of collections unchecked; grants on a collection not opening the collection itself
  // (they still open its notes, which a store wrapper could not tell apart).
  if (ctx.broken('auth.scope.collections-unchecked')) return 'own';
  if (ctx.broken('permissions.collection.grants-ignored')) return undefined;
  return ctx.store.grantLevel(collection.id, user.id);
}

export function atLeast(level: Level | undefined, needed: Level): boolean {
  return level !== undefined && LEVEL_RANK[level] >= LEVEL_RANK[needed];
}

/** The note if the user holds `needed` on it; a note the user cannot see at all is not found. */
export function requireNote(ctx: ServiceContext, user: UserRecord, noteId: string, needed: Level): NoteRecord {
  const note = ctx.store.notes.get(noteId);
  const level = note ? noteLevel(ctx, user, note) : undefined;
  if (!note || !level) throw notFound('note');
  if (!atLeast(level, needed))
    throw new DomainError('forbidden', `this operation needs ${needed} permission on the note`);
  return note;
}

/** The active collection if the user holds `needed` on it; trashed and invisible ones are not found. */
export function requireCollection(
  ctx: ServiceContext,
  user: UserRecord,
  collectionId: string,
  needed: Level,
): CollectionRecord {
  const collection = ctx.store.collections.get(collectionId);
  const level = collection && collection.trashedAt === null ? collectionLevel(ctx, user, collection) : undefined;
  if (!collection || !level) throw notFound('collection');
  if (!atLeast(level, needed))
    throw new DomainError('forbidden', `this operation needs ${needed} permission on the collection`);
  return collection;
}

/**
 * Notes of other owners the caller can see, found from the grants the caller holds (on a note, or
 * on a collection holding it), each once, in the order the grants were made.
 */
export function notesSharedWith(ctx: ServiceContext, user: UserRecord): NoteRecord[] {
  const { store } = ctx;
  if (store.grants.size === 0) return [];
  const found = new Set<NoteRecord>();
  const consider = (noteId: string) => {
    const note = store.notes.get(noteId);
    if (note && note.ownerId !== user.id && canSeeNote(ctx, user, note)) found.add(note);
  };
  for (const [resourceId, levels] of store.grants) {
    if (!levels.has(user.id)) continue;
    const collection = store.collections.get(resourceId);
    if (collection) for (const noteId of collection.noteIds) consider(noteId);
    else consider(resourceId);
  }
  return [...found];
}

export function canSeeNote(ctx: ServiceContext, user: UserRecord, note: NoteRecord): boolean {
  return note.ownerId === user.id || noteLevel(ctx, user, note) !== undefined;
}

export function canSeeCollection(ctx: ServiceContext, user: UserRecord, collection: CollectionRecord): boolean {
  return collection.trashedAt === null && collectionLevel(ctx, user, collection) !== undefined;
}
