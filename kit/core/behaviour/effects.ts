import type { Exchange } from '../client.js';
import type { Owner } from '../ledger.js';
import type { KnownCollection, KnownNote, World } from './state.js';

/**
 * What each operation the document describes does to the state (state.ts), once the target
 * accepted it: the one interpretation of documented behaviour that the oracle, the model-based
 * checks and the differential run share. Each effect takes what the request sent and what the
 * answer showed (the caller has judged the answer already) and the exchange that is the evidence
 * of every value it establishes. No I/O, no clock, no randomness: the same calls on the same state
 * give the same state. Effects the document leaves open make the fields they may touch unknown.
 */

/** A note create the target accepted. Absent values (the answer lacked them) stay unknown. */
export interface NoteCreate {
  readonly id: string;
  readonly owner: Owner;
  /** The content sent (section 4: stored as sent). */
  readonly content?: string;
  /** The title the target derived (its derivation beyond the first line is the target's choice). */
  readonly title?: string;
  readonly version?: number;
  /** The created_at and updated_at the answer showed. */
  readonly createdAt?: number;
  readonly updatedAt?: number;
  /** Which of created_at and updated_at the request supplied. */
  readonly suppliedCreated: boolean;
  readonly suppliedUpdated: boolean;
  /** The collections the note is in after the create, and those the create named by id. */
  readonly links: readonly string[];
  readonly named: readonly string[];
  /** When the create was answered, in the run's order of requests and in wall time. */
  readonly endSeq?: number;
  readonly endedAt?: number;
}

export function noteCreated(world: World, c: NoteCreate, by: Exchange): KnownNote {
  world.notes.delete(c.id);
  const n = world.note(c.id, c.owner);
  n.clock.lastEndSeq = c.endSeq ?? 0;
  n.clock.lastEndAt = c.endedAt ?? 0;
  if (c.content !== undefined)
    n.content = { value: c.content, rule: 'notes.create.content-stored', by, origin: 'notes.create.content-stored' };
  if (c.title !== undefined) n.title = { value: c.title, rule: 'notes.title.first-line', by };
  if (c.version !== undefined) n.version = { value: c.version, rule: 'notes.update.version-from-read-or-write', by };
  if (c.createdAt !== undefined) {
    n.createdAt = {
      value: c.createdAt,
      rule: c.suppliedCreated
        ? 'notes.create.created-at-honoured'
        : c.suppliedUpdated
          ? 'notes.create.created-at-defaults-to-updated-at'
          : 'notes.create.created-at-defaults-to-server-time',
      by,
    };
    n.firstCreatedAt = c.createdAt;
  }
  if (c.updatedAt !== undefined)
    n.updatedAt = {
      value: c.updatedAt,
      rule: c.suppliedUpdated ? 'notes.create.updated-at-honoured' : 'notes.create.updated-at-defaults-to-server-time',
      by,
    };
  n.trashed = { value: false, rule: 'notes.trashed-at.null-when-active', by };
  // "Not later than when the note was originally created": unambiguous for a note created at the
  // server's time only; after a supplied time it may mean that time or the server's.
  n.original = !c.suppliedCreated && !c.suppliedUpdated ? c.createdAt : undefined;
  const linked = c.links.map((id) => world.collections.get(id));
  if (linked.every((coll) => coll && coll.owner === c.owner && coll.members)) {
    n.links = new Map();
    for (const coll of linked) {
      const rule = c.named.includes(coll!.id)
        ? 'notes.create.collection-ids-linked'
        : 'notes.create.collection-titles-case-insensitive';
      n.links.set(coll!.id, { value: true, rule, by });
      coll!.members!.add(n.id);
      coll!.updatedAt = undefined;
    }
  } else {
    for (const coll of linked) if (coll) coll.members = undefined;
  }
  return n;
}

/** An update the target accepted (section 4: the content replaced, a new version, created_at kept). */
export interface NoteUpdate {
  readonly content?: string;
  readonly title?: string;
  readonly version?: number;
  readonly updatedAt?: number;
  readonly suppliedUpdated: boolean;
}

export function noteUpdated(n: KnownNote, u: NoteUpdate, by: Exchange): void {
  const before = n.version?.value ?? n.unsettledVersion;
  if (before !== undefined && before !== u.version) n.stale.push({ value: before, by: 'update' });
  n.unsettledVersion = undefined;
  if (u.content !== undefined)
    n.content = {
      value: u.content,
      rule: 'notes.update.content-replaced',
      by,
      origin: 'notes.update.content-replaced',
    };
  n.title = u.title === undefined ? undefined : { value: u.title, rule: 'notes.title.first-line', by };
  n.version =
    u.version === undefined ? undefined : { value: u.version, rule: 'notes.update.version-from-read-or-write', by };
  n.updatedAt =
    u.updatedAt === undefined
      ? undefined
      : {
          value: u.updatedAt,
          rule: u.suppliedUpdated
            ? 'notes.update.updated-at-honoured'
            : 'notes.update.updated-at-defaults-to-server-time',
          by,
        };
  if (n.createdAt) n.createdAt = { ...n.createdAt, rule: 'notes.update.created-at-unchanged', by };
  n.refusals = [];
}

/**
 * set-created-at the target accepted: created_at is the value set ("Changes metadata only, not
 * content": content, title and version stay, the version being the "content document version");
 * whether updated_at moves is not shown.
 */
export function createdAtSet(n: KnownNote, createdAt: number | undefined, by: Exchange): void {
  n.createdAt = createdAt === undefined ? undefined : { value: createdAt, rule: 'notes.set-created-at.applied', by };
  n.updatedAt = undefined;
  if (n.content) n.content = { ...n.content, rule: 'notes.set-created-at.metadata-only', by };
  if (n.title) n.title = { ...n.title, rule: 'notes.set-created-at.metadata-only', by };
  if (n.version) n.version = { ...n.version, rule: 'notes.set-created-at.version-unchanged', by };
  n.refusals = n.refusals.filter((f) => !('created_at' in f.asked));
}

/** The collections whose updated_at or note_count may follow a change of the note (which ones: not shown). */
function touchHolders(world: World, n: KnownNote): void {
  const holders = n.links ? [...n.links.keys()] : undefined;
  for (const c of world.collections.values())
    if (holders ? holders.includes(c.id) : !c.members || c.members.has(n.id)) c.updatedAt = undefined;
}

/**
 * Trash and restore (section 3): the state changes; what they do to version and updated_at is not
 * shown (the restore endpoint and the trash answer are not shown at all).
 */
export function noteTrashed(world: World, n: KnownNote, trashed: boolean, by: Exchange): void {
  touchHolders(world, n);
  n.trashed = {
    value: trashed,
    rule: trashed ? 'notes.trash.sets-trashed-at' : 'notes.restore.returns-to-active',
    by,
  };
  unsettleVersion(n);
  n.updatedAt = undefined;
  n.refusals = [];
}

/** DELETE of a note: permanently gone, and out of every collection. */
export function noteDeleted(world: World, n: KnownNote, by: Exchange): void {
  touchHolders(world, n);
  n.deleted = { value: true, rule: 'notes.delete.permanent', by };
  for (const c of world.collections.values()) c.members?.delete(n.id);
  if (n.links) n.links = new Map();
}

/** A collection create the target accepted (section 4), empty. */
export interface CollectionCreate {
  readonly id: string;
  readonly owner: Owner;
  readonly title?: string;
  /** The description sent (null when none was: the answer's "string or null"); undefined: unknown. */
  readonly description?: string | null;
  readonly createdAt?: number;
  readonly updatedAt?: number;
  readonly suppliedCreated: boolean;
  readonly suppliedUpdated: boolean;
  readonly endSeq?: number;
  readonly endedAt?: number;
}

export function collectionCreated(world: World, c: CollectionCreate, by: Exchange): KnownCollection {
  world.collections.delete(c.id);
  const coll = world.collection(c.id, c.owner);
  coll.clock.lastEndSeq = c.endSeq ?? 0;
  coll.clock.lastEndAt = c.endedAt ?? 0;
  if (c.title !== undefined) coll.title = { value: c.title, rule: 'collections.create.fields-stored', by };
  if (c.description !== undefined)
    coll.description = { value: c.description, rule: 'collections.create.fields-stored', by };
  if (c.createdAt !== undefined)
    coll.createdAt = {
      value: c.createdAt,
      rule: c.suppliedCreated
        ? 'collections.create.created-at-honoured'
        : c.suppliedUpdated
          ? 'collections.create.created-at-defaults-to-updated-at'
          : 'collections.create.created-at-defaults-to-server-time',
      by,
    };
  if (c.updatedAt !== undefined)
    coll.updatedAt = {
      value: c.updatedAt,
      rule: c.suppliedUpdated
        ? 'collections.create.updated-at-honoured'
        : c.suppliedCreated
          ? 'collections.create.updated-at-defaults-to-created-at'
          : 'collections.create.created-at-defaults-to-server-time',
      by,
    };
  coll.members = new Set();
  return coll;
}

/**
 * A collection PATCH the target accepted: "updates only the provided fields ... omitted fields are
 * unchanged", created_at too. `sent` is the request body; a null title (whether it means "not
 * provided" is not shown) makes the title unknown.
 */
export function collectionUpdated(
  c: KnownCollection,
  sent: Readonly<Record<string, unknown>>,
  updatedAt: number | undefined,
  by: Exchange,
): void {
  const nullTitle = sent.title === null;
  if (nullTitle) c.title = undefined;
  for (const field of ['title', 'description'] as const) {
    if (field === 'title' && nullTitle) continue;
    if (field in sent && (typeof sent[field] === 'string' || sent[field] === null))
      c[field] = { value: sent[field] as string, rule: 'collections.update.fields-applied', by };
    else if (c[field]) c[field] = { ...c[field]!, rule: 'collections.update.partial', by } as never;
  }
  if (c.createdAt) c.createdAt = { ...c.createdAt, rule: 'collections.update.partial', by };
  c.updatedAt =
    updatedAt === undefined
      ? undefined
      : {
          value: updatedAt,
          rule:
            sent.updated_at != null
              ? 'collections.update.updated-at-preserved'
              : 'collections.update.updated-at-defaults-to-server-time',
          by,
        };
  c.refusals = [];
}

/**
 * DELETE of a collection: gone, and no note lists it any more; the notes stay. Taking a note out of
 * a collection is a membership change: what it does to the note's version and updated_at is not
 * shown, as for remove and move.
 */
export function collectionDeleted(world: World, c: KnownCollection, by: Exchange): void {
  c.deleted = { value: true, rule: 'collections.delete.permanent', by };
  for (const n of world.notes.values()) {
    if (!n.links?.has(c.id)) continue;
    n.links.delete(c.id);
    n.unlinked.set(c.id, { value: false, rule: 'collections.delete.unlinks-notes', by });
    unsettleVersion(n);
    n.updatedAt = undefined;
  }
}

export type MembershipOp = 'addNoteToCollection' | 'moveNote' | 'removeNoteFromCollection';

/**
 * Add, move and remove, accepted: the links change as section 4 says (move: "adds the note to the
 * target collection, then removes it from the source"; "Content is unchanged"). What a membership
 * change does to the note's version and updated_at, or the collections' updated_at, is not shown.
 * `source` and `target` are undefined where the state does not know the collection.
 */
export function membershipChanged(
  world: World,
  op: MembershipOp,
  actor: Owner,
  note: KnownNote | undefined,
  source: KnownCollection | undefined,
  target: KnownCollection | undefined,
  by: Exchange,
): void {
  const touched = [source, target].filter((c): c is KnownCollection => c !== undefined);
  for (const c of touched) c.updatedAt = undefined;
  if (!note) {
    for (const c of touched) c.members = undefined;
    return;
  }
  unsettleVersion(note);
  note.updatedAt = undefined;
  note.refusals = [];
  // Only links between the actor's own note and collections are known for sure (another user's
  // collections may be hidden from the owner's collection_ids).
  const own =
    touched.length === (op === 'moveNote' ? 2 : 1) && touched.every((c) => c.owner === note.owner && c.members);
  // A trashed note's membership change is not determined (a target may accept it and change nothing).
  if (!own || !note.links || note.owner !== actor || note.trashed?.value !== false) {
    world.forgetLinks(note);
    for (const c of touched) c.members = undefined;
    return;
  }
  const link = (c: KnownCollection, rule: string) => {
    note.links!.set(c.id, { value: true, rule, by });
    note.unlinked.delete(c.id);
    c.members!.add(note.id);
  };
  const unlink = (c: KnownCollection, rule: string) => {
    note.links!.delete(c.id);
    note.unlinked.set(c.id, { value: false, rule, by });
    c.members!.delete(note.id);
  };
  if (op === 'addNoteToCollection') link(source!, 'membership.add.links');
  else if (op === 'removeNoteFromCollection') unlink(source!, 'membership.remove.unlinks');
  else if (target!.id !== source!.id) {
    link(target!, 'membership.move.moves');
    unlink(source!, 'membership.move.moves');
  }
  // Content and title are the note's own: a change now is the membership operation's doing.
  const keep =
    op === 'moveNote'
      ? 'membership.move.content-unchanged'
      : op === 'addNoteToCollection'
        ? 'membership.add.link-only'
        : undefined;
  if (keep) {
    if (note.content) note.content = { ...note.content, rule: keep, by };
    if (note.title) note.title = { ...note.title, rule: keep, by };
  }
}

/** The version is no longer known (an operation whose effect on it is not shown): a read tells it again. */
export function unsettleVersion(n: KnownNote): void {
  if (n.version) n.unsettledVersion = n.version.value;
  n.version = undefined;
}

/**
 * A version a read or a write answer showed. Where the state knew another, that one is stale now
 * ("must equal the note's current version"); a value that is not a positive integer is left to the
 * rules that judge it.
 */
export function learnVersion(n: KnownNote, value: unknown, by: Exchange): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || n.version?.value === value) return;
  const before = n.version?.value ?? n.unsettledVersion;
  if (before !== undefined && before !== value) n.stale.push({ value: before, by: 'learned' });
  n.unsettledVersion = undefined;
  n.version = { value, rule: 'notes.update.version-from-read-or-write', by };
}

/** Whether the note is trashed, as a read showed it (trashed_at set or null). */
export function learnTrashed(n: KnownNote, trashedAt: unknown, by: Exchange): void {
  n.trashed = {
    value: trashedAt !== null,
    rule: trashedAt === null ? 'notes.trashed-at.null-when-active' : 'notes.read.trashed-included',
    by,
  };
}
