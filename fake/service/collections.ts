import type { CollectionRecord, UserRecord } from '../store/records.js';
import type { ServiceContext } from './context.js';
import { DomainError, invalid } from './errors.js';
import { requireCollection } from './permissions.js';
import type { TextLimit } from './policy.js';
import { timestampField } from './time.js';
import { checkString, checkUuid, requireObject } from './validate.js';
import { collectionView, type View } from './views.js';

/** A description is a string within the limit, or null. */
function description(value: unknown, limit: TextLimit): string | null {
  return value === null ? null : checkString(value, 'description', limit);
}

/** POST /v2/collections */
export function createCollection(ctx: ServiceContext, user: UserRecord, body: unknown): View {
  const input = requireObject(body);
  if (input.title === undefined) throw invalid('title is required');
  const name = checkString(input.title, 'title', ctx.policy.collection.title);
  const text =
    input.description === undefined ? null : description(input.description, ctx.policy.collection.description);
  // The optional fields allow null, which reads as omitted.
  const createdAtIn = timestampField(ctx, input, 'created_at', 'collection.create.created_at', { nullable: true });
  const updatedAtIn = timestampField(ctx, input, 'updated_at', 'collection.create.updated_at', { nullable: true });
  const id = input.id === undefined || input.id === null ? undefined : suppliedId(ctx, input.id);
  // Create-only: an id that exists, whoever owns it and whether trashed or not, is a conflict.
  if (id !== undefined && ctx.store.collections.has(id)) {
    throw new DomainError('conflict', `a collection with id ${id} already exists`);
  }

  // A missing created_at takes updated_at when given; a missing updated_at takes created_at.
  const createdAt = createdAtIn ?? updatedAtIn ?? ctx.clock.now();
  const collection: CollectionRecord = {
    id: id ?? ctx.ids.uuid(),
    ownerId: user.id,
    title: name,
    description: text,
    createdAt,
    updatedAt: updatedAtIn ?? createdAt,
    trashedAt: null,
    noteIds: new Set(),
  };
  ctx.store.insertCollection(collection);
  return collectionView(ctx, collection, false);
}

function suppliedId(ctx: ServiceContext, value: unknown): string {
  return !ctx.policy.collection.validateSuppliedIds && typeof value === 'string' ? value : checkUuid(value, 'id');
}

/** GET /v2/collections/{collection_id}: metadata only, with note_count. */
export function getCollection(ctx: ServiceContext, user: UserRecord, collectionId: string): View {
  return collectionView(ctx, requireCollection(ctx, user, collectionId, 'access'), true);
}

/** PATCH /v2/collections/{collection_id}: only the provided fields change. */
export function updateCollection(ctx: ServiceContext, user: UserRecord, collectionId: string, body: unknown): View {
  const input = requireObject(body);
  const collection = requireCollection(ctx, user, collectionId, ctx.policy.levels.updateCollection);
  const limits = ctx.policy.collectionUpdate;
  const name = input.title === undefined ? undefined : checkString(input.title, 'title', limits.title);
  const text = input.description === undefined ? undefined : description(input.description, limits.description);
  const updatedAtIn = timestampField(ctx, input, 'updated_at', 'collection.update.updated_at');
  if (name !== undefined) ctx.store.setCollectionTitle(collection, name);
  if (text !== undefined) ctx.store.setCollectionDescription(collection, text);
  ctx.store.setCollectionUpdatedAt(collection, updatedAtIn ?? ctx.clock.now());
  return collectionView(ctx, collection, false);
}

/** DELETE /v2/collections/{collection_id}: the collection goes; its notes stay, without the link. */
export function deleteCollection(ctx: ServiceContext, user: UserRecord, collectionId: string): View {
  // A trashed collection is gone for every other operation, but its owner can still purge it (as
  // DELETE takes trashed notes): otherwise nothing could ever empty the trash, and a client that
  // tried the trash endpoint (the kit) would leave the collection behind for good.
  const trashed = ctx.store.collections.get(collectionId);
  if (trashed && trashed.trashedAt !== null && trashed.ownerId === user.id) {
    ctx.store.deleteCollection(trashed);
    return {};
  }
  // The notes stay; the store drops the link from both sides.
  ctx.store.deleteCollection(requireCollection(ctx, user, collectionId, ctx.policy.levels.deleteCollection));
  return {};
}

/** The fake's extra collection trash endpoint: the collection disappears but its id stays taken. */
export function trashCollection(ctx: ServiceContext, user: UserRecord, collectionId: string): View {
  const collection = requireCollection(ctx, user, collectionId, 'own');
  ctx.store.trashCollection(collection, ctx.clock.now());
  return {};
}
