import type { Level } from '../store/records.js';

/** A text field's limits: characters (code points) and UTF-8 bytes; undefined: not limited. */
export interface TextLimit {
  readonly maxChars: number;
  readonly maxBytes: number | undefined;
}

/** How a request timestamp field is judged. */
export interface TimestampPolicy {
  /** A timestamp without Z or +hh:mm is refused. */
  readonly offsetRequired: boolean;
  /** An instant later than now is refused. */
  readonly notFuture: boolean;
}

/** A numeric query parameter's range and default. */
export interface LimitRange {
  readonly max: number;
  readonly fallback: number;
}

export type OrderField = 'created_at' | 'updated_at';

/**
 * The limits, defaults and permission levels of the API as data, quoted from the document where it
 * states them. The service reads every number from here, so a fault that moves a limit by one
 * (fake/faults/) overrides a field instead of adding a branch to the reference code.
 */
export interface Policy {
  readonly note: {
    /** Part 1: 200,000 characters and 200,000 UTF-8 bytes on create. */
    readonly createContent: TextLimit;
    /** Part 2: only the character limit is stated for update. */
    readonly updateContent: TextLimit;
    /** Not shown; the document says only that a version exists and changes. */
    readonly firstVersion: number;
    /** Generated ids are UUIDs (supplied ids must be UUIDs too). */
    readonly validateSuppliedIds: boolean;
  };
  readonly collection: {
    readonly title: TextLimit;
    readonly description: TextLimit;
    readonly validateSuppliedIds: boolean;
  };
  /** Entries of collection_titles on note create share the collection title limit. */
  readonly collectionTitleEntry: TextLimit;
  readonly question: TextLimit;
  readonly timestamps: Readonly<Record<TimestampField, TimestampPolicy>>;
  readonly notesList: LimitRange & { readonly defaultOrder: OrderField };
  readonly collectionsList: LimitRange & { readonly defaultOrder: OrderField };
  readonly notesSearch: LimitRange & { readonly window: number };
  readonly related: LimitRange;
  /** limit/offset values such as 2.5 are refused (not truncated). */
  readonly refuseFractions: boolean;
  /** The level an operation needs (part 6 and the operation sections). */
  readonly levels: Readonly<Record<LevelledAction, Level>>;

  // ---- collections area (issue 9) ----
  /**
   * PATCH /v2/collections: "title (max 1,000) and description (max 10,000)", the limits of create; kept
   * apart from `collection` so a fault can move the limit of one operation and not the other.
   */
  readonly collectionUpdate: { readonly title: TextLimit; readonly description: TextLimit };
  /** GET /v2/collections: a cursor is reused "with same filters and order_by"; with others it is refused. */
  readonly collectionCursorsCheckFilters: boolean;
  /** POST /v2/collections/search: "relevance" is not shown; the fake weighs a title match above a description match. */
  readonly collectionsSearch: { readonly titleWeight: number; readonly descriptionWeight: number };
}

export type TimestampField =
  | 'note.create.created_at'
  | 'note.create.updated_at'
  | 'note.update.updated_at'
  | 'note.set_created_at'
  | 'collection.create.created_at'
  | 'collection.create.updated_at'
  | 'collection.update.updated_at'
  | 'notes.list.bounds'
  | 'notes.search.bounds'
  | 'collections.list.bounds'
  | 'collections.search.bounds';

export type LevelledAction =
  | 'updateNote'
  | 'setNoteCreatedAt'
  | 'trashNote'
  | 'deleteNote'
  | 'restoreNote'
  | 'updateCollection'
  | 'deleteCollection'
  | 'addNoteToCollection'
  | 'moveNoteTarget';

const text = (max: number, bytes = true): TextLimit => ({ maxChars: max, maxBytes: bytes ? max : undefined });
const strict: TimestampPolicy = { offsetRequired: true, notFuture: true };
const bound: TimestampPolicy = { offsetRequired: true, notFuture: false };

export const REFERENCE_POLICY: Policy = {
  note: {
    createContent: text(200_000),
    updateContent: text(200_000, false),
    firstVersion: 1,
    validateSuppliedIds: true,
  },
  collection: { title: text(1_000), description: text(10_000), validateSuppliedIds: true },
  collectionTitleEntry: text(1_000),
  question: text(10_000, false),
  timestamps: {
    'note.create.created_at': strict,
    'note.create.updated_at': strict,
    // Part 2 states no "not in the future" rule for a note PATCH; the fake refuses the future anyway
    // (a choice the kit never asserts either way).
    'note.update.updated_at': strict,
    'note.set_created_at': strict,
    'collection.create.created_at': strict,
    'collection.create.updated_at': strict,
    'collection.update.updated_at': strict,
    // Time bounds need an offset like every request timestamp; a bound in the future is simply a bound.
    'notes.list.bounds': bound,
    'notes.search.bounds': bound,
    'collections.list.bounds': bound,
    'collections.search.bounds': bound,
  },
  notesList: { max: 100, fallback: 50, defaultOrder: 'updated_at' },
  collectionsList: { max: 100, fallback: 50, defaultOrder: 'updated_at' },
  notesSearch: { max: 50, fallback: 20, window: 100 },
  related: { max: 20, fallback: 10 },
  refuseFractions: true,
  levels: {
    updateNote: 'edit',
    setNoteCreatedAt: 'own',
    trashNote: 'edit',
    deleteNote: 'edit',
    restoreNote: 'edit',
    updateCollection: 'edit',
    deleteCollection: 'edit',
    addNoteToCollection: 'contribute',
    moveNoteTarget: 'contribute',
  },

  // ---- collections area (issue 9) ----
  collectionUpdate: { title: text(1_000), description: text(10_000) },
  collectionCursorsCheckFilters: true,
  collectionsSearch: { titleWeight: 3, descriptionWeight: 1 },
};

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** The policy with overrides applied (objects merge, everything else replaces). */
export function withOverrides(base: Policy, overrides: readonly DeepPartial<Policy>[]): Policy {
  // A key present with the value undefined replaces too: "no byte limit" is maxBytes: undefined.
  const merge = (a: unknown, b: unknown): unknown => {
    if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return b;
    const out: Record<string, unknown> = { ...(a as Record<string, unknown>) };
    for (const [key, value] of Object.entries(b)) out[key] = merge(out[key], value);
    return out;
  };
  return overrides.reduce<Policy>((policy, o) => merge(policy, o) as Policy, base);
}
