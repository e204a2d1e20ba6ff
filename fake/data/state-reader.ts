import { isUuid } from '../ids.js';
import { contentFields } from '../service/content.js';
import type { ServiceContext } from '../service/context.js';
import { checkString, parseTimestamp, type StringLimits } from '../service/validate.js';
import {
  type AttachmentRecord,
  type CollectionRecord,
  joined,
  LEVELS,
  type Level,
  NO_ATTACHMENTS,
  NO_AUDIO_RECORDINGS,
  NO_COLLECTIONS,
  type NoteRecord,
  type QuotaState,
  type RateLimitConfig,
  type UserRecord,
} from '../store/records.js';
import { DataFileError } from './errors.js';
import { STATE_FORMAT, STATE_VERSION } from './state.js';

const USER_FIELDS = ['id', 'token', 'name', 'quota', 'rate_limit'];
const COLLECTION_FIELDS = ['id', 'owner_id', 'title', 'description', 'created_at', 'updated_at', 'trashed_at'];
const NOTE_FIELDS = [
  ...['id', 'owner_id', 'content', 'created_at', 'original_created_at', 'updated_at', 'version', 'trashed_at'],
  ...['collection_ids', 'audio_recording_ids', 'attachments'],
];
const ATTACHMENT_TEXTS = ['image_type', 'ocr_text', 'suggested_search', 'summary', 'visual_description'] as const;

/**
 * Restores a state value (the file with its journal replayed) into an empty store. Every value is
 * checked before it is used: a hand-edited or damaged file stops the start with a one-line
 * DataFileError naming the file and the field (`users[0].rate_limit.requests: expected a number
 * > 0`), never a TypeError later or a fake that refuses every request.
 */
export function applyState(ctx: ServiceContext, value: unknown, source: string): void {
  const read = new Reader(source);
  const file = read.object(value, '', [
    ...['format', 'version', 'saved_at', 'generation'],
    ...['users', 'collections', 'notes', 'grants'],
  ]);
  if (file.format !== STATE_FORMAT || file.version !== STATE_VERSION) {
    throw new DataFileError(
      `${source}: not a state file of this fake (expected format "${STATE_FORMAT}", version ${STATE_VERSION})`,
    );
  }
  const { store } = ctx;
  read.array(file.users, 'users').forEach((raw, i) => {
    const at = `users[${i}]`;
    const u = read.object(raw, at, USER_FIELDS);
    const user: UserRecord = {
      id: read.id(u.id, `${at}.id`),
      token: read.token(u.token, `${at}.token`),
      name: read.text(u.name, `${at}.name`, { minChars: 1, maxChars: 200 }),
      quota: u.quota === null || u.quota === undefined ? undefined : read.quota(u.quota, `${at}.quota`),
      rateLimit:
        u.rate_limit === null || u.rate_limit === undefined
          ? undefined
          : read.rateLimit(u.rate_limit, `${at}.rate_limit`),
    };
    if (store.users.has(user.id)) throw read.fail(`${at}.id`, 'the user id is already taken');
    if (store.usersByToken.has(user.token)) throw read.fail(`${at}.token`, 'the token is already taken');
    store.addUser(user);
  });
  const limits = ctx.policy;
  read.array(file.collections, 'collections').forEach((raw, i) => {
    const at = `collections[${i}]`;
    const c = read.object(raw, at, [...COLLECTION_FIELDS, 'note_ids']);
    const collection: CollectionRecord = {
      id: read.id(c.id, `${at}.id`),
      ownerId: read.owner(store.users, c.owner_id, `${at}.owner_id`),
      title: read.text(c.title, `${at}.title`, limits.collection.title),
      description:
        c.description === null ? null : read.text(c.description, `${at}.description`, limits.collection.description),
      createdAt: read.time(c.created_at, `${at}.created_at`),
      updatedAt: read.time(c.updated_at, `${at}.updated_at`),
      trashedAt: c.trashed_at === null ? null : read.time(c.trashed_at, `${at}.trashed_at`),
      noteIds: new Set(),
    };
    if (store.collections.has(collection.id)) throw read.fail(`${at}.id`, 'duplicate collection id');
    store.insertCollection(collection);
  });
  read.array(file.notes, 'notes').forEach((raw, i) => {
    const at = `notes[${i}]`;
    const n = read.object(raw, at, NOTE_FIELDS);
    const attachments = read
      .array(n.attachments, `${at}.attachments`)
      .map((a, k) => read.attachment(a, `${at}.attachments[${k}]`));
    const createdAt = read.time(n.created_at, `${at}.created_at`);
    const id = read.id(n.id, `${at}.id`);
    const ownerId = read.owner(store.users, n.owner_id, `${at}.owner_id`);
    const fields = contentFields(ctx, read.text(n.content, `${at}.content`, limits.note.updateContent), {
      attachments,
    } as unknown as NoteRecord);
    // The fields in the order and form a create gives them (notes-write.ts): no spread, shared empty lists.
    const note: NoteRecord = {
      id,
      seq: store.allocateSeq(),
      ownerId,
      content: fields.content,
      title: fields.title,
      features: fields.features,
      createdAt,
      originalCreatedAt:
        n.original_created_at === undefined ? createdAt : read.time(n.original_created_at, `${at}.original_created_at`),
      updatedAt: read.time(n.updated_at, `${at}.updated_at`),
      version: read.integer(n.version, `${at}.version`, 0),
      trashedAt: n.trashed_at === null ? null : read.time(n.trashed_at, `${at}.trashed_at`),
      collectionIds: NO_COLLECTIONS,
      audioRecordingIds: orShared(
        read
          .array(n.audio_recording_ids, `${at}.audio_recording_ids`)
          .map((id, k) => read.id(id, `${at}.audio_recording_ids[${k}]`)),
        NO_AUDIO_RECORDINGS,
      ),
      attachments: orShared(attachments, NO_ATTACHMENTS),
    };
    if (store.notes.has(note.id)) throw read.fail(`${at}.id`, 'duplicate note id');
    store.insertNote(note);
    read.array(n.collection_ids, `${at}.collection_ids`).forEach((id, k) => {
      const collection = store.collections.get(read.id(id, `${at}.collection_ids[${k}]`));
      if (!collection) throw read.fail(`${at}.collection_ids[${k}]`, 'no such collection in the file');
      note.collectionIds = joined(note.collectionIds, collection.id);
    });
  });
  // Both sides of each link, each in its saved order; they must name the same links.
  (file.collections as Array<Record<string, unknown>>).forEach((c, i) => {
    const collection = store.collections.get(c.id as string)!;
    read.array(c.note_ids, `collections[${i}].note_ids`).forEach((id, k) => {
      if (typeof id !== 'string' || !store.notes.get(id)?.collectionIds.has(collection.id))
        throw read.fail(`collections[${i}].note_ids[${k}]`, 'the note does not list this collection');
      collection.noteIds.add(id);
    });
  });
  for (const note of store.notes.values()) {
    for (const id of note.collectionIds) {
      if (!store.collections.get(id)!.noteIds.has(note.id))
        throw read.fail(`notes (${note.id}).collection_ids`, `collection ${id} does not list the note`);
    }
  }
  read.array(file.grants, 'grants').forEach((raw, i) => {
    const grant = read.array(raw, `grants[${i}]`);
    if (grant.length !== 3) throw read.fail(`grants[${i}]`, 'expected [resource id, user id, level]');
    const [resourceId, userId, level] = grant;
    if (typeof resourceId !== 'string' || (!store.notes.has(resourceId) && !store.collections.has(resourceId)))
      throw read.fail(`grants[${i}][0]`, 'unknown resource');
    if (typeof userId !== 'string' || !store.users.has(userId)) throw read.fail(`grants[${i}][1]`, 'unknown user');
    if (!(LEVELS as readonly unknown[]).includes(level))
      throw read.fail(`grants[${i}][2]`, `level must be one of ${LEVELS.join(', ')}`);
    store.grant(resourceId, userId, level as Level);
  });
}

/** Type and range checks with the file and the JSON path in every message. */
class Reader {
  constructor(private readonly source: string) {}

  fail(where: string, what: string): DataFileError {
    return new DataFileError(`${this.source}: ${where || 'the file'}: ${what}`);
  }

  object(value: unknown, where: string, fields?: readonly string[]): Record<string, unknown> {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw this.fail(where, 'expected an object');
    if (fields) {
      const unknown = Object.keys(value).find((key) => !fields.includes(key));
      if (unknown !== undefined)
        throw this.fail(where, `unknown field ${JSON.stringify(unknown)} (expected ${fields.join(', ')})`);
    }
    return value as Record<string, unknown>;
  }

  array(value: unknown, where: string): unknown[] {
    if (!Array.isArray(value)) throw this.fail(where, 'expected an array');
    return value;
  }

  text(value: unknown, where: string, limits: StringLimits = {}): string {
    if (typeof value !== 'string') throw this.fail(where, 'expected a string');
    try {
      return checkString(value, 'the value', limits);
    } catch (error) {
      throw this.fail(where, (error as Error).message);
    }
  }

  /** Ids are opaque to the state, but bounded and printable (they appear in URLs and logs). */
  /** Every id the fake hands out is a lower-case UUID, as the API's own ids are: `../../etc/passwd` is not one. */
  id(value: unknown, where: string): string {
    if (typeof value !== 'string') throw this.fail(where, 'expected a string');
    if (!isUuid(value) || value !== value.toLowerCase()) throw this.fail(where, 'expected a lower-case UUID');
    return value;
  }

  /** The rule the fixture API and --token apply. */
  token(value: unknown, where: string): string {
    if (typeof value !== 'string' || value.length < 8 || value.length > 512 || !/^[\x21-\x7e]+$/.test(value))
      throw this.fail(where, 'expected 8 to 512 printable ASCII characters without spaces');
    return value;
  }

  integer(value: unknown, where: string, min: number): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
      throw this.fail(where, `expected an integer from ${min} to ${Number.MAX_SAFE_INTEGER}`);
    return value;
  }

  positive(value: unknown, where: string): number {
    if (typeof value !== 'number' || !Number.isFinite(value) || !(value > 0))
      throw this.fail(where, 'expected a finite number > 0');
    return value;
  }

  quota(value: unknown, where: string): QuotaState {
    const q = this.object(value, where, ['plan', 'limit', 'used']);
    return {
      plan: this.text(q.plan, `${where}.plan`, { minChars: 1, maxChars: 100 }),
      limit: this.integer(q.limit, `${where}.limit`, 0),
      used: this.integer(q.used, `${where}.used`, 0),
    };
  }

  rateLimit(value: unknown, where: string): RateLimitConfig {
    const r = this.object(value, where, ['requests', 'requestsPerSecond', 'complexity', 'complexityPerSecond']);
    return {
      requests: this.positive(r.requests, `${where}.requests`),
      requestsPerSecond: this.positive(r.requestsPerSecond, `${where}.requestsPerSecond`),
      complexity: this.positive(r.complexity, `${where}.complexity`),
      complexityPerSecond: this.positive(r.complexityPerSecond, `${where}.complexityPerSecond`),
    };
  }

  attachment(value: unknown, where: string): AttachmentRecord {
    const a = this.object(value, where, ['attachment_id', 'attachment_kind', 'page_count', ...ATTACHMENT_TEXTS]);
    const optional = (field: string) =>
      a[field] === null || a[field] === undefined
        ? null
        : this.text(a[field], `${where}.${field}`, { maxChars: 100_000 });
    return {
      attachment_id: this.id(a.attachment_id, `${where}.attachment_id`),
      attachment_kind: this.text(a.attachment_kind, `${where}.attachment_kind`, { minChars: 1, maxChars: 50 }),
      image_type: optional('image_type'),
      ocr_text: optional('ocr_text'),
      page_count:
        a.page_count === null || a.page_count === undefined
          ? null
          : this.integer(a.page_count, `${where}.page_count`, 1),
      suggested_search: optional('suggested_search'),
      summary: optional('summary'),
      visual_description: optional('visual_description'),
    };
  }

  time(value: unknown, where: string): number {
    try {
      return parseTimestamp(value, 'the value');
    } catch (error) {
      throw this.fail(where, (error as Error).message);
    }
  }

  owner(users: ReadonlyMap<string, UserRecord>, value: unknown, where: string): string {
    const id = this.id(value, where);
    if (!users.has(id)) throw this.fail(where, 'no such user in the file');
    return id;
  }
}

/** The shared empty list for an empty one (records.ts). */
function orShared<T>(list: readonly T[], empty: readonly T[]): readonly T[] {
  return list.length === 0 ? empty : list;
}
