import type { NoteRecord, UserRecord } from '../store/records.js';
import type { ServiceContext } from './context.js';
import { contentFields } from './content.js';
import { DomainError, invalid } from './errors.js';
import { requireNote } from './permissions.js';
import { checkNoteQuota, countNoteCreate } from './quota.js';
import { linkOnCreate } from './membership.js';
import { lockedAfterRestore } from './notes-lifecycle.js';
import { timestampField } from './time.js';
import { type Input, checkString, checkUuid, requireObject } from './validate.js';
import { type View, noteCreatedView, noteWrittenView } from './views.js';

export const NOTE_MAX_CHARS = 200_000;
export const NOTE_MAX_BYTES = 200_000;

function noteContent(ctx: ServiceContext, input: Input): string {
  let value = input.content;
  if (value === undefined && ctx.broken('notes.create.content-optional')) value = '';
  if (value !== undefined && typeof value !== 'string' && ctx.broken('notes.create.types-coerced')) value = String(value);
  if (value === undefined) throw invalid('content is required');
  // Over 200,000 characters is also over 200,000 bytes: the off-by-one fault lifts both limits by one.
  const offByOne = ctx.broken('notes.create.content-limit-off-by-one') ? 1 : 0;
  const maxChars = NOTE_MAX_CHARS + offByOne;
  const maxBytes = ctx.broken('notes.create.content-bytes-unchecked') ? undefined : NOTE_MAX_BYTES + offByOne;
  return checkString(value, 'content', { maxChars, ...(maxBytes === undefined ? {} : { maxBytes }) });
}

/** POST /v2/notes */
export function createNote(ctx: ServiceContext, user: UserRecord, body: unknown): View {
  const input = requireObject(body);
  const content = noteContent(ctx, input);
  const createdAtIn = timestampField(ctx, input, 'created_at', { offsetFault: 'notes.create.created-at-offset-optional', futureFault: 'notes.create.created-at-future-accepted' });
  const updatedAtIn = timestampField(ctx, input, 'updated_at', { offsetFault: 'notes.create.updated-at-offset-optional', futureFault: 'notes.create.updated-at-future-accepted' });
  const links = linkOnCreate(ctx, user, input);

  let id: string | undefined;
  if (input.id !== undefined && !ctx.broken('notes.create.id-ignored')) {
    id = ctx.broken('notes.create.id-not-validated') && typeof input.id === 'string' ? input.id : checkUuid(input.id, 'id');
  }
  if (id !== undefined) {
    const existing = ctx.store.notes.get(id);
    if (existing) {
      if (ctx.broken('notes.create.id-upsert')) return upsert(ctx, existing, content);
      if (existing.trashedAt !== null && ctx.broken('notes.create.trashed-id-reused')) {
        ctx.store.deleteNote(existing);
      } else if (existing.ownerId !== user.id && ctx.broken('notes.create.foreign-id-regenerated')) {
        id = undefined;
      } else {
        if (ctx.broken('notes.create.conflict-overwrites')) upsert(ctx, existing, content);
        throw new DomainError('conflict', `a note with id ${id} already exists`);
      }
    }
  }
  checkNoteQuota(ctx, user);

  const now = ctx.clock.now();
  const createdAt = ctx.broken('notes.create.created-at-ignored') ? now
    : createdAtIn ?? (ctx.broken('notes.create.created-at-ignores-updated-at') ? undefined : updatedAtIn)
      ?? (ctx.broken('notes.create.created-at-default-stale') ? now - 3_600_000 : now);
  const updatedAt = ctx.broken('notes.create.updated-at-ignored') ? now
    : updatedAtIn ?? (ctx.broken('notes.create.updated-at-copies-created-at') ? createdAtIn : undefined) ?? now;
  const stored = ctx.broken('notes.create.content-altered') ? content.trimEnd() : content;
  const note: NoteRecord = {
    id: id ?? generatedNoteId(ctx),
    seq: ctx.store.allocateSeq(),
    ownerId: user.id,
    ...contentFields(ctx, stored),
    createdAt,
    originalCreatedAt: createdAt,
    updatedAt,
    version: ctx.broken('notes.create.version-starts-at-zero') ? 0 : 1,
    trashedAt: null,
    collectionIds: new Set(),
    audioRecordingIds: [],
    attachments: [],
  };
  ctx.store.insertNote(note);
  for (const collection of links) ctx.store.link(note, collection);
  countNoteCreate(user);
  return noteCreatedView(ctx, note);
}

function generatedNoteId(ctx: ServiceContext): string {
  const uuid = ctx.ids.uuid();
  return ctx.broken('notes.create.ids-not-uuid') ? `note_${uuid.replace(/-/g, '').slice(0, 16)}` : uuid;
}

/** What a broken server does instead of 409: overwrite the existing note. */
function upsert(ctx: ServiceContext, note: NoteRecord, content: string): View {
  ctx.store.setNoteContent(note, contentFields(ctx, content, note));
  note.version++;
  ctx.store.setNoteUpdatedAt(note, ctx.clock.now());
  return noteCreatedView(ctx, note);
}

/** PATCH /v2/notes/{note_id} */
export function updateNote(ctx: ServiceContext, user: UserRecord, noteId: string, body: unknown): View {
  const input = requireObject(body);
  const note = requireNote(ctx, user, noteId, ctx.broken('notes.update.access-level-can-edit') ? 'access' : 'edit');
  const trashed = note.trashedAt !== null || (ctx.broken('notes.restore.still-locked') && lockedAfterRestore(ctx).has(note.id));
  if (trashed && !ctx.broken('notes.update.trashed-allowed')) throw new DomainError('trashed', 'the note is in the trash; restore it first');
  const maxChars = ctx.broken('notes.update.content-limit-off-by-one') ? NOTE_MAX_CHARS + 1 : NOTE_MAX_CHARS;
  const coerce = ctx.broken('notes.update.types-coerced');
  let content = checkString(coerce && typeof input.content === 'number' ? String(input.content) : input.content, 'content', { maxChars });
  const version = coerce && typeof input.version === 'string' ? Number(input.version) : input.version;
  if (version === undefined) {
    if (!ctx.broken('notes.update.version-optional')) throw invalid('version is required: send the note\'s current version');
  } else {
    if (typeof version !== 'number' || !Number.isInteger(version)) throw invalid('version must be an integer');
    const forced = version === 0 && ctx.broken('notes.update.version-zero-forces');
    if (version < 1 && !forced) throw invalid('version must be >= 1');
    if (!forced && version !== note.version) {
      const stale = version < note.version;
      const tolerated = stale ? ctx.broken('notes.update.stale-version-accepted') : ctx.broken('notes.update.ahead-version-accepted');
      if (!tolerated) throw new DomainError('version_mismatch', `version ${version} is not the current version of the note`);
    }
  }
  const updatedAtIn = timestampField(ctx, input, 'updated_at', { offsetFault: 'notes.update.updated-at-offset-optional' });

  if (ctx.broken('notes.update.content-appended')) content = `${note.content}\n${content}`;
  const previousVersion = note.version;
  ctx.store.setNoteContent(note, contentFields(ctx, content, note));
  if (!ctx.broken('notes.update.version-not-incremented')) note.version++;
  const updatedAt = updatedAtIn !== undefined && !ctx.broken('notes.update.updated-at-ignored')
    ? updatedAtIn
    : ctx.broken('notes.update.updated-at-unchanged') ? note.updatedAt : ctx.clock.now();
  ctx.store.setNoteUpdatedAt(note, updatedAt);
  const view = noteWrittenView(ctx, note);
  if (ctx.broken('notes.update.response-has-old-version')) view.version = previousVersion;
  return view;
}

/** PATCH /v2/notes/{note_id}/created-at */
export function setNoteCreatedAt(ctx: ServiceContext, user: UserRecord, noteId: string, body: unknown): View {
  const input = requireObject(body);
  const note = requireNote(ctx, user, noteId, ctx.broken('notes.set-created-at.editor-allowed') ? 'edit' : 'own');
  const trashed = note.trashedAt !== null || (ctx.broken('notes.restore.still-locked') && lockedAfterRestore(ctx).has(note.id));
  if (trashed && !ctx.broken('notes.set-created-at.trashed-allowed')) throw new DomainError('trashed', 'the note is in the trash; restore it first');
  if (input.created_at === undefined && ctx.broken('notes.set-created-at.missing-is-noop')) return noteWrittenView(ctx, note);
  if (input.created_at === undefined) throw invalid('created_at is required');
  const createdAt = timestampField(ctx, input, 'created_at', {
    offsetFault: 'notes.set-created-at.offset-optional',
    futureFault: 'notes.set-created-at.future-accepted',
  })!;
  const bound = ctx.broken('notes.set-created-at.bound-is-current') ? note.createdAt : note.originalCreatedAt;
  // The original creation is never in the future, so backdate-only alone refuses future instants:
  // the not-future fault must let them past this bound too, or nothing outside could observe it.
  const futurePassed = ctx.broken('notes.set-created-at.future-accepted') && createdAt > ctx.clock.now();
  const beyond = ctx.broken('notes.set-created-at.bound-exclusive') ? createdAt >= bound : createdAt > bound;
  if (beyond && !futurePassed && !ctx.broken('notes.set-created-at.forward-dating-allowed')) {
    throw invalid('created_at must not be later than when the note was originally created (it can only backdate)');
  }
  if (ctx.broken('quota.set-created-at-counts')) countNoteCreate(user);
  if (ctx.broken('notes.set-created-at.bumps-version')) note.version++;
  if (ctx.broken('notes.set-created-at.touches-content')) {
    const content = `---\ncreated_at: ${new Date(createdAt).toISOString()}\n---\n${note.content}`;
    ctx.store.setNoteContent(note, contentFields(ctx, content, note));
  }
  if (ctx.broken('notes.set-created-at.not-persisted')) {
    const view = noteWrittenView(ctx, note);
    view.created_at = ctx.settings.formatTime(createdAt);
    return view;
  }
  ctx.store.setNoteCreatedAt(note, createdAt);
  return noteWrittenView(ctx, note);
}
