import fc from 'fast-check';
import { LIMITS } from '../../../spec/limits.js';
import type { ContainsKind } from '../../../spec/profile.js';

/**
 * The operations of the kit's sequences, as data (steps.ts runs them): the model-based checks, the
 * differential run and the explorer draw and send them. Operations hold indexes, not ids: a run
 * resolves an index against the notes and collections it created (in creation order), so the same
 * sequence means the same thing wherever it runs.
 */
export type IdMode = 'generated' | 'supplied' | 'duplicate';
/** Which timestamps a create supplies. */
export type Stamps = 'none' | 'created' | 'updated' | 'both';
/**
 * Before the original creation; between a backdated created_at and the original (still allowed);
 * exactly the original (the bound is inclusive); after it; in the future.
 */
export type Backdate = 'earlier' | 'between' | 'equal' | 'later' | 'future';
export const BACKDATES: readonly Backdate[] = ['earlier', 'between', 'equal', 'later', 'future'];

/** Which version an update sends: the note's current one, one it had before, or one it never had. */
export type VersionKind = 'current' | 'stale' | 'ahead';
/** Which order a list asks for: the default (updated_at) or one named. */
export type ListOrder = 'default' | 'created_at' | 'updated_at';
/**
 * What a list keeps to, by each of the four inclusive bounds at the sequence's start, or (notes
 * only) one of the sequence's collections.
 */
export type ListFilter =
  | 'created-after-run'
  | 'created-before-run'
  | 'updated-after-run'
  | 'updated-before-run'
  | 'collection';
/** Time bounds a search may add: none, created before the run began, or updated after it began. */
export type RunBound = 'none' | 'created-before-run' | 'updated-after-run';

/** A contains kind the profile gives markup for (content_markers). */
export type MarkerKind = 'open_task' | 'done_task' | 'image' | 'file';

export type Op =
  | {
      kind: 'createNote';
      id: IdMode;
      dup: number;
      word: string;
      /** The content's first line starts with a heading marker (sent only where the profile says how titles treat it). */
      heading: boolean;
      stamps: Stamps;
      /** Supplied times in -05:00 form rather than Z: servers compare instants, not strings. */
      zoned: boolean;
      into: number | null;
      /** Also names a collection by its title (collection_titles), the same as `into` or another. */
      titled?: number;
      /** The content also carries the markup the profile declares for this contains kind (content_markers). */
      marker?: MarkerKind;
    }
  /** `described`: the create sends a description besides the title. */
  | { kind: 'createCollection'; id: IdMode; dup: number; word: string; stamps: Stamps; described: boolean }
  | {
      kind: 'updateNote';
      note: number;
      version: VersionKind;
      ahead: number;
      word: string;
      stamp: boolean;
      any?: boolean;
    }
  | { kind: 'setCreatedAt'; note: number; when: Backdate; days: number; any?: boolean }
  /**
   * `any`: on any note of the sequence, deleted ones and those whose outcome the document leaves
   * open included (trashing a trashed note): the explorer visits such states; the oracle judges
   * what is determined and stays silent on the rest.
   */
  | { kind: 'trashNote' | 'restoreNote' | 'deleteNote' | 'readNote' | 'relatedNotes'; note: number; any?: boolean }
  | { kind: 'deleteCollection' | 'readCollection'; coll: number; any?: boolean }
  /** `same`: the title the collection has now (a PATCH that repeats the current value). */
  | { kind: 'updateCollection'; coll: number; word: string; any?: boolean; same?: boolean }
  /** `again`: add to a collection that already holds the note (a repeat); `any`: a note in any state. */
  | { kind: 'addNote' | 'removeNote'; note: number; coll: number; again?: boolean; any?: boolean }
  | { kind: 'moveNote'; note: number; from: number; to: number; any?: boolean }
  /** `coll`: the collection filter too; `absent`: a word no note holds (an empty answer). */
  | {
      kind: 'searchNotes';
      note: number;
      bound: RunBound;
      pageSize: number;
      common: boolean;
      coll?: number;
      absent?: boolean;
      /** Contains filters sent true (where the profile names them). */
      contains?: readonly ContainsKind[];
    }
  | { kind: 'searchCollections'; coll: number; before: boolean }
  | {
      kind: 'listNotes';
      pageSize: number;
      order: ListOrder;
      filter: ListFilter;
      coll: number;
      /** Contains filters sent true besides the filter (where the profile names them). */
      contains?: readonly ContainsKind[];
    }
  /** `exact`: a first page to learn the total, then a page of exactly that many (it ends at the last). */
  | {
      kind: 'listCollections';
      pageSize: number;
      order: ListOrder;
      filter: Exclude<ListFilter, 'collection'>;
      exact?: boolean;
    }
  /** A request at an edge of the document (edges.ts): which kind is decided when it runs. */
  | { kind: 'edgeInput'; which: string; index: number };

/** The operation of one kind, such as OpOf<'updateNote'> (also for kinds that share a shape, such as 'trashNote'). */
export type OpOf<K extends Op['kind']> = OfKind<Op, K>;
type OfKind<O, K> = O extends { kind: infer Kinds } ? (K extends Kinds ? Omit<O, 'kind'> & { kind: K } : never) : never;

/** What a sequence may draw: what the profile offers beyond the documented endpoints and names. */
export interface OpsOptions {
  readonly restore: boolean;
  readonly remove: boolean;
  /** The profile declares how titles treat heading markers (not shown): only then do notes start with one. */
  readonly headings: boolean;
  /** The edge requests' kinds (edges.ts), one command in five or so. */
  readonly edges: readonly string[];
  readonly maxOps: number;
}

/** Words for contents and titles (short, lowercase: they read well in a replayed sequence). */
const word = fc.stringMatching(/^[a-z]{4,8}$/);
const index = fc.nat({ max: 50 });

/**
 * Sequences of operations: a collection and a few creates first, so that the other operations have
 * data to act on; then creates twice as likely as anything else, and about one request in five at
 * an edge of the document.
 */
export function opsArbitrary(options: OpsOptions): fc.Arbitrary<Op[]> {
  const stamps = fc.constantFrom<Stamps>('none', 'created', 'updated', 'both');
  const createNote = (id: fc.Arbitrary<IdMode>) =>
    fc
      .record({
        id,
        dup: index,
        word,
        heading: options.headings ? fc.boolean() : fc.constant(false),
        stamps,
        zoned: fc.boolean(),
        into: fc.option(index, { nil: null }),
      })
      .map((r): Op => ({ kind: 'createNote', ...r }));
  const createCollection = (id: fc.Arbitrary<IdMode>) =>
    fc
      .record({ id, dup: index, word, stamps, described: fc.boolean() })
      .map((r): Op => ({ kind: 'createCollection', ...r }));
  const order = fc.constantFrom<ListOrder>('default', 'created_at', 'updated_at');
  // A few a page, or now and then the largest page (a walk past it needs 101 notes: ListNotes fills).
  const pageSize = (max: number) =>
    fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 5 }) }, { weight: 1, arbitrary: fc.constant(max) });
  const onNote = (kind: 'trashNote' | 'restoreNote' | 'deleteNote' | 'readNote' | 'relatedNotes') =>
    index.map((note): Op => ({ kind, note }));
  const bounds = [
    'created-after-run',
    'created-after-run',
    'created-before-run',
    'updated-after-run',
    'updated-before-run',
  ] as const;
  const weighted: Array<fc.WeightedArbitrary<Op>> = [
    { weight: 4, arbitrary: createNote(fc.constantFrom<IdMode>('generated', 'supplied', 'duplicate')) },
    { weight: 2, arbitrary: createCollection(fc.constantFrom<IdMode>('supplied', 'generated', 'duplicate')) },
    {
      weight: 2,
      arbitrary: fc
        .record({
          note: index,
          version: fc.constantFrom<VersionKind>('current', 'current', 'stale', 'ahead'),
          ahead: fc.integer({ min: 1, max: 5 }),
          word,
          stamp: fc.boolean(),
        })
        .map((r): Op => ({ kind: 'updateNote', ...r })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ note: index, when: fc.constantFrom(...BACKDATES), days: fc.integer({ min: 1, max: 400 }) })
        .map((r): Op => ({ kind: 'setCreatedAt', ...r })),
    },
    { weight: 1, arbitrary: onNote('trashNote') },
    { weight: 1, arbitrary: onNote('deleteNote') },
    { weight: 1, arbitrary: onNote('readNote') },
    { weight: 1, arbitrary: onNote('relatedNotes') },
    { weight: 1, arbitrary: index.map((coll): Op => ({ kind: 'readCollection', coll })) },
    { weight: 1, arbitrary: index.map((coll): Op => ({ kind: 'deleteCollection', coll })) },
    { weight: 1, arbitrary: fc.record({ coll: index, word }).map((r): Op => ({ kind: 'updateCollection', ...r })) },
    { weight: 1, arbitrary: fc.tuple(index, index).map(([note, coll]): Op => ({ kind: 'addNote', note, coll })) },
    {
      weight: 1,
      arbitrary: fc.tuple(index, index, index).map(([note, from, to]): Op => ({ kind: 'moveNote', note, from, to })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({
          note: index,
          bound: fc.constantFrom<RunBound>('none', 'none', 'created-before-run', 'updated-after-run'),
          pageSize: fc.constantFrom(2, 10),
          common: fc.boolean(),
        })
        .map((r): Op => ({ kind: 'searchNotes', ...r })),
    },
    {
      weight: 1,
      arbitrary: fc.record({ coll: index, before: fc.boolean() }).map((r): Op => ({ kind: 'searchCollections', ...r })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({
          pageSize: pageSize(LIMITS.notesListLimit.max),
          order,
          filter: fc.constantFrom<ListFilter>(...bounds, 'collection'),
          coll: index,
        })
        .map((r): Op => ({ kind: 'listNotes', ...r })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ pageSize: pageSize(LIMITS.collectionsListLimit.max), order, filter: fc.constantFrom(...bounds) })
        .map((r): Op => ({ kind: 'listCollections', ...r })),
    },
  ];
  if (options.restore) weighted.push({ weight: 1, arbitrary: onNote('restoreNote') });
  if (options.remove)
    weighted.push({
      weight: 1,
      arbitrary: fc.tuple(index, index).map(([note, coll]): Op => ({ kind: 'removeNote', note, coll })),
    });
  if (options.edges.length > 0)
    weighted.push({
      weight: 5,
      arbitrary: fc
        .tuple(fc.constantFrom(...options.edges), index)
        .map(([which, i]): Op => ({ kind: 'edgeInput', which, index: i })),
    });
  const fresh = fc.constantFrom<IdMode>('generated', 'supplied');
  const prelude = fc
    .tuple(
      createCollection(fresh),
      fc.array(
        fc.oneof({ weight: 1, arbitrary: createCollection(fresh) }, { weight: 2, arbitrary: createNote(fresh) }),
        { minLength: 1, maxLength: 4 },
      ),
    )
    .map(([first, more]) => [first, ...more]);
  return fc
    .tuple(prelude, fc.array(fc.oneof(...weighted), { maxLength: Math.max(0, options.maxOps - 5), size: 'max' }))
    .map(([first, then]) => [...first, ...then]);
}
