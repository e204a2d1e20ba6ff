import fc from 'fast-check';

/**
 * The one operation model of the kit's stateful runs: the model-based checks (suites/model/, one
 * command per operation) and the differential run (kit/differential/, the same operation on the
 * target and on the reference fake) both speak it. Operations hold indexes, not ids: a run
 * resolves an index against the notes and collections it created (in creation order), so the
 * same sequence means the same thing wherever it runs.
 */
export type IdMode = 'generated' | 'supplied' | 'duplicate';
/** Which timestamps a create supplies (taken from the sequence's private time window). */
export type Stamps = 'none' | 'created' | 'updated' | 'both';
/**
 * Before the original creation; between a backdated created_at and the original (still allowed);
 * exactly the original (the bound is inclusive); after it; in the future.
 */
export type Backdate = 'earlier' | 'between' | 'equal' | 'later' | 'future';
export const BACKDATES: readonly Backdate[] = ['earlier', 'between', 'equal', 'later', 'future'];

/** Which version an update sends: the note's current one, one it had before, or one it never had. */
export type VersionKind = 'current' | 'stale' | 'ahead';

export type Op =
  | {
      kind: 'createNote';
      id: IdMode;
      dup: number;
      word: string;
      heading: boolean;
      stamps: Stamps;
      zoned: boolean;
      into: number | null;
    }
  /** `described`: the create sends a description besides the title. */
  | { kind: 'createCollection'; id: IdMode; dup: number; word: string; stamps: Stamps; described: boolean }
  | { kind: 'updateNote'; note: number; version: VersionKind; ahead: number; word: string; stamp: boolean }
  | { kind: 'setCreatedAt'; note: number; when: Backdate; days: number }
  | { kind: 'trashNote' | 'restoreNote' | 'deleteNote' | 'readNote'; note: number }
  | { kind: 'deleteCollection' | 'readCollection' | 'listCollection'; coll: number }
  | { kind: 'addNote' | 'removeNote'; note: number; coll: number }
  | { kind: 'moveNote'; note: number; from: number; to: number };

/** The operation of one kind, such as OpOf<'updateNote'> (also for kinds that share a shape, such as 'trashNote'). */
export type OpOf<K extends Op['kind']> = OfKind<Op, K>;
type OfKind<O, K> = O extends { kind: infer Kinds } ? (K extends Kinds ? Omit<O, 'kind'> & { kind: K } : never) : never;

/** Words for contents and titles (short, lowercase: they read well in a replayed sequence). */
export const opWord = fc.stringMatching(/^[a-z]{4,8}$/);
