import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { contentFields } from '../service/content.js';
import type { ServiceContext } from '../service/context.js';
import { parseTimestamp } from '../service/validate.js';
import {
  type AttachmentRecord,
  type CollectionRecord,
  LEVELS,
  type Level,
  type NoteRecord,
  type UserRecord,
} from '../store/records.js';
import { DataFileError } from './errors.js';

/**
 * The fake's data as a JSON file, so a developer's users, notes and collections survive a
 * restart: versions, timestamps (both creation times), trash state, memberships, grants,
 * attachments and quotas are kept. Search snapshots and rate-limit buckets are not: they are
 * short-lived by nature. Derived fields (title, contains-features) are derived again.
 */
const FORMAT = 'notes-conformance-fake-state';
const VERSION = 1;

interface UserState {
  id: string;
  token: string;
  name: string;
  quota: UserRecord['quota'] | null;
  rate_limit: UserRecord['rateLimit'] | null;
}
interface CollectionState {
  id: string;
  owner_id: string;
  title: string;
  description: string | null;
  created_at: string;
  updated_at: string;
  trashed_at: string | null;
  /** In the collection's own order (the notes' collection_ids keep theirs). */
  note_ids: string[];
}
interface NoteState {
  id: string;
  owner_id: string;
  content: string;
  created_at: string;
  original_created_at: string;
  updated_at: string;
  version: number;
  trashed_at: string | null;
  collection_ids: string[];
  audio_recording_ids: string[];
  attachments: AttachmentRecord[];
}
interface StateFile {
  format: typeof FORMAT;
  version: typeof VERSION;
  saved_at: string;
  users: UserState[];
  collections: CollectionState[];
  notes: NoteState[];
  grants: Array<[resourceId: string, userId: string, level: Level]>;
}

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** Writes the state atomically (a temporary file renamed over the old one). */
export function saveState(ctx: ServiceContext, path: string): void {
  const { store } = ctx;
  const state: StateFile = {
    format: FORMAT,
    version: VERSION,
    saved_at: iso(ctx.clock.now()),
    users: [...store.users.values()].map((u) => ({
      id: u.id,
      token: u.token,
      name: u.name,
      quota: u.quota ?? null,
      rate_limit: u.rateLimit ?? null,
    })),
    collections: [...store.collections.values()].map((c) => ({
      id: c.id,
      owner_id: c.ownerId,
      title: c.title,
      description: c.description,
      created_at: iso(c.createdAt),
      updated_at: iso(c.updatedAt),
      trashed_at: isoOrNull(c.trashedAt),
      note_ids: [...c.noteIds],
    })),
    notes: [...store.notes.values()].map((n) => ({
      id: n.id,
      owner_id: n.ownerId,
      content: n.content,
      created_at: iso(n.createdAt),
      original_created_at: iso(n.originalCreatedAt),
      updated_at: iso(n.updatedAt),
      version: n.version,
      trashed_at: isoOrNull(n.trashedAt),
      collection_ids: [...n.collectionIds],
      audio_recording_ids: [...n.audioRecordingIds],
      attachments: n.attachments.map((a) => ({ ...a })),
    })),
    grants: [...store.grants].flatMap(([resourceId, levels]) =>
      [...levels].map(([userId, level]) => [resourceId, userId, level] as [string, string, Level]),
    ),
  };
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(state));
  renameSync(temporary, path);
}

/**
 * Restores a state file into an empty store; false when the file does not exist yet (the first
 * start). A file the fake cannot use stops the start with a one-line DataFileError.
 */
export function loadState(ctx: ServiceContext, path: string): boolean {
  if (!existsSync(path)) return false;
  let state: unknown;
  try {
    state = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new DataFileError(`${path}: not a readable state file (${(error as Error).message.split('\n')[0]})`);
  }
  const read = new Reader(path);
  const file = read.object(state, '');
  if (file.format !== FORMAT || file.version !== VERSION) {
    throw new DataFileError(`${path}: not a state file of this fake (expected format "${FORMAT}", version ${VERSION})`);
  }
  const { store } = ctx;
  read.array(file.users, 'users').forEach((raw, i) => {
    const u = read.object(raw, `users[${i}]`);
    const user: UserRecord = {
      id: read.string(u.id, `users[${i}].id`),
      token: read.string(u.token, `users[${i}].token`),
      name: read.string(u.name, `users[${i}].name`),
      quota: (u.quota ?? undefined) as UserRecord['quota'],
      rateLimit: (u.rate_limit ?? undefined) as UserRecord['rateLimit'],
    };
    if (store.users.has(user.id) || store.usersByToken.has(user.token))
      throw read.fail(`users[${i}]`, 'the user id or token is already taken');
    store.addUser(user);
  });
  read.array(file.collections, 'collections').forEach((raw, i) => {
    const at = `collections[${i}]`;
    const c = read.object(raw, at);
    const collection: CollectionRecord = {
      id: read.string(c.id, `${at}.id`),
      ownerId: read.owner(store.users, c.owner_id, `${at}.owner_id`),
      title: read.string(c.title, `${at}.title`),
      description: c.description === null ? null : read.string(c.description, `${at}.description`),
      createdAt: read.time(c.created_at, `${at}.created_at`),
      updatedAt: read.time(c.updated_at, `${at}.updated_at`),
      trashedAt: c.trashed_at === null ? null : read.time(c.trashed_at, `${at}.trashed_at`),
      noteIds: new Set(),
    };
    if (store.collections.has(collection.id)) throw read.fail(at, 'duplicate collection id');
    store.insertCollection(collection);
  });
  read.array(file.notes, 'notes').forEach((raw, i) => {
    const at = `notes[${i}]`;
    const n = read.object(raw, at);
    const attachments = read.array(n.attachments, `${at}.attachments`) as AttachmentRecord[];
    const version = n.version;
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 0)
      throw read.fail(`${at}.version`, 'expected an integer >= 0');
    const createdAt = read.time(n.created_at, `${at}.created_at`);
    const note: NoteRecord = {
      id: read.string(n.id, `${at}.id`),
      seq: store.allocateSeq(),
      ownerId: read.owner(store.users, n.owner_id, `${at}.owner_id`),
      ...contentFields(ctx, read.string(n.content, `${at}.content`), { attachments } as unknown as NoteRecord),
      createdAt,
      originalCreatedAt: read.time(n.original_created_at ?? n.created_at, `${at}.original_created_at`),
      updatedAt: read.time(n.updated_at, `${at}.updated_at`),
      version,
      trashedAt: n.trashed_at === null ? null : read.time(n.trashed_at, `${at}.trashed_at`),
      collectionIds: new Set(),
      audioRecordingIds: read
        .array(n.audio_recording_ids, `${at}.audio_recording_ids`)
        .map((id, k) => read.string(id, `${at}.audio_recording_ids[${k}]`)),
      attachments,
    };
    if (store.notes.has(note.id)) throw read.fail(at, 'duplicate note id');
    store.insertNote(note);
    read.array(n.collection_ids, `${at}.collection_ids`).forEach((id, k) => {
      const collection = store.collections.get(read.string(id, `${at}.collection_ids[${k}]`));
      if (!collection) throw read.fail(`${at}.collection_ids[${k}]`, 'no such collection in the file');
      note.collectionIds.add(collection.id);
    });
  });
  // Both sides of each link, each in its saved order; they must name the same links.
  (file.collections as unknown[]).forEach((raw, i) => {
    const c = raw as Record<string, unknown>;
    const collection = store.collections.get(c.id as string)!;
    read.array(c.note_ids, `collections[${i}].note_ids`).forEach((id, k) => {
      if (!store.notes.get(id as string)?.collectionIds.has(collection.id))
        throw read.fail(`collections[${i}].note_ids[${k}]`, 'the note does not list this collection');
      collection.noteIds.add(id as string);
    });
  });
  for (const note of store.notes.values()) {
    for (const id of note.collectionIds) {
      if (!store.collections.get(id)!.noteIds.has(note.id))
        throw read.fail(`notes (${note.id})`, `collection ${id} does not list the note`);
    }
  }
  read.array(file.grants, 'grants').forEach((raw, i) => {
    const [resourceId, userId, level] = read.array(raw, `grants[${i}]`);
    if (typeof resourceId !== 'string' || (!store.notes.has(resourceId) && !store.collections.has(resourceId)))
      throw read.fail(`grants[${i}]`, 'unknown resource');
    if (typeof userId !== 'string' || !store.users.has(userId)) throw read.fail(`grants[${i}]`, 'unknown user');
    if (!(LEVELS as readonly unknown[]).includes(level))
      throw read.fail(`grants[${i}]`, `level must be one of ${LEVELS.join(', ')}`);
    store.grant(resourceId, userId, level as Level);
  });
  return true;
}

/** Type checks with the file and the JSON path in every message. */
class Reader {
  constructor(private readonly path: string) {}

  fail(where: string, what: string): DataFileError {
    return new DataFileError(`${this.path}: ${where || 'the file'}: ${what}`);
  }

  object(value: unknown, where: string): Record<string, unknown> {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw this.fail(where, 'expected an object');
    return value as Record<string, unknown>;
  }

  array(value: unknown, where: string): unknown[] {
    if (!Array.isArray(value)) throw this.fail(where, 'expected an array');
    return value;
  }

  string(value: unknown, where: string): string {
    if (typeof value !== 'string') throw this.fail(where, 'expected a string');
    return value;
  }

  time(value: unknown, where: string): number {
    try {
      return parseTimestamp(value, 'the value');
    } catch (error) {
      throw this.fail(where, (error as Error).message);
    }
  }

  owner(users: ReadonlyMap<string, UserRecord>, value: unknown, where: string): string {
    const id = this.string(value, where);
    if (!users.has(id)) throw this.fail(where, 'no such user in the file');
    return id;
  }
}
