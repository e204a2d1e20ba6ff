import type { CollectionRecord, NoteRecord, UserRecord } from '../store/records.js';
import { snippetOf } from './content.js';
import type { ServiceContext } from './context.js';
import { canSeeCollection } from './permissions.js';

/**
 * Response bodies of the operations (without request_id, which the http layer adds to every
 * success). Field presence differs per response, as the document's part 2 says.
 */
export type View = Record<string, unknown>;

function noteCore(ctx: ServiceContext, note: NoteRecord): View {
  const t = ctx.settings.formatTime;
  return {
    id: note.id,
    title: note.title,
    content: note.content,
    created_at: t(note.createdAt),
    updated_at: t(note.updatedAt),
    version: note.version,
    collection_ids: [...note.collectionIds],
  };
}

/** The create response: the core fields and no trashed_at. */
export function noteCreatedView(ctx: ServiceContext, note: NoteRecord): View {
  return noteCore(ctx, note);
}

/** Update and set-created-at responses: the core fields and trashed_at. */
export function noteWrittenView(ctx: ServiceContext, note: NoteRecord): View {
  const view = noteCore(ctx, note);
  view.trashed_at = note.trashedAt === null ? null : ctx.settings.formatTime(note.trashedAt);
  return view;
}

/** The read response: full note with trashed_at, audio_recording_ids and attachment_metadata. */
export function noteReadView(ctx: ServiceContext, note: NoteRecord): View {
  const view = noteCore(ctx, note);
  view.trashed_at = note.trashedAt === null ? null : ctx.settings.formatTime(note.trashedAt);
  view.audio_recording_ids = [...note.audioRecordingIds];
  view.attachment_metadata = note.attachments.map((a) => ({ ...a }));
  return view;
}

/** A list or search item; content only when asked for. */
export function noteListItem(ctx: ServiceContext, note: NoteRecord, includeContent: boolean): View {
  const t = ctx.settings.formatTime;
  const item: View = {
    id: note.id,
    title: note.title,
    snippet: snippetOf(note.content),
    created_at: t(note.createdAt),
    updated_at: t(note.updatedAt),
    collection_ids: [...note.collectionIds],
    audio_recording_ids: [...note.audioRecordingIds],
  };
  if (includeContent) item.content = note.content;
  return item;
}

/** note_count counts the active notes a collection holds. */
export function activeNoteCount(ctx: ServiceContext, collection: CollectionRecord): number {
  let count = 0;
  for (const id of collection.noteIds) if (ctx.store.notes.get(id)?.trashedAt === null) count++;
  return count;
}

/** Collection fields; note_count only where the document shows it (read, list, search). */
export function collectionView(ctx: ServiceContext, collection: CollectionRecord, withNoteCount: boolean): View {
  const t = ctx.settings.formatTime;
  const view: View = {
    id: collection.id,
    title: collection.title,
    description: collection.description,
    created_at: t(collection.createdAt),
    updated_at: t(collection.updatedAt),
  };
  if (withNoteCount) view.note_count = activeNoteCount(ctx, collection);
  return view;
}

export function relatedCollectionSummaries(ctx: ServiceContext, user: UserRecord, note: NoteRecord): View[] {
  const out: View[] = [];
  for (const id of note.collectionIds) {
    const collection = ctx.store.collections.get(id);
    if (!collection || !canSeeCollection(ctx, user, collection)) continue;
    const shared = (ctx.store.grants.get(id)?.size ?? 0) > 0;
    out.push({ ...collectionView(ctx, collection, true), is_shared: shared });
  }
  return out;
}
