import { ByOwner, type OwnerOrders } from './by-owner.js';
import { CollectionTermIndex } from './collection-terms.js';
import {
  type CollectionRecord,
  joined,
  type Level,
  left,
  type NoteRecord,
  type PendingCapture,
  type SearchSnapshot,
  type UserRecord,
} from './records.js';
import { SearchIndex } from './search-index.js';
import { TitleIndex } from './title-index.js';

const SNAPSHOT_CAPACITY = 10_000;

/** One owner's notes in list order: what a user's list walks instead of every user's notes. */
export type OwnerNotes = OwnerOrders<NoteRecord>;

/**
 * All state of one fake instance, with the indexes kept in step by the mutation methods below.
 * The store enforces no rule of the API: validation, permissions and domain rules live in
 * service/. It never sees HTTP.
 */
export class Store {
  readonly users = new Map<string, UserRecord>();
  readonly usersByToken = new Map<string, UserRecord>();
  readonly notes = new Map<string, NoteRecord>();
  readonly notesBySeq: (NoteRecord | undefined)[] = [];
  readonly collections = new Map<string, CollectionRecord>();
  /** resource id (note or collection) -> user id -> level granted through the fixture API. */
  readonly grants = new Map<string, Map<string, Level>>();
  /**
   * Notes by created_at and updated_at per owner (the owner a note was inserted under; owningAll in
   * faults/query-support.ts re-files pretended notes with refileNote). A user's list walks their
   * own notes and the few shared with them, never another user's 100,000.
   */
  private readonly notesByOwner = new ByOwner<NoteRecord>();
  /** The same for collections: a user's collection list and search walk their own. */
  private readonly collectionsByOwner = new ByOwner<CollectionRecord>();
  /**
   * Indexes each note's title and content under its owner, read back from the note itself (it
   * keeps no copy).
   */
  readonly search = new SearchIndex(this);
  readonly snapshots = new Map<string, SearchSnapshot>();
  /** Collection titles and descriptions by term, for collection search (kept in step by the writes below). */
  readonly collectionTerms = new CollectionTermIndex();
  /** Active collections by lower-cased title, per user who owns or holds a grant on them. */
  readonly collectionTitles = new TitleIndex();
  /** Captures accepted and not yet filed, oldest first. */
  readonly captures: PendingCapture[] = [];
  private nextSeq = 0;

  /** A note's text for the search index (it keeps no copy; see SearchIndex's constructor). */
  documentText(seq: number): { owner: string; title: string; body: string } | undefined {
    const note = this.notesBySeq[seq];
    return note && { owner: note.ownerId, title: note.title, body: note.content };
  }

  allocateSeq(): number {
    return this.nextSeq++;
  }

  /** Forgets everything (the fixture API's reset). */
  clear(): void {
    for (const map of [this.users, this.usersByToken, this.notes, this.collections, this.grants, this.snapshots])
      map.clear();
    this.notesBySeq.length = 0;
    this.notesByOwner.clear();
    this.collectionsByOwner.clear();
    this.captures.length = 0;
    this.search.clear();
    this.collectionTerms.clear();
    this.collectionTitles.clear();
  }

  // ---- users ----

  addUser(user: UserRecord): void {
    this.users.set(user.id, user);
    this.usersByToken.set(user.token, user);
  }

  removeUser(userId: string): void {
    const user = this.users.get(userId);
    if (!user) return;
    for (const note of [...this.notes.values()]) if (note.ownerId === userId) this.deleteNote(note);
    for (const coll of [...this.collections.values()]) if (coll.ownerId === userId) this.deleteCollection(coll);
    for (const levels of this.grants.values()) levels.delete(userId);
    this.collectionTitles.forgetUser(userId);
    this.users.delete(userId);
    this.usersByToken.delete(user.token);
  }

  // ---- notes ----

  insertNote(note: NoteRecord): void {
    this.notes.set(note.id, note);
    this.notesBySeq[note.seq] = note;
    this.notesByOwner.file(note);
    this.search.add(note.seq);
  }

  /** The owner's notes in list order (empty indexes for a user without notes). */
  notesOf(ownerId: string): OwnerNotes {
    return this.notesByOwner.of(ownerId);
  }

  /**
   * Moves a note's entries to another owner's indexes and sets its owner (the search index is the
   * caller's to re-file): for faults that pretend the caller owns other users' notes.
   */
  refileNote(note: NoteRecord, ownerId: string): void {
    this.notesByOwner.unfile(note);
    (note as { ownerId: string }).ownerId = ownerId;
    this.notesByOwner.file(note);
  }

  /** Replaces content-derived fields and re-indexes the note for search. */
  setNoteContent(note: NoteRecord, fields: { content: string; title: string; features: number }): void {
    this.search.remove(note.seq);
    note.content = fields.content;
    note.title = fields.title;
    note.features = fields.features;
    this.search.add(note.seq);
  }

  setNoteUpdatedAt(note: NoteRecord, updatedAt: number): void {
    this.notesByOwner.moveUpdated(note, updatedAt);
    note.updatedAt = updatedAt;
  }

  setNoteCreatedAt(note: NoteRecord, createdAt: number): void {
    this.notesByOwner.moveCreated(note, createdAt);
    note.createdAt = createdAt;
  }

  deleteNote(note: NoteRecord): void {
    for (const collectionId of note.collectionIds) this.collections.get(collectionId)?.noteIds.delete(note.id);
    this.notesByOwner.unfile(note);
    this.search.remove(note.seq);
    this.notes.delete(note.id);
    this.notesBySeq[note.seq] = undefined;
    this.grants.delete(note.id);
  }

  // ---- collections ----

  insertCollection(collection: CollectionRecord): void {
    this.collections.set(collection.id, collection);
    this.collectionsByOwner.file(collection);
    this.indexTitle(collection, true);
    this.collectionTerms.refresh([collection]);
  }

  setCollectionTitle(collection: CollectionRecord, title: string): void {
    this.indexTitle(collection, false);
    collection.title = title;
    this.indexTitle(collection, true);
    this.collectionTerms.refresh([collection]);
  }

  setCollectionDescription(collection: CollectionRecord, description: string | null): void {
    collection.description = description;
    this.collectionTerms.refresh([collection]);
  }

  /** A trashed collection keeps its id (taken) but is gone for every title lookup. */
  trashCollection(collection: CollectionRecord, at: number): void {
    this.indexTitle(collection, false);
    collection.trashedAt = at;
  }

  setCollectionUpdatedAt(collection: CollectionRecord, updatedAt: number): void {
    this.collectionsByOwner.moveUpdated(collection, updatedAt);
    collection.updatedAt = updatedAt;
  }

  setCollectionCreatedAt(collection: CollectionRecord, createdAt: number): void {
    this.collectionsByOwner.moveCreated(collection, createdAt);
    collection.createdAt = createdAt;
  }

  /** The owner's collections (trashed ones too) in list order. */
  collectionsOf(ownerId: string): OwnerOrders<CollectionRecord> {
    return this.collectionsByOwner.of(ownerId);
  }

  deleteCollection(collection: CollectionRecord): void {
    this.indexTitle(collection, false);
    for (const noteId of collection.noteIds) {
      const note = this.notes.get(noteId);
      if (note) note.collectionIds = left(note.collectionIds, collection.id);
    }
    this.collectionsByOwner.unfile(collection);
    this.collections.delete(collection.id);
    this.collectionTerms.forget(collection.id);
    this.grants.delete(collection.id);
  }

  // ---- membership ----

  link(note: NoteRecord, collection: CollectionRecord): void {
    note.collectionIds = joined(note.collectionIds, collection.id);
    collection.noteIds.add(note.id);
  }

  unlink(note: NoteRecord, collection: CollectionRecord): void {
    note.collectionIds = left(note.collectionIds, collection.id);
    collection.noteIds.delete(note.id);
  }

  // ---- grants and snapshots ----

  /** The level granted to a user on a note or collection directly, if any. */
  grantLevel(resourceId: string, userId: string): Level | undefined {
    return this.grants.get(resourceId)?.get(userId);
  }

  grant(resourceId: string, userId: string, level: Level): void {
    let levels = this.grants.get(resourceId);
    if (!levels) {
      levels = new Map();
      this.grants.set(resourceId, levels);
    }
    levels.set(userId, level);
    const collection = this.collections.get(resourceId);
    if (collection && collection.trashedAt === null) this.collectionTitles.add(userId, collection.title, collection.id);
  }

  /** Adds or removes an active collection's title for its owner and every user holding a grant on it. */
  private indexTitle(collection: CollectionRecord, present: boolean): void {
    if (collection.trashedAt !== null) return;
    const users = [collection.ownerId, ...(this.grants.get(collection.id)?.keys() ?? [])];
    for (const userId of users) {
      if (present) this.collectionTitles.add(userId, collection.title, collection.id);
      else this.collectionTitles.remove(userId, collection.title, collection.id);
    }
  }

  /**
   * Keeps a snapshot; expired ones (older than ttlMs) and, beyond the capacity, the oldest are
   * dropped first. Snapshots are kept in creation order, so the expired ones are at the front.
   */
  saveSnapshot(snapshot: SearchSnapshot, ttlMs: number): void {
    for (const [id, old] of this.snapshots) {
      if (snapshot.createdAt - old.createdAt <= ttlMs && this.snapshots.size < SNAPSHOT_CAPACITY) break;
      this.snapshots.delete(id);
    }
    this.snapshots.set(snapshot.id, snapshot);
  }
}
