import fc from 'fast-check';
import { BACKDATES, type IdMode, type Op, opWord, type Stamps, type VersionKind } from '../core/model-operations.js';

/** How the differential run draws sequences of the shared operations (kit/core/model-operations.ts). */
export interface OpsOptions {
  /** The profile declares the endpoint (the document does not show it). */
  restore: boolean;
  remove: boolean;
  /** The profile names the note list's collection filter (the document does not show it). */
  listByCollection: boolean;
  /** The profile declares how titles treat heading markers (not shown): only then do notes start with one. */
  headings: boolean;
  maxOps: number;
}

const index = fc.nat({ max: 30 });
const word = opWord;
const stamps = fc.constantFrom<Stamps>('none', 'created', 'updated', 'both');
const idMode = fc.constantFrom<IdMode>('generated', 'supplied', 'duplicate');

/** Sequences of operations; creates and reads weigh more: everything else needs data, differences need a read. */
export function opsArbitrary(options: OpsOptions): fc.Arbitrary<Op[]> {
  const note = (kind: 'trashNote' | 'restoreNote' | 'deleteNote' | 'readNote') =>
    index.map((n): Op => ({ kind, note: n }));
  const coll = (kind: 'deleteCollection' | 'readCollection' | 'listCollection') =>
    index.map((c): Op => ({ kind, coll: c }));
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
  const weighted: Array<fc.WeightedArbitrary<Op>> = [
    { weight: 5, arbitrary: createNote(idMode) },
    { weight: 2, arbitrary: createCollection(idMode) },
    // 'stale' twice: it runs as a current update until the note has an older version to send.
    {
      weight: 5,
      arbitrary: fc
        .record({
          note: index,
          version: fc.constantFrom<VersionKind>('current', 'current', 'stale', 'stale', 'ahead'),
          ahead: fc.integer({ min: 1, max: 5 }),
          word,
          stamp: fc.boolean(),
        })
        .map((r): Op => ({ kind: 'updateNote', ...r })),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({
          note: index,
          when: fc.constantFrom(...BACKDATES),
          days: fc.integer({ min: 1, max: 400 }),
        })
        .map((r): Op => ({ kind: 'setCreatedAt', ...r })),
    },
    { weight: 2, arbitrary: note('trashNote') },
    { weight: 1, arbitrary: note('deleteNote') },
    { weight: 5, arbitrary: note('readNote') },
    { weight: 1, arbitrary: coll('deleteCollection') },
    { weight: 3, arbitrary: coll('readCollection') },
    { weight: 4, arbitrary: fc.tuple(index, index).map(([n, c]): Op => ({ kind: 'addNote', note: n, coll: c })) },
    {
      weight: 4,
      arbitrary: fc.tuple(index, index, index).map(([n, a, b]): Op => ({ kind: 'moveNote', note: n, from: a, to: b })),
    },
  ];
  if (options.listByCollection) weighted.push({ weight: 3, arbitrary: coll('listCollection') });
  if (options.restore) weighted.push({ weight: 2, arbitrary: note('restoreNote') });
  if (options.remove)
    weighted.push({
      weight: 2,
      arbitrary: fc.tuple(index, index).map(([n, c]): Op => ({ kind: 'removeNote', note: n, coll: c })),
    });
  // A collection and a few creates first, so that the other operations have data to act on.
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
