import type { CollectionRecord, UserRecord } from '../store/records.js';
import type { ServiceContext } from './context.js';
import { contentFields } from './content.js';
import { invalid, notFound } from './errors.js';
import { atLeast, collectionLevel, requireCollection, requireNote } from './permissions.js';
import { type Input, checkArray, checkString, checkUuid, requireObject } from './validate.js';
import type { View } from './views.js';

export const COLLECTION_TITLE_MAX = 1_000;

/** The collections a new note joins: accessible ones named by id, and the caller's ones matched by title. */
export function linkOnCreate(ctx: ServiceContext, user: UserRecord, input: Input): CollectionRecord[] {
  const found = new Map<string, CollectionRecord>();
  if (input.collection_ids !== undefined && !ctx.broken('notes.create.collection-ids-dropped')) {
    for (const [i, raw] of checkArray(input.collection_ids, 'collection_ids').entries()) {
      if (typeof raw !== 'string') throw invalid('collection_ids must hold strings');
      // "array of uuid": a non-UUID is malformed and refused, as search refuses it; "ids not mapping to
      // accessible collections are ignored" is about well-formed ids only.
      const collection = ctx.store.collections.get(checkUuid(raw, `collection_ids[${i}]`));
      const usable = collection && collection.trashedAt === null
        && (ctx.broken('notes.create.foreign-collection-linked') || atLeast(collectionLevel(ctx, user, collection), 'contribute'));
      if (usable) found.set(collection.id, collection);
      else if (ctx.broken('notes.create.unknown-collection-refused')) throw notFound(`collection ${raw}`);
    }
  }
  if (input.collection_titles !== undefined) {
    const offByOne = ctx.broken('notes.create.title-entry-limit-off-by-one') ? 1 : 0;
    const titles = checkArray(input.collection_titles, 'collection_titles').map((t, i) => checkString(t, `collection_titles[${i}]`, {
      maxChars: COLLECTION_TITLE_MAX + offByOne,
      ...(ctx.broken('notes.create.title-entry-bytes-unchecked') ? {} : { maxBytes: COLLECTION_TITLE_MAX + offByOne }),
    }));
    // Broken servers that match foreign collections or title prefixes (or ignore ownership
    // altogether) cannot use the per-user index: they scan, as such a server would.
    const scan = ctx.broken('notes.create.foreign-title-linked') || ctx.broken('notes.create.titles-prefix-match')
      || ctx.broken('auth.scope.collections-unchecked');
    for (const title of new Set(titles)) {
      const candidates = scan ? ctx.store.collections.values() : titledCollections(ctx, user, title);
      const matches = [...candidates].filter((c) => c.trashedAt === null
        && (ctx.broken('notes.create.foreign-title-linked') || atLeast(collectionLevel(ctx, user, c), 'contribute')) && titleMatches(ctx, c.title, title));
      if (matches.length === 0 && ctx.broken('notes.create.unmatched-title-refused')) throw notFound(`collection titled ${JSON.stringify(title)}`);
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
function titleMatches(ctx: ServiceContext, title: string, wanted: string): boolean {
  if (ctx.broken('notes.create.titles-case-sensitive')) return title === wanted;
  const a = title.toLowerCase();
  const b = wanted.toLowerCase();
  if (ctx.broken('notes.create.titles-prefix-match')) return b.length > 0 && a.startsWith(b);
  return a === b;
}

/** PUT /v2/collections/{collection_id}/notes/{note_id} */
export function addNoteToCollection(ctx: ServiceContext, user: UserRecord, collectionId: string, noteId: string): View {
  const collection = requireCollection(ctx, user, collectionId, ctx.broken('membership.add.access-level-can-add') ? 'access' : 'contribute');
  if (!ctx.store.notes.has(noteId) && ctx.broken('membership.add.missing-note-accepted')) return {};
  const note = ctx.broken('membership.add.foreign-note-linked') && ctx.store.notes.has(noteId)
    ? ctx.store.notes.get(noteId)!
    : requireNote(ctx, user, noteId, 'access');
  if (ctx.broken('membership.add.not-linked')) return {};
  if (ctx.broken('membership.add.replaces-links')) {
    for (const id of [...note.collectionIds]) ctx.store.unlink(note, ctx.store.collections.get(id)!);
  }
  ctx.store.link(note, collection);
  if (ctx.broken('membership.add.touches-note')) note.version++;
  return {};
}

/** POST /v2/collections/{source_collection_id}/notes/{note_id}/move: add to the target, then remove from the source. */
export function moveNote(ctx: ServiceContext, user: UserRecord, sourceId: string, noteId: string, body: unknown): View {
  const input = requireObject(body);
  const targetOptional = ctx.broken('membership.move.target-optional') && input.target_collection_id === undefined;
  const targetId = targetOptional ? undefined : checkUuid(input.target_collection_id, 'target_collection_id');
  if (ctx.broken('membership.move.missing-source-ignored') && !ctx.store.collections.has(sourceId) && targetId) {
    const note = requireNote(ctx, user, noteId, 'access');
    ctx.store.link(note, requireCollection(ctx, user, targetId, 'contribute'));
    return {};
  }
  const source = requireCollection(ctx, user, sourceId, 'edit');
  const note = requireNote(ctx, user, noteId, 'access');
  if (!source.noteIds.has(note.id)) throw notFound('note in the source collection');
  if (ctx.broken('membership.move.removes-first')) ctx.store.unlink(note, source);
  if (targetId === undefined) {
    ctx.store.unlink(note, source);
    return {};
  }
  const target = requireCollection(ctx, user, targetId, ctx.broken('membership.move.target-access-suffices') ? 'access' : 'contribute');
  ctx.store.link(note, target);
  if (target.id !== source.id && !ctx.broken('membership.move.copies')) {
    ctx.store.unlink(note, source);
    // The broken server updates the collection side of the link but not the note's list.
    if (ctx.broken('membership.collection-ids.stale-after-move')) note.collectionIds.add(source.id);
  }
  if (ctx.broken('membership.move.rewrites-content')) {
    ctx.store.setNoteContent(note, contentFields(ctx, `${note.content}\n\nMoved to ${target.title}`, note));
  }
  return {};
}

/** Remove a note from a collection (endpoint not shown; the profile names it). */
export function removeNoteFromCollection(ctx: ServiceContext, user: UserRecord, collectionId: string, noteId: string): View {
  const collection = requireCollection(ctx, user, collectionId, 'edit');
  const note = requireNote(ctx, user, noteId, 'access');
  if (!collection.noteIds.has(note.id)) throw notFound('note in the collection');
  if (!ctx.broken('membership.remove.noop')) ctx.store.unlink(note, collection);
  return {};
}
