import { type AttachmentRecord, LEVELS, type Level, type RateLimitConfig, type UserRecord } from '../store/records.js';
import { featuresOf } from './content.js';
import type { ServiceContext } from './context.js';
import { DomainError, invalid, notFound } from './errors.js';
import { checkString, checkUuid, type Input, requireObject } from './validate.js';
import type { View } from './views.js';

/**
 * The fixture API: what the document leaves out (how tokens are issued, how sharing works) and
 * what the kit needs to set up checks (quotas, attachments, tight rate limits). Guarded by the
 * admin token in http; never part of /v2.
 */

function positiveInt(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw invalid(`${field} must be a non-negative integer`);
  return value;
}

function positiveNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value))
    throw invalid(`${field} must be a positive number`);
  return value;
}

function readQuota(value: unknown): UserRecord['quota'] {
  if (value === undefined || value === null) return undefined;
  const q = requireObject(value, 'quota');
  return {
    limit: positiveInt(q.limit, 'quota.limit'),
    plan: q.plan === undefined ? 'free' : checkString(q.plan, 'quota.plan', { minChars: 1, maxChars: 100 }),
    used: q.used === undefined ? 0 : positiveInt(q.used, 'quota.used'),
  };
}

export function readRateLimit(value: unknown, base: RateLimitConfig): RateLimitConfig | undefined {
  if (value === undefined || value === null) return undefined;
  const r = requireObject(value, 'rate_limit');
  return {
    requests: r.requests === undefined ? base.requests : positiveNumber(r.requests, 'rate_limit.requests'),
    requestsPerSecond:
      r.requests_per_second === undefined
        ? base.requestsPerSecond
        : positiveNumber(r.requests_per_second, 'rate_limit.requests_per_second'),
    complexity: r.complexity === undefined ? base.complexity : positiveNumber(r.complexity, 'rate_limit.complexity'),
    complexityPerSecond:
      r.complexity_per_second === undefined
        ? base.complexityPerSecond
        : positiveNumber(r.complexity_per_second, 'rate_limit.complexity_per_second'),
  };
}

function userView(user: UserRecord): View {
  return {
    user_id: user.id,
    token: user.token,
    name: user.name,
    quota: user.quota ? { ...user.quota } : null,
  };
}

/** Creates a user with a bearer token (given, or generated). */
export function createUser(ctx: ServiceContext, body: unknown): View {
  const input = body === undefined ? {} : requireObject(body);
  const token =
    input.token === undefined
      ? `tok_${ctx.ids.uuid().replace(/-/g, '')}`
      : checkString(input.token, 'token', { minChars: 8, maxChars: 512 });
  if (!/^[\x21-\x7e]+$/.test(token)) throw invalid('token must be printable ASCII without spaces');
  if (ctx.store.usersByToken.has(token)) throw new DomainError('conflict', 'a user with this token already exists');
  const id = ctx.ids.uuid();
  const user: UserRecord = {
    id,
    token,
    name:
      input.name === undefined
        ? `user-${id.slice(0, 8)}`
        : checkString(input.name, 'name', { minChars: 1, maxChars: 200 }),
    quota:
      input.quota === undefined && ctx.settings.defaultQuota
        ? { ...ctx.settings.defaultQuota, used: 0 }
        : readQuota(input.quota),
    rateLimit: readRateLimit(input.rate_limit, ctx.settings.defaultRateLimit),
  };
  ctx.store.addUser(user);
  return userView(user);
}

function userOf(ctx: ServiceContext, input: Input): UserRecord {
  if (input.user_id !== undefined) {
    const user = ctx.store.users.get(checkUuid(input.user_id, 'user_id'));
    if (!user) throw notFound('user');
    return user;
  }
  if (input.token !== undefined) {
    const user = ctx.store.usersByToken.get(checkString(input.token, 'token'));
    if (!user) throw notFound('user');
    return user;
  }
  throw invalid('user_id or token is required');
}

export function userById(ctx: ServiceContext, userId: string): UserRecord {
  const user = ctx.store.users.get(userId);
  if (!user) throw notFound('user');
  return user;
}

/** Removes a user and everything the user owns. */
export function deleteUser(ctx: ServiceContext, userId: string): View {
  userById(ctx, userId);
  ctx.store.removeUser(userId);
  return {};
}

/** Grants a user a permission level on a note or a collection (sharing: not shown in the document). */
export function grant(ctx: ServiceContext, body: unknown): View {
  const input = requireObject(body);
  const user = userOf(ctx, input);
  const level = input.level;
  if (typeof level !== 'string' || !(LEVELS as readonly string[]).includes(level))
    throw invalid(`level must be one of ${LEVELS.join(', ')}`);
  const id = checkUuid(input.id, 'id');
  if (input.resource === 'note') {
    if (!ctx.store.notes.has(id)) throw notFound('note');
  } else if (input.resource === 'collection') {
    if (!ctx.store.collections.has(id)) throw notFound('collection');
  } else {
    throw invalid('resource must be note or collection');
  }
  ctx.store.grant(id, user.id, level as Level);
  return { resource: input.resource, id, user_id: user.id, level };
}

export function setQuota(ctx: ServiceContext, userId: string, body: unknown): View {
  const user = userById(ctx, userId);
  user.quota = readQuota(body);
  return userView(user);
}

export function setRateLimit(
  ctx: ServiceContext,
  userId: string,
  body: unknown,
  onChange: (user: UserRecord) => void,
): View {
  const user = userById(ctx, userId);
  user.rateLimit = readRateLimit(body, ctx.settings.defaultRateLimit);
  onChange(user);
  return { user_id: user.id, rate_limit: user.rateLimit ?? null };
}

const nullableString = (value: unknown, field: string) =>
  value === undefined || value === null ? null : checkString(value, field, { maxChars: 100_000 });

/** Attaches PDF or image metadata to a note (uploads are not shown in the document). */
export function addAttachment(ctx: ServiceContext, noteId: string, body: unknown): View {
  const note = ctx.store.notes.get(checkUuid(noteId, 'note_id'));
  if (!note) throw notFound('note');
  const input = requireObject(body);
  const kind = checkString(input.attachment_kind ?? input.kind, 'attachment_kind', { minChars: 1, maxChars: 50 });
  const attachment: AttachmentRecord = {
    attachment_id: ctx.ids.uuid(),
    attachment_kind: kind,
    image_type:
      kind === 'image'
        ? (nullableString(input.image_type, 'image_type') ?? 'photo')
        : nullableString(input.image_type, 'image_type'),
    ocr_text: nullableString(input.ocr_text, 'ocr_text'),
    page_count:
      input.page_count === undefined || input.page_count === null
        ? kind === 'pdf'
          ? 1
          : null
        : positiveInt(input.page_count, 'page_count'),
    suggested_search: nullableString(input.suggested_search, 'suggested_search'),
    summary: nullableString(input.summary, 'summary'),
    visual_description: nullableString(input.visual_description, 'visual_description'),
  };
  note.attachments = [...note.attachments, attachment];
  note.features = featuresOf(note.content, note.attachments);
  return { ...attachment };
}

export function addAudioRecording(ctx: ServiceContext, noteId: string): View {
  const note = ctx.store.notes.get(checkUuid(noteId, 'note_id'));
  if (!note) throw notFound('note');
  const id = ctx.ids.uuid();
  note.audioRecordingIds = [...note.audioRecordingIds, id];
  return { audio_recording_id: id };
}

/** Counts per user: what a run left behind. */
export function stats(ctx: ServiceContext): View {
  const perUser: Record<string, { notes: number; collections: number }> = {};
  for (const user of ctx.store.users.values()) perUser[user.id] = { notes: 0, collections: 0 };
  for (const note of ctx.store.notes.values()) if (perUser[note.ownerId]) perUser[note.ownerId]!.notes++;
  for (const c of ctx.store.collections.values()) if (perUser[c.ownerId]) perUser[c.ownerId]!.collections++;
  return {
    users: ctx.store.users.size,
    notes: ctx.store.notes.size,
    collections: ctx.store.collections.size,
    per_user: perUser,
  };
}
