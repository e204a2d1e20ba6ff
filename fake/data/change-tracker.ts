import type { ServiceContext } from '../service/context.js';
import type { CollectionRecord, NoteRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { CollectionState, UserState } from './state.js';
import { collectionImage, type GrantState, grantsImage, type NoteState, noteImage, userImage } from './state.js';

/** One change of a journal line: a record's whole image, its removal, all grants, or a reset. */
export type JournalEntry =
  | ['u', UserState]
  | ['-u', string]
  | ['c', CollectionState]
  | ['-c', string]
  | ['n', NoteState]
  | ['-n', string]
  | ['g', GrantState[]]
  | ['clear'];

/**
 * Which records a request changed, learnt by wrapping the store's mutation methods (the way
 * faults wrap them, from outside) and, for the few fields the service sets on a record directly
 * (trash state, version, attachments, quotas), from the ids in the request's path. `take()` turns
 * them into the records' current images: the journal never replays operations, only results.
 */
export class ChangeTracker {
  private readonly users = new Set<string>();
  private readonly notes = new Set<string>();
  private readonly collections = new Set<string>();
  private grants = false;
  private cleared = false;

  constructor(private readonly ctx: ServiceContext) {
    const store = ctx.store;
    const note = (n: NoteRecord) => this.notes.add(n.id);
    const collection = (c: CollectionRecord) => this.collections.add(c.id);
    this.wrap('addUser', (u) => this.users.add(u.id));
    this.wrap('removeUser', (id) => {
      this.users.add(id);
      this.grants = true;
    });
    this.wrap('insertNote', (n) => {
      note(n);
      // A create counts against its creator's quota.
      this.users.add(n.ownerId);
    });
    this.wrap('setNoteContent', note);
    this.wrap('setNoteUpdatedAt', note);
    this.wrap('setNoteCreatedAt', note);
    this.wrap('deleteNote', (n) => {
      note(n);
      for (const id of n.collectionIds) this.collections.add(id);
      if (store.grants.has(n.id)) this.grants = true;
    });
    this.wrap('insertCollection', collection);
    this.wrap('setCollectionTitle', collection);
    this.wrap('setCollectionDescription', collection);
    this.wrap('trashCollection', collection);
    this.wrap('setCollectionUpdatedAt', collection);
    this.wrap('deleteCollection', (c) => {
      collection(c);
      for (const id of c.noteIds) this.notes.add(id);
      if (store.grants.has(c.id)) this.grants = true;
    });
    this.wrap('link', (n, c) => {
      note(n);
      collection(c);
    });
    this.wrap('unlink', (n, c) => {
      note(n);
      collection(c);
    });
    this.wrap('grant', () => {
      this.grants = true;
    });
    this.wrap('clear', () => {
      this.forget();
      this.cleared = true;
    });
  }

  /** Marks the notes, collections and users named in a path (`/v2/notes/{id}/trash`) as changed. */
  touchPath(path: string): void {
    const { store } = this.ctx;
    for (const raw of path.split('/')) {
      if (raw.length < 8) continue;
      let decoded: string;
      try {
        decoded = decodeURIComponent(raw);
      } catch {
        continue;
      }
      // Generated ids are lower case; a client may send them in upper case.
      for (const id of new Set([decoded, decoded.toLowerCase()])) {
        if (store.notes.has(id)) this.notes.add(id);
        else if (store.collections.has(id)) this.collections.add(id);
        else if (store.users.has(id)) this.users.add(id);
      }
    }
  }

  /** Every user: what a fixture call may have changed (quotas, rate limits). Users are few. */
  touchUsers(): void {
    for (const id of this.ctx.store.users.keys()) this.users.add(id);
  }

  get empty(): boolean {
    return !this.cleared && !this.grants && this.users.size + this.notes.size + this.collections.size === 0;
  }

  /** The changes since the last call, as journal entries of the records' current images. */
  take(): JournalEntry[] {
    const { store } = this.ctx;
    const entries: JournalEntry[] = this.cleared ? [['clear']] : [];
    for (const id of this.users) {
      const user = store.users.get(id);
      entries.push(user ? ['u', userImage(user)] : ['-u', id]);
    }
    for (const id of this.collections) {
      const c = store.collections.get(id);
      entries.push(c ? ['c', collectionImage(c)] : ['-c', id]);
    }
    for (const id of this.notes) {
      const n = store.notes.get(id);
      entries.push(n ? ['n', noteImage(n)] : ['-n', id]);
    }
    if (this.grants) entries.push(['g', grantsImage(this.ctx)]);
    this.forget();
    this.cleared = false;
    return entries;
  }

  private forget(): void {
    this.users.clear();
    this.notes.clear();
    this.collections.clear();
    this.grants = false;
  }

  private wrap<K extends keyof Store>(
    name: K,
    mark: Store[K] extends (...args: infer A) => unknown ? (...args: A) => void : never,
  ): void {
    const store = this.ctx.store;
    const next = (store[name] as (...args: unknown[]) => unknown).bind(store);
    const before = mark as (...args: unknown[]) => void;
    Object.defineProperty(store, name, {
      value: (...args: unknown[]) => {
        before(...args);
        return next(...args);
      },
      configurable: true,
      writable: true,
    });
  }
}
