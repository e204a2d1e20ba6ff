import fc from 'fast-check';
import { type Backdate, type IdMode, opWord, type Stamps, type VersionKind } from '../../kit/core/model-operations.js';
import type { CheckContext } from '../harness/check.js';
import { checks, KitError, RuleViolation } from '../harness/index.js';
import { DeleteCollection, UpdateCollection } from './commands/collection-writes.js';
import { CreateCollection } from './commands/create-collection.js';
import { CreateNote } from './commands/create-note.js';
import { EDGE_INPUT_KINDS, SendEdgeInput } from './commands/edge-input.js';
import { DeleteNote, RestoreNote, TrashNote } from './commands/lifecycle.js';
import { AddNote, MoveNote, RemoveNote } from './commands/membership.js';
import { ReadCollection, ReadNote } from './commands/observe.js';
import {
  ListCollections,
  type ListFilter,
  ListNotes,
  type ListOrder,
  RelatedNotes,
  type RunBound,
  SearchCollections,
  SearchNotes,
} from './commands/queries.js';
import { SetCreatedAt } from './commands/set-created-at.js';
import { UpdateNote } from './commands/update-note.js';
import { emptyModel, type Model } from './model.js';
import type { Real } from './real.js';

const { check } = checks();

const CORE_RULES = [
  'notes.create.id-conflict-409',
  'notes.create.id-honoured',
  'notes.create.content-stored',
  'collections.create.id-conflict-409',
  'notes.update.version-stale-refused',
  'notes.update.version-ahead-refused',
  'notes.update.version-changes',
  'notes.update.content-replaced',
  'notes.update.trashed-refused',
  'notes.set-created-at.applied',
  'notes.set-created-at.backdate-only',
  'notes.set-created-at.not-future',
  'notes.set-created-at.trashed-refused',
  'notes.set-created-at.original-creation-bound',
  'notes.set-created-at.version-unchanged',
  'notes.trash.readable-by-id',
  'notes.delete.permanent',
  'membership.add.links',
  'membership.move.moves',
  'membership.collection-ids.current',
  'collections.read.note-count',
  'collections.delete.permanent',
  'notes.search.response-fields',
  'notes.related.response-fields',
  'notes.list.response-fields',
] as const;

type Command = fc.AsyncCommand<Model, Real>;

/**
 * Operations of the shared model (operations.ts) as commands. The model runs plain creates (no
 * supplied timestamps, headings or collection on create; the differential run covers those), and
 * renames and deletes collections, searches, lists and asks for related notes: views whose items
 * the model cannot predict one by one, but the run's oracle judges against everything it knows.
 * Among them it sends what the document refuses and what stands exactly on its limits, so that the
 * oracle judges refusals and boundaries without the checks written for each.
 */
function commands(withRestoreAndRemove: boolean): Array<fc.Arbitrary<Command>> {
  const index = fc.nat({ max: 50 });
  const word = opWord;
  const order = fc.constantFrom<ListOrder>('default', 'created_at', 'updated_at');
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
    fc.tuple(fc.boolean(), index, word).map(
      ([d, dup, w]) =>
        new CreateCollection({
          kind: 'createCollection',
          id: d ? 'duplicate' : 'supplied',
          dup,
          word: w,
          stamps: 'none',
        }),
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
      .tuple(
        index,
        fc.constantFrom<Backdate>('earlier', 'between', 'later', 'future'),
        fc.integer({ min: 1, max: 400 }),
      )
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
        fc.integer({ min: 1, max: 5 }),
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
      .tuple(fc.integer({ min: 1, max: 5 }), order)
      .map(([pageSize, order]) => new ListCollections({ kind: 'listCollections', pageSize, order })),
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

/** Runs the stateful property; a violation fails only the rule it breaks, with seed, path and steps to replay it. */
async function runModel(t: CheckContext, withRestoreAndRemove: boolean): Promise<void> {
  // Commands print the ids they acted on; shrinking re-runs them, so keep the steps of the last failing run.
  let failingSteps = '';
  const since = new Date(Date.now() - t.ctx.clockToleranceMs).toISOString();
  const edgeInputsSent = new Map<string, number>();
  const property = fc.asyncProperty(
    fc.commands(commands(withRestoreAndRemove), { maxCommands: t.budgets.model_max_commands, size: 'max' }),
    async (cmds) => {
      const steps: string[] = [];
      try {
        await fc.asyncModelRun(
          () => ({
            model: emptyModel(withRestoreAndRemove, withRestoreAndRemove),
            real: { t, api: t.api, steps, since, edgeInputsSent },
          }),
          cmds,
        );
      } catch (error) {
        failingSteps = steps.join(' ; ');
        throw error;
      }
    },
  );
  const details = await fc.check(property, { numRuns: t.budgets.model_runs, seed: t.ctx.seed, endOnFailure: false });
  if (!details.failed) return;
  const error = details.errorInstance;
  if (error instanceof KitError) throw error;
  const replay = `seed ${details.seed}, path ${details.counterexamplePath ?? '?'}; steps: ${failingSteps || '(none)'}`;
  // A violation fails the rule it names (the check's other rules pass); anything else is the kit's problem.
  if (error instanceof RuleViolation)
    throw error.withReplay(`model-based run; replay with --seed ${details.seed}: ${replay}`);
  throw new KitError(`the model-based run stopped on ${String(error)} (${replay})`);
}

check(
  'random sequences of creates, updates, backdates, trash, deletes and moves behave as documented (model-based)',
  {
    rules: CORE_RULES,
    generalist: true,
    timeout: 600_000,
  },
  async (t) => runModel(t, false),
);

check(
  'the same with restore and remove in the mix (model-based)',
  {
    rules: [...CORE_RULES, 'notes.restore.returns-to-active', 'membership.remove.unlinks'],
    needs: ['profile:endpoints.restore_note', 'profile:endpoints.remove_note_from_collection'],
    generalist: true,
    timeout: 600_000,
  },
  async (t) => runModel(t, true),
);
