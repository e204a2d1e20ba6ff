import {
  NO_ATTACHMENTS,
  NO_AUDIO_RECORDINGS,
  NO_COLLECTIONS,
  type NoteRecord,
  type UserRecord,
} from '../store/records.js';
import { contentFields } from './content.js';
import type { ServiceContext } from './context.js';
import { DomainError, invalid } from './errors.js';
import { linkOnCreate } from './membership.js';
import { requireNote } from './permissions.js';
import { checkNoteQuota, countNoteCreate } from './quota.js';
import { timestampField } from './time.js';
import { checkString, checkUuid, type Input, requireObject } from './validate.js';
import { noteCreatedView, noteWrittenView, type View } from './views.js';

function noteContent(ctx: ServiceContext, input: Input): string {
  if (input.content === undefined) throw invalid('content is required');
  return checkString(input.content, 'content', ctx.policy.note.createContent);
}

/** POST /v2/notes (part 1). */
export function createNote(ctx: ServiceContext, user: UserRecord, body: unknown): View {
  const input = requireObject(body);
  const content = noteContent(ctx, input);
  const createdAtIn = timestampField(ctx, input, 'created_at', 'note.create.created_at');
  const updatedAtIn = timestampField(ctx, input, 'updated_at', 'note.create.updated_at');
  const links = linkOnCreate(ctx, user, input);

  const id = input.id === undefined ? undefined : suppliedId(ctx, input.id);
  // Create-only: an id that exists, whoever owns it and whether trashed or not, is a conflict.
  if (id !== undefined && ctx.store.notes.has(id))
    throw new DomainError('conflict', `a note with id ${id} already exists`);
  checkNoteQuota(ctx, user);

  // A missing created_at takes updated_at when given; a missing updated_at is server time.
  const now = ctx.clock.now();
  const createdAt = createdAtIn ?? updatedAtIn ?? now;
  const fields = contentFields(ctx, content);
  // Every field named in the literal (no spread): V8 then keeps them all inside the object, where
  // a spread left some in a separate property array (40 bytes a note).
  const note: NoteRecord = {
    id: id ?? ctx.ids.uuid(),
    seq: ctx.store.allocateSeq(),
    ownerId: user.id,
    content: fields.content,
    title: fields.title,
    features: fields.features,
    createdAt,
    originalCreatedAt: createdAt,
    updatedAt: updatedAtIn ?? now,
    version: ctx.policy.note.firstVersion,
    trashedAt: null,
    collectionIds: NO_COLLECTIONS,
    audioRecordingIds: NO_AUDIO_RECORDINGS,
    attachments: NO_ATTACHMENTS,
  };
  ctx.store.insertNote(note);
  for (const collection of links) ctx.store.link(note, collection);
  countNoteCreate(user);
  return noteCreatedView(ctx, note);
}

function suppliedId(ctx: ServiceContext, value: unknown): string {
  return !ctx.policy.note.validateSuppliedIds && typeof value === 'string' ? value : checkUuid(value, 'id');
}

/** PATCH /v2/notes/{note_id} (part 2): content replaced, version must match exactly. */
export function updateNote(ctx: ServiceContext, user: UserRecord, noteId: string, body: unknown): View {
  const input = requireObject(body);
  const note = requireNote(ctx, user, noteId, ctx.policy.levels.updateNote);
  if (note.trashedAt !== null) throw new DomainError('trashed', 'the note is in the trash; restore it first');
  const content = checkString(input.content, 'content', ctx.policy.note.updateContent);
  const version = input.version;
  if (version === undefined) throw invalid("version is required: send the note's current version");
  if (typeof version !== 'number' || !Number.isInteger(version)) throw invalid('version must be an integer');
  if (version < 1) throw invalid('version must be >= 1');
  // Exact match: a version behind the current one is stale, and one ahead of it is refused too.
  if (version !== note.version)
    throw new DomainError('version_mismatch', `version ${version} is not the current version of the note`);
  const updatedAtIn = timestampField(ctx, input, 'updated_at', 'note.update.updated_at');

  ctx.store.setNoteContent(note, contentFields(ctx, content, note));
  note.version++;
  ctx.store.setNoteUpdatedAt(note, updatedAtIn ?? ctx.clock.now());
  return noteWrittenView(ctx, note);
}

/** PATCH /v2/notes/{note_id}/created-at (part 3): backdate only, owner only, no version. */
export function setNoteCreatedAt(ctx: ServiceContext, user: UserRecord, noteId: string, body: unknown): View {
  const input = requireObject(body);
  const note = requireNote(ctx, user, noteId, ctx.policy.levels.setNoteCreatedAt);
  if (note.trashedAt !== null) throw new DomainError('trashed', 'the note is in the trash; restore it first');
  if (input.created_at === undefined) throw invalid('created_at is required');
  const createdAt = timestampField(ctx, input, 'created_at', 'note.set_created_at')!;
  // The bound is the note's original creation time, not now and not the current created_at.
  if (createdAt > note.originalCreatedAt) {
    throw invalid('created_at must not be later than when the note was originally created (it can only backdate)');
  }
  ctx.store.setNoteCreatedAt(note, createdAt);
  return noteWrittenView(ctx, note);
}
