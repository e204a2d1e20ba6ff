import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { ServiceContext } from '../service/context.js';
import type { AttachmentRecord, CollectionRecord, Level, NoteRecord, UserRecord } from '../store/records.js';
import { DataFileError } from './errors.js';

/**
 * The fake's data as a JSON file, so a developer's users, notes and collections survive a
 * restart: versions, timestamps (both creation times), trash state, memberships, grants,
 * attachments and quotas are kept. Search snapshots and rate-limit buckets are not: they are
 * short-lived by nature. Derived fields (title, contains-features) are derived again.
 * The journal (journal.ts) holds the same record images, one request's changes per line.
 */
export const STATE_FORMAT = 'notes-conformance-fake-state';
export const STATE_VERSION = 1;
/**
 * The most state --state keeps, in bytes of its JSON: every write it acknowledged must be saved
 * and loaded again, and the file is written and read as one string, which V8 caps at 2^29 - 24
 * characters (512 MiB; a UTF-8 byte is at most one character). Past it writes are refused with
 * 507 (deletes still pass, so a client can make room); one write past it leaves room to spare.
 */
export const STATE_CAP_BYTES = 256 * 1024 * 1024;
/** A file larger than this is refused at start with its size, before it is read. */
export const STATE_LOAD_LIMIT_BYTES = 384 * 1024 * 1024;

export interface UserState {
  id: string;
  token: string;
  name: string;
  quota: UserRecord['quota'] | null;
  rate_limit: UserRecord['rateLimit'] | null;
}
export interface CollectionState {
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
export interface NoteState {
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
export type GrantState = [resourceId: string, userId: string, level: Level];
export interface StateFile {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  saved_at: string;
  users: UserState[];
  collections: CollectionState[];
  notes: NoteState[];
  grants: GrantState[];
}

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export const userImage = (u: UserRecord): UserState => ({
  id: u.id,
  token: u.token,
  name: u.name,
  quota: u.quota ? { ...u.quota } : null,
  rate_limit: u.rateLimit ? { ...u.rateLimit } : null,
});

export const collectionImage = (c: CollectionRecord): CollectionState => ({
  id: c.id,
  owner_id: c.ownerId,
  title: c.title,
  description: c.description,
  created_at: iso(c.createdAt),
  updated_at: iso(c.updatedAt),
  trashed_at: isoOrNull(c.trashedAt),
  note_ids: [...c.noteIds],
});

export const noteImage = (n: NoteRecord): NoteState => ({
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
});

export const grantsImage = (ctx: ServiceContext): GrantState[] =>
  [...ctx.store.grants].flatMap(([resourceId, levels]) =>
    [...levels].map(([userId, level]): GrantState => [resourceId, userId, level]),
  );

/** The whole state as one value (what a compaction writes). */
export function stateImage(ctx: ServiceContext): StateFile {
  const { store } = ctx;
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    saved_at: iso(ctx.clock.now()),
    users: [...store.users.values()].map(userImage),
    collections: [...store.collections.values()].map(collectionImage),
    notes: [...store.notes.values()].map(noteImage),
    grants: grantsImage(ctx),
  };
}

/** The one temporary file a save may leave behind when killed; the next start removes it. */
export const temporaryPathOf = (path: string) => `${path}.tmp`;

/**
 * Writes `text` to `path` atomically and durably: a 0600 temporary file (the state holds tokens),
 * flushed to disk, renamed over the old file, then the directory flushed so the rename persists.
 */
export function writeFileAtomically(path: string, text: string): number {
  const temporary = temporaryPathOf(path);
  if (existsSync(temporary)) unlinkSync(temporary);
  const fd = openSync(temporary, 'wx', 0o600);
  let bytes = 0;
  try {
    const data = Buffer.from(text);
    while (bytes < data.length) bytes += writeSync(fd, data, bytes);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temporary);
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, path);
  syncDirectory(dirname(path));
  return bytes;
}

function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse to fsync a directory; the rename itself is still atomic.
  }
}

/** The parsed state file, unchecked; undefined when there is none yet (the first start). */
export function readStateDocument(path: string, limitBytes: number): unknown {
  if (!existsSync(path)) return undefined;
  const size = statSync(path).size;
  if (size > limitBytes)
    throw new DataFileError(
      `${path}: ${size} bytes, more than the ${limitBytes} a state file may have (--state saves at most ` +
        `${STATE_CAP_BYTES} and refuses writes past that); not loaded`,
    );
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new DataFileError(`${path}: not a readable state file (${(error as Error).message.split('\n')[0]})`);
  }
}
