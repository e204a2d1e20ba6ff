import type { CollectionRecord, UserRecord } from '../store/records.js';
import type { ServiceContext } from './context.js';
import { DomainError, invalid } from './errors.js';
import { COLLECTION_TITLE_MAX } from './membership.js';
import { requireCollection } from './permissions.js';
import { timestampField } from './time.js';
import { type Input, checkString, checkUuid, requireObject } from './validate.js';
import { type View, collectionView } from './views.js';

export const COLLECTION_DESCRIPTION_MAX = 10_000;

// Over the character limit is also over the byte limit: the off-by-one faults lift both by one.
function title(ctx: ServiceContext, value: unknown, offByOne: boolean, bytesUnchecked: boolean): string {
  const max = COLLECTION_TITLE_MAX + (offByOne ? 1 : 0);
  return checkString(value, 'title', { maxChars: max, ...(bytesUnchecked ? {} : { maxBytes: max }) });
}

function description(value: unknown, offByOne: boolean, bytesUnchecked: boolean): string | null {
  if (value === null) return null;
  const max = COLLECTION_DESCRIPTION_MAX + (offByOne ? 1 : 0);
  return checkString(value, 'description', { maxChars: max, ...(bytesUnchecked ? {} : { maxBytes: max }) });
}

/** POST /v2/collections */
export function createCollection(ctx: ServiceContext, user: UserRecord, body: unknown): View {
  const input = requireObject(body);
  if (ctx.broken('collections.create.null-refused')) {
    for (const field of ['id', 'created_at', 'updated_at', 'description']) if (input[field] === null) throw invalid(`${field} must not be null`);
  }
  const titleIn = input.title === undefined && ctx.broken('collections.create.title-optional') ? 'Untitled' : input.title;
  if (titleIn === undefined) throw invalid('title is required');
  const coerced = typeof titleIn === 'number' && ctx.broken('collections.create.types-coerced') ? String(titleIn) : titleIn;
  const name = title(ctx, coerced, ctx.broken('collections.create.title-limit-off-by-one'), ctx.broken('collections.create.title-bytes-unchecked'));
  const text = input.description === undefined ? null
    : description(input.description, ctx.broken('collections.create.description-limit-off-by-one'), ctx.broken('collections.create.description-bytes-unchecked'));
  const createdAtIn = timestampField(ctx, input, 'created_at', 'collection.create.created_at', { nullable: true });
  const updatedAtIn = timestampField(ctx, input, 'updated_at', 'collection.create.updated_at', { nullable: true });

  let id: string | undefined;
  if (input.id !== undefined && input.id !== null && !ctx.broken('collections.create.id-ignored')) {
    id = ctx.broken('collections.create.id-not-validated') && typeof input.id === 'string' ? input.id : checkUuid(input.id, 'id');
    const existing = ctx.store.collections.get(id);
    if (existing) {
      if (ctx.broken('collections.create.id-upsert')) return overwrite(ctx, existing, name, text);
      if (existing.trashedAt !== null && ctx.broken('collections.create.trashed-id-reused')) ctx.store.deleteCollection(existing);
      else if (existing.ownerId !== user.id && ctx.broken('collections.create.foreign-id-regenerated')) id = undefined;
      else {
        if (ctx.broken('collections.create.conflict-overwrites')) overwrite(ctx, existing, name, text);
        throw new DomainError('conflict', `a collection with id ${id} already exists`);
      }
    }
  }
  const now = ctx.clock.now();
  const createdAt = ctx.broken('collections.create.created-at-ignored') ? now
    : createdAtIn ?? (ctx.broken('collections.create.created-at-ignores-updated-at') ? undefined : updatedAtIn)
      ?? (ctx.broken('collections.create.created-at-default-stale') ? now - 3_600_000 : now);
  const updatedAt = ctx.broken('collections.create.updated-at-ignored') ? now
    : updatedAtIn ?? (ctx.broken('collections.create.updated-at-default-server-time') ? now : createdAt);
  const collection: CollectionRecord = {
    id: id ?? generatedCollectionId(ctx),
    ownerId: user.id,
    title: name,
    description: text,
    createdAt,
    updatedAt,
    trashedAt: null,
    noteIds: new Set(),
  };
  ctx.store.insertCollection(collection);
  return collectionView(ctx, collection, ctx.broken('collections.create.response-has-note-count'));
}

function generatedCollectionId(ctx: ServiceContext): string {
  const uuid = ctx.ids.uuid();
  return ctx.broken('collections.create.ids-not-uuid') ? `coll_${uuid.replace(/-/g, '').slice(0, 16)}` : uuid;
}

function overwrite(ctx: ServiceContext, collection: CollectionRecord, name: string, text: string | null): View {
  ctx.store.setCollectionTitle(collection, name);
  collection.description = text;
  ctx.store.setCollectionUpdatedAt(collection, ctx.clock.now());
  return collectionView(ctx, collection, false);
}


/** GET /v2/collections/{collection_id}: metadata only, with note_count. */
export function getCollection(ctx: ServiceContext, user: UserRecord, collectionId: string): View {
  const collection = requireCollection(ctx, user, collectionId, 'access');
  const view = collectionView(ctx, collection, true);
  if (ctx.broken('collections.read.note-count-zero')) view.note_count = 0;
  return view;
}

/** PATCH /v2/collections/{collection_id}: only the provided fields change. */
export function updateCollection(ctx: ServiceContext, user: UserRecord, collectionId: string, body: unknown): View {
  const input = requireObject(body);
  const collection = requireCollection(ctx, user, collectionId, ctx.broken('collections.update.access-level-can-edit') ? 'access' : 'edit');
  const name = input.title === undefined ? undefined
    : title(ctx, input.title, ctx.broken('collections.update.title-limit-off-by-one'), ctx.broken('collections.update.title-bytes-unchecked'));
  const descriptionIn = typeof input.description === 'number' && ctx.broken('collections.update.types-coerced') ? String(input.description) : input.description;
  const text = descriptionIn === undefined ? undefined
    : description(descriptionIn, ctx.broken('collections.update.description-limit-off-by-one'), ctx.broken('collections.update.description-bytes-unchecked'));
  const updatedAtIn = timestampField(ctx, input, 'updated_at', 'collection.update.updated_at');
  if (name !== undefined) ctx.store.setCollectionTitle(collection, name);
  if (text !== undefined) collection.description = text;
  else if (ctx.broken('collections.update.omitted-fields-cleared')) collection.description = null;
  const updatedAt = updatedAtIn !== undefined && !ctx.broken('collections.update.updated-at-overwritten')
    ? updatedAtIn
    : ctx.broken('collections.update.updated-at-unchanged') ? collection.updatedAt : ctx.clock.now();
  ctx.store.setCollectionUpdatedAt(collection, updatedAt);
  return collectionView(ctx, collection, ctx.broken('collections.update.response-has-note-count'));
}

/** DELETE /v2/collections/{collection_id}: the collection goes; its notes stay, without the link. */
export function deleteCollection(ctx: ServiceContext, user: UserRecord, collectionId: string): View {
  if (!ctx.store.collections.has(collectionId) && ctx.broken('errors.missing.collection-delete-succeeds')) return {};
  // A trashed collection is gone for every other operation, but its owner can still purge it (as
  // DELETE takes trashed notes): otherwise nothing could ever empty the trash, and a client that
  // tried the trash endpoint (the kit) would leave the collection behind for good.
  const trashed = ctx.store.collections.get(collectionId);
  if (trashed && trashed.trashedAt !== null && trashed.ownerId === user.id) {
    ctx.store.deleteCollection(trashed);
    return {};
  }
  const collection = requireCollection(ctx, user, collectionId, ctx.broken('collections.delete.access-level-can-delete') ? 'access' : 'edit');
  if (ctx.broken('collections.delete.soft')) return {};
  if (ctx.broken('collections.delete.cascades-notes')) {
    for (const noteId of [...collection.noteIds]) {
      const note = ctx.store.notes.get(noteId);
      if (note) ctx.store.deleteNote(note);
    }
  }
  if (ctx.broken('collections.delete.links-kept')) {
    const orphans = [...collection.noteIds];
    ctx.store.deleteCollection(collection);
    for (const noteId of orphans) ctx.store.notes.get(noteId)?.collectionIds.add(collection.id);
    return {};
  }
  ctx.store.deleteCollection(collection);
  return {};
}

/** The fake's extra collection trash endpoint: the collection disappears but its id stays taken. */
export function trashCollection(ctx: ServiceContext, user: UserRecord, collectionId: string): View {
  const collection = requireCollection(ctx, user, collectionId, 'own');
  ctx.store.trashCollection(collection, ctx.clock.now());
  return {};
}
