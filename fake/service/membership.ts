import type { CollectionRecord, UserRecord } from '../store/records.js';
import type { ServiceContext } from './context.js';
import { invalid, notFound } from './errors.js';
import { atLeast, collectionLevel, requireCollection, requireNote } from './permissions.js';
import { checkArray, checkString, checkUuid, type Input, requireObject } from './validate.js';
import type { View } from './views.js';

/** The collections a new note joins: accessible ones named by id, and the caller's ones matched by title. */
export function linkOnCreate(ctx: ServiceContext, user: UserRecord, input: Input): CollectionRecord[] {
  const found = new Map<string, CollectionRecord>();
  if (input.collection_ids !== undefined) {
    for (const [i, raw] of checkArray(input.collection_ids, 'collection_ids').entries()) {
      if (typeof raw !== 'string') throw invalid('collection_ids must hold strings');
      // "array of uuid": a non-UUID is malformed and refused, as search refuses it; "ids not mapping to
      // accessible collections are ignored" is about well-formed ids only.
      const collection = ctx.store.collections.get(checkUuid(raw, `collection_ids[${i}]`));
      // Unknown, trashed and inaccessible collections are ignored.
      if (
        collection &&
        collection.trashedAt === null &&
        atLeast(collectionLevel(ctx, user, collection), 'contribute')
      ) {
        found.set(collection.id, collection);
      }
    }
  }
  if (input.collection_titles !== undefined) {
    const entries = checkArray(input.collection_titles, 'collection_titles');
    const limits = ctx.policy.collectionTitleEntry;
    // Repeated titles are checked and looked up once (a 4 MiB body holds 800,000 one-letter titles).
    const titles = new Set<string>();
    entries.forEach((t, i) => {
      if (typeof t === 'string' && titles.has(t)) return;
      titles.add(checkString(t, `collection_titles[${i}]`, limits));
    });
    // Unmatched titles are ignored. The per-user title index keeps the cost independent of other users' data.
    for (const title of titles) {
      const matches = titledCollections(ctx, user, title).filter(
        (c) =>
          c.trashedAt === null && atLeast(collectionLevel(ctx, user, c), 'contribute') && titleMatches(c.title, title),
      );
      for (const c of matches) found.set(c.id, c);
    }
  }
  return [...found.values()];
}

/** The collections the user owns or holds a grant on whose title equals `title` case-insensitively. */
function titledCollections(ctx: ServiceContext, user: UserRecord, title: string): CollectionRecord[] {
  const ids = ctx.store.collectionTitles.lookup(user.id, title);
  if (!ids) return [];
  const out: CollectionRecord[] = [];
  for (const id of ids) {
    const collection = ctx.store.collections.get(id);
    if (collection) out.push(collection);
  }
  return out;
}

/** Case-insensitive, otherwise exact. */
function titleMatches(title: string, wanted: string): boolean {
  return title.toLowerCase() === wanted.toLowerCase();
}

/** PUT /v2/collections/{collection_id}/notes/{note_id} */
export function addNoteToCollection(ctx: ServiceContext, user: UserRecord, collectionId: string, noteId: string): View {
  const collection = requireCollection(ctx, user, collectionId, ctx.policy.levels.addNoteToCollection);
  const note = requireNote(ctx, user, noteId, 'access');
  // Only the link: the note's version and content stay as they are.
  ctx.store.link(note, collection);
  return {};
}

/** POST /v2/collections/{source_collection_id}/notes/{note_id}/move: add to the target, then remove from the source. */
export function moveNote(ctx: ServiceContext, user: UserRecord, sourceId: string, noteId: string, body: unknown): View {
  const input = requireObject(body);
  const targetId = checkUuid(input.target_collection_id, 'target_collection_id');
  const source = requireCollection(ctx, user, sourceId, 'edit');
  const note = requireNote(ctx, user, noteId, 'access');
  if (!source.noteIds.has(note.id)) throw notFound('note in the source collection');
  // The target is checked before anything changes: a refused move leaves the note in its source.
  const target = requireCollection(ctx, user, targetId, ctx.policy.levels.moveNoteTarget);
  ctx.store.link(note, target);
  if (target.id !== source.id) ctx.store.unlink(note, source);
  return {};
}

/** Remove a note from a collection (endpoint not shown; the profile names it). */
export function removeNoteFromCollection(
  ctx: ServiceContext,
  user: UserRecord,
  collectionId: string,
  noteId: string,
): View {
  const collection = requireCollection(ctx, user, collectionId, 'edit');
  const note = requireNote(ctx, user, noteId, 'access');
  if (!collection.noteIds.has(note.id)) throw notFound('note in the collection');
  ctx.store.unlink(note, collection);
  return {};
}
