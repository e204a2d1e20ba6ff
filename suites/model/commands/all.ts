import fc from 'fast-check';
import { BACKDATES, type IdMode, opWord, type Stamps, type VersionKind } from '../../../kit/core/model-operations.js';
import { LIMITS } from '../../../spec/limits.js';
import type { Model } from '../model.js';
import type { Real } from '../real.js';
import { DeleteCollection, UpdateCollection } from './collection-writes.js';
import { CreateCollection } from './create-collection.js';
import { CreateNote } from './create-note.js';
import { EDGE_INPUT_KINDS, SendEdgeInput } from './edge-input.js';
import { DeleteNote, RestoreNote, TrashNote } from './lifecycle.js';
import { AddNote, MoveNote, RemoveNote } from './membership.js';
import { ReadCollection, ReadNote } from './observe.js';
import {
  type CollectionListFilter,
  ListCollections,
  type ListFilter,
  ListNotes,
  type ListOrder,
  RelatedNotes,
  type RunBound,
  SearchCollections,
  SearchNotes,
} from './queries.js';
import { SetCreatedAt } from './set-created-at.js';
import { UpdateNote } from './update-note.js';

export type Command = fc.AsyncCommand<Model, Real>;

/**
 * Operations of the shared model (kit/core/model-operations.ts) as commands. Creates carry ids,
 * supplied times, a collection or a description now and then (never a heading marker: how titles
 * treat them is the profile's), and the model renames and deletes collections, searches, lists
 * and asks for related notes: views whose items
 * the model cannot predict one by one, but the run's oracle judges against everything it knows.
 * Among them it sends what the document refuses and what stands exactly on its limits, so that the
 * oracle judges refusals and boundaries without the checks written for each.
 */
export function commands(withRestoreAndRemove: boolean): Array<fc.Arbitrary<Command>> {
  const index = fc.nat({ max: 50 });
  const word = opWord;
  const order = fc.constantFrom<ListOrder>('default', 'created_at', 'updated_at');
  // A few a page, or now and then the largest page: a run's notes and collections accumulate over
  // its sequences (a check's window is its start), so later walks of 100 go past the first page.
  const pageSize = (max: number) =>
    fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 5 }) }, { weight: 1, arbitrary: fc.constant(max) });
  const plain = { heading: false, stamps: 'none', zoned: false, into: null } as const;
  const list: Array<fc.Arbitrary<Command>> = [
    fc
      .tuple(fc.constantFrom<IdMode>('generated', 'supplied', 'duplicate'), index, word)
      .map(([id, dup, w]) => new CreateNote({ kind: 'createNote', id, dup, word: w, ...plain })),
    // Creates with supplied times (Z or -05:00) or into a collection: the oracle judges the answer.
    fc
      .tuple(
        fc.constantFrom<IdMode>('generated', 'supplied'),
        word,
        fc.constantFrom<Stamps>('none', 'created', 'updated', 'both'),
        fc.boolean(),
        fc.option(index, { nil: null }),
      )
      .map(
        ([id, w, stamps, zoned, into]) =>
          new CreateNote({ kind: 'createNote', id, dup: 0, word: w, heading: false, stamps, zoned, into }),
      ),
    // Collections with a description, supplied times or both now and then: the oracle judges the answer.
    fc
      .tuple(
        fc.constantFrom<IdMode>('supplied', 'supplied', 'generated', 'duplicate'),
        index,
        word,
        fc.constantFrom<Stamps>('none', 'none', 'created', 'updated', 'both'),
        fc.boolean(),
      )
      .map(
        ([id, dup, w, stamps, described]) =>
          new CreateCollection({ kind: 'createCollection', id, dup, word: w, stamps, described }),
      ),
    fc
      .tuple(
        index,
        fc.constantFrom<VersionKind>('current', 'current', 'stale', 'ahead'),
        fc.integer({ min: 1, max: 5 }),
        word,
        fc.boolean(),
      )
      .map(
        ([note, version, ahead, w, stamp]) =>
          new UpdateNote({ kind: 'updateNote', note, version, ahead, word: w, stamp }),
      ),
    fc
      .tuple(index, fc.constantFrom(...BACKDATES), fc.integer({ min: 1, max: 400 }))
      .map(([note, when, days]) => new SetCreatedAt({ kind: 'setCreatedAt', note, when, days })),
    index.map((note) => new TrashNote({ kind: 'trashNote', note })),
    index.map((note) => new DeleteNote({ kind: 'deleteNote', note })),
    fc.tuple(index, index).map(([note, coll]) => new AddNote({ kind: 'addNote', note, coll })),
    fc.tuple(index, index, index).map(([note, from, to]) => new MoveNote({ kind: 'moveNote', note, from, to })),
    index.map((note) => new ReadNote({ kind: 'readNote', note })),
    index.map((coll) => new ReadCollection({ kind: 'readCollection', coll })),
    // Views the oracle judges against everything the run established (commands/queries.ts).
    fc
      .tuple(
        index,
        fc.constantFrom<RunBound>('none', 'none', 'created-before-run', 'updated-after-run'),
        fc.constantFrom(2, 10),
        fc.boolean(),
      )
      .map(
        ([note, bound, pageSize, common]) => new SearchNotes({ kind: 'searchNotes', note, bound, pageSize, common }),
      ),
    fc
      .tuple(index, fc.boolean())
      .map(([coll, before]) => new SearchCollections({ kind: 'searchCollections', coll, before })),
    index.map((note) => new RelatedNotes({ kind: 'relatedNotes', note })),
    fc
      .tuple(
        pageSize(LIMITS.notesListLimit.max),
        order,
        fc.constantFrom<ListFilter>(
          'created-after-run',
          'created-after-run',
          'created-before-run',
          'updated-after-run',
          'updated-before-run',
          'collection',
        ),
        index,
      )
      .map(([pageSize, order, filter, coll]) => new ListNotes({ kind: 'listNotes', pageSize, order, filter, coll })),
    fc
      .tuple(
        pageSize(LIMITS.collectionsListLimit.max),
        order,
        fc.constantFrom<CollectionListFilter>(
          'created-after-run',
          'created-after-run',
          'created-before-run',
          'updated-after-run',
          'updated-before-run',
        ),
      )
      .map(([pageSize, order, filter]) => new ListCollections({ kind: 'listCollections', pageSize, order, filter })),
    fc.tuple(index, word).map(([coll, w]) => new UpdateCollection({ kind: 'updateCollection', coll, word: w })),
    index.map((coll) => new DeleteCollection({ kind: 'deleteCollection', coll })),
  ];
  if (withRestoreAndRemove) {
    list.push(
      index.map((note) => new RestoreNote({ kind: 'restoreNote', note })),
      fc.tuple(index, index).map(([note, coll]) => new RemoveNote({ kind: 'removeNote', note, coll })),
    );
  }
  // Requests at the edges of the document, now and then (commands/edge-input.ts): the oracle judges the answers.
  const edge = fc
    .tuple(fc.constantFrom(...EDGE_INPUT_KINDS), index)
    .map(([which, i]) => new SendEdgeInput({ kind: 'edgeInput', which, index: i }));
  // Creates twice as likely: every other command needs something to act on. An edge request is one
  // command in five or so: with the fake's budgets a check sends every kind at least once.
  return [list[0]!, list[0]!, list[2]!, edge, edge, edge, edge, ...list];
}
