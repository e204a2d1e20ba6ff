/** Permission levels of the document's part 5, weakest first. */
export const LEVELS = ['access', 'contribute', 'edit', 'own'] as const;
export type Level = (typeof LEVELS)[number];
export const LEVEL_RANK: Readonly<Record<Level, number>> = { access: 1, contribute: 2, edit: 3, own: 4 };

export interface QuotaState {
  plan: string;
  limit: number;
  /** Notes created since the quota period began; deletes do not refund and set-created-at does not count. */
  used: number;
}

export interface RateLimitConfig {
  /** Requests the X-RateLimit bucket holds, and how many leak out per second. */
  requests: number;
  requestsPerSecond: number;
  /** Complexity points the X-Complexity bucket holds, and how many leak out per second. */
  complexity: number;
  complexityPerSecond: number;
}

export interface UserRecord {
  readonly id: string;
  readonly token: string;
  readonly name: string;
  quota: QuotaState | undefined;
  rateLimit: RateLimitConfig | undefined;
}

export interface AttachmentRecord {
  attachment_id: string;
  attachment_kind: string;
  image_type: string | null;
  ocr_text: string | null;
  page_count: number | null;
  suggested_search: string | null;
  summary: string | null;
  visual_description: string | null;
}

/** Content features for the contains filters, as a bit set. */
export const FEATURE = { openTask: 1, task: 2, image: 4, file: 8 } as const;

export interface NoteRecord {
  readonly id: string;
  /** Dense integer handle for the search index's score arrays. */
  readonly seq: number;
  readonly ownerId: string;
  content: string;
  title: string;
  /** No snippet: it is derived when an item is rendered (a stored copy was ~200 bytes a note). */
  features: number;
  createdAt: number;
  /** The creation time before any set-created-at: the backdate limit. */
  readonly originalCreatedAt: number;
  updatedAt: number;
  version: number;
  trashedAt: number | null;
  /** NO_COLLECTIONS until the note joins one (joined and left below keep it). */
  collectionIds: ReadonlySet<string>;
  /** Replaced, never changed in place: most notes share NO_AUDIO_RECORDINGS and NO_ATTACHMENTS. */
  audioRecordingIds: readonly string[];
  attachments: readonly AttachmentRecord[];
}

/**
 * The empty lists most notes have, shared: an empty array apiece was 64 bytes a note (64 MB at
 * the 1,000,000 notes of --generate).
 */
export const NO_AUDIO_RECORDINGS: readonly string[] = Object.freeze([]);
export const NO_ATTACHMENTS: readonly AttachmentRecord[] = Object.freeze([]);

/**
 * The collections of a note in none, shared: an empty Set apiece was 234 bytes a note (100 MB
 * for the notes --generate puts in no collection, at 1,000,000 notes).
 */
export const NO_COLLECTIONS: ReadonlySet<string> = new Set<string>();

/** A note's collection ids with `id` added: a Set of its own from the first one on. */
export function joined(ids: ReadonlySet<string>, id: string): ReadonlySet<string> {
  if (ids === NO_COLLECTIONS) return new Set([id]);
  (ids as Set<string>).add(id);
  return ids;
}

/** A note's collection ids without `id`: the shared empty set again when none is left. */
export function left(ids: ReadonlySet<string>, id: string): ReadonlySet<string> {
  if (ids === NO_COLLECTIONS || !ids.has(id)) return ids;
  (ids as Set<string>).delete(id);
  return ids.size === 0 ? NO_COLLECTIONS : ids;
}

export interface CollectionRecord {
  readonly id: string;
  readonly ownerId: string;
  title: string;
  description: string | null;
  createdAt: number;
  updatedAt: number;
  /** Collections can be trashed only through the fake's extra endpoint; their ids stay taken (409). */
  trashedAt: number | null;
  readonly noteIds: Set<string>;
}

export interface SearchSnapshot {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: number;
  /** The frozen, ranked result window: the notes' dense handles (at most 100), not their contents. */
  readonly seqs: Int32Array;
  /** Whether the first page asked for full content: later pages keep the shape. */
  readonly includeContent: boolean;
}

/** A capture accepted and not yet filed as a note (the operation is asynchronous). */
export interface PendingCapture {
  readonly userId: string;
  /** The note's content: the captured input. */
  readonly content: string;
  /** The instant the input belongs to (the capture's timestamp), if given. */
  readonly at: number | undefined;
}
