import { randomUUID } from 'node:crypto';
import { CONTAINS_KINDS, type ContainsKind } from '../../../spec/profile.js';
import { isCreateCapReached } from '../../../spec/verdicts.js';
import type { Api } from '../api.js';
import type { GrantLevel } from '../fixtures-client.js';
import { unsentEdges } from '../sequences/edges.js';
import type { Op } from '../sequences/ops.js';
import { currentVersion, iso, type Runner } from '../sequences/runner.js';
import { runStep } from '../sequences/steps.js';
import type { Coverage } from './coverage.js';
import { collectionAfter, noteAfter } from './features.js';
import {
  afterWriteId,
  boundsId,
  type Features,
  inputsId,
  type Kind,
  loadSpace,
  pagingId,
  repeatId,
  type Target,
} from './space.js';
import { keptToLevel, type Move, markTried, nextMove } from './walk-plan.js';

/**
 * The explorer: sends what reaches the behaviour targets the run has not visited yet, on purpose
 * rather than by chance. Walks take one note (or one collection) through the states of
 * spec/behaviour-space.yaml, each step the operation whose request visits the most uncovered
 * targets in the state the resource is in (a breadth-first search over the features finds the way
 * to a state that still has some), reading each view that shows the resource after each write;
 * short plans cover the inputs that interact, the paging boundaries and the repeats. Everything
 * goes through the executors of kit/core/sequences and the API layer, so the run's oracle judges
 * every answer and marks what it visited (coverage.ts); the explorer judges nothing.
 */

export interface ExplorerDeps {
  /** A runner whose sequence made nothing yet (each walk and plan has its own). */
  fresh(): Runner;
  /** The coverage of the answers seen so far (the oracle's). */
  readonly coverage: Coverage;
  /** The targets the explorer may aim at: those whose needs the profile meets. */
  readonly targets: readonly Target[];
  /** Whether the profile lets the explorer send this operation (its endpoint may be one the document does not show). */
  sendable(op: string): boolean;
  /** How many requests it may send. */
  readonly budget: number;
  /** Requests answered so far (to keep to the budget). */
  answered(): number;
  /**
   * Tells the rest of the run what this explorer has sent so far, and answers what the rest did:
   * the targets other check workers visited in the files they finished and other explorers of
   * the run visited so far (the explorer leaves them), and the requests those explorers sent (the
   * budget is the run's). Asked before each unit and each walk.
   */
  elsewhere?(sent: number): { readonly covered: ReadonlySet<string>; readonly requests: number };
  /**
   * Takes one unit of the exploration (a plan, the walks kept to one level, a sweep), or answers
   * false when another explorer of the run took it: two workers explore side by side, each unit once.
   */
  claim?(unit: string): boolean;
  /**
   * Called when the oracle found a rule broken by a step: the walk's operations so far, its steps,
   * and the oracle's failure count before that step.
   */
  onFailure?(ops: readonly Op[], steps: readonly string[], since: number): Promise<void>;
  /** The second token user's API (none: no second token), whose data the first must never see. */
  readonly stranger?: Api;
  /** Adds a PDF attachment to a note through the fixture API: its id (only where the fixture API adds attachments). */
  attach?(noteId: string): Promise<string | undefined>;
  /** A new fixture user whose account may hold `limit` notes (only where the fixture API sets quotas). */
  quotaUser?(limit: number): Promise<Api>;
  /** A new fixture user with a bucket of three requests (only where the fixture API sets rate limits). */
  limited?(): Promise<Api>;
  /** A new fixture user, to be granted levels (only where the profile declares a fixture API with grants). */
  grantee?(): Promise<Grantee>;
}

/** A fixture user the explorer grants permission levels to, with its own API. */
export interface Grantee {
  readonly api: Api;
  grant(resource: 'note' | 'collection', id: string, level: GrantLevel): Promise<void>;
}

export interface ExploreResult {
  readonly walks: number;
  readonly requests: number;
  /** Whether the budget ended the exploration before every reachable target was tried. */
  readonly budgetSpent: boolean;
}

type NewNote = Omit<Extract<Op, { kind: 'createNote' }>, 'kind'>;
type NewCollection = Omit<Extract<Op, { kind: 'createCollection' }>, 'kind'>;

/** Each contains filter alone, then two together. */
const CONTAINS_SENT: ReadonlyArray<readonly ContainsKind[]> = [
  ...CONTAINS_KINDS.map((k) => [k]),
  ['open_tasks', 'images'],
  ['images', 'files'],
];

/** A plain create of a note of `word`, in no collection, unless `extra` says otherwise. */
const newNote = (word: string, extra: Partial<NewNote> = {}): Op => ({
  kind: 'createNote',
  id: 'generated',
  dup: 0,
  word,
  heading: false,
  stamps: 'none',
  zoned: false,
  into: null,
  ...extra,
});

/** A plain create of a collection titled after `word`. */
const newCollection = (word: string, extra: Partial<NewCollection> = {}): Op => ({
  kind: 'createCollection',
  id: 'generated',
  dup: 0,
  word,
  stamps: 'none',
  described: false,
  ...extra,
});

/** The views as moves: they change nothing, and each shows the walk's resource in its state. */
function viewMoves(kind: Kind): Move[] {
  return loadSpace().views[kind].shown_by.flatMap((view) => {
    const v = viewOp(kind, view);
    const shows = (f: Features) => (f.lifecycle === 'deleted' ? undefined : f);
    return v && !loadSpace().operations[kind].includes(view)
      ? [{ op: view, make: () => v.op, model: shows, ...(v.companion ? { companion: true } : {}) }]
      : [];
  });
}

const editable = (f: Features) => f.lifecycle === 'active' || f.lifecycle === 'restored';
const stay = (f: Features) => f;

/** The note operations a walk can send, with where each leads (features.ts). */
function noteMoves(word: (k: number) => string): Move[] {
  const links = (f: Features) => (f.collections === 'none' ? 0 : f.collections === 'one' ? 1 : 2);
  return [
    { op: 'getNote', make: () => ({ kind: 'readNote', note: 0, any: true }), model: stay },
    { op: 'getRelatedNotes', make: () => ({ kind: 'relatedNotes', note: 0, any: true }), model: stay },
    {
      op: 'updateNote',
      make: (k) => ({
        kind: 'updateNote',
        note: 0,
        version: 'current',
        ahead: 1,
        word: word(k),
        stamp: false,
        any: true,
      }),
      model: (f) => (editable(f) ? noteAfter(f, 'updateNote') : f),
    },
    {
      op: 'setNoteCreatedAt',
      make: (k) => ({ kind: 'setCreatedAt', note: 0, when: 'earlier', days: 10 + 10 * k, any: true }),
      model: (f) => (editable(f) ? noteAfter(f, 'setNoteCreatedAt') : f),
    },
    {
      op: 'trashNote',
      make: () => ({ kind: 'trashNote', note: 0, any: true }),
      model: (f) => (f.lifecycle === 'deleted' ? f : noteAfter(f, 'trashNote')),
    },
    {
      op: 'restoreNote',
      make: () => ({ kind: 'restoreNote', note: 0, any: true }),
      model: (f) => noteAfter(f, 'restoreNote'),
    },
    {
      op: 'addNoteToCollection',
      make: () => ({ kind: 'addNote', note: 0, coll: 0, any: true }),
      // In several collections the walk's third may still be free (the executor finds out); a
      // trashed or deleted note is sent any collection.
      model: (f) => (editable(f) ? noteAfter(f, 'add', links(f) + 1) : f),
    },
    {
      op: 'moveNote',
      make: () => ({ kind: 'moveNote', note: 0, from: 0, to: 0, any: true }),
      model: (f) => (links(f) < 1 ? undefined : editable(f) ? noteAfter(f, 'moveNote') : f),
    },
    {
      op: 'removeNoteFromCollection',
      make: () => ({ kind: 'removeNote', note: 0, coll: 0, any: true }),
      model: (f) => (links(f) >= 1 ? (editable(f) ? noteAfter(f, 'remove', links(f) - 1) : f) : undefined),
    },
    {
      op: 'deleteNote',
      make: () => ({ kind: 'deleteNote', note: 0, any: true }),
      model: (f) => noteAfter(f, 'deleteNote'),
    },
  ];
}

function collectionMoves(word: (k: number) => string): Move[] {
  return [
    { op: 'getCollection', make: () => ({ kind: 'readCollection', coll: 0, any: true }), model: stay },
    {
      op: 'updateCollection',
      make: (k) => ({ kind: 'updateCollection', coll: 0, word: word(k), any: true }),
      model: (f) => (f.lifecycle === 'live' ? collectionAfter(f, 'updateCollection', { retitled: true }) : f),
    },
    {
      op: 'addNoteToCollection',
      make: () => ({ kind: 'addNote', note: 0, coll: 0, any: true }),
      model: (f) =>
        f.lifecycle !== 'live' ? f : f.notes === 'empty' ? collectionAfter(f, 'add', { holding: true }) : undefined,
    },
    {
      op: 'createNote',
      make: (k) => newNote(word(k), { titled: 0 }),
      model: (f) => (f.lifecycle === 'live' ? collectionAfter(f, 'createNote', { holding: true }) : f),
    },
    {
      op: 'deleteCollection',
      make: () => ({ kind: 'deleteCollection', coll: 0, any: true }),
      model: (f) => collectionAfter(f, 'deleteCollection'),
    },
  ];
}

/** What a view-after-write read sends: the executor's operation, on the walk's runner or the companion's. */
/**
 * A search kept to a collection goes after the same search unfiltered: that a word matches a note
 * is the target's own, so the filtered page is judged on the notes the unfiltered one found.
 */
function withBasis(op: Op): Op[] {
  return op.kind === 'searchNotes' && op.coll !== undefined ? [{ ...op, coll: undefined }, op] : [op];
}

function viewOp(kind: Kind, view: string): { op: Op; companion?: boolean } | undefined {
  if (kind === 'note') {
    if (view === 'getNote') return { op: { kind: 'readNote', note: 0, any: true } };
    if (view === 'listNotes')
      return { op: { kind: 'listNotes', pageSize: 5, order: 'default', filter: 'updated-after-run', coll: 0 } };
    if (view === 'searchNotes')
      return { op: { kind: 'searchNotes', note: 0, bound: 'none', pageSize: 5, common: false } };
    // Kept to the walk's first collection: what it holds after a membership change.
    if (view === 'listNotes?collection')
      return { op: { kind: 'listNotes', pageSize: 5, order: 'default', filter: 'collection', coll: 0 } };
    if (view === 'searchNotes?collections')
      return { op: { kind: 'searchNotes', note: 0, bound: 'none', pageSize: 5, common: false, coll: 0 } };
    if (view === 'getRelatedNotes') return { op: { kind: 'relatedNotes', note: 0 }, companion: true };
    return undefined;
  }
  if (view === 'getCollection') return { op: { kind: 'readCollection', coll: 0 } };
  if (view === 'listCollections')
    return { op: { kind: 'listCollections', pageSize: 5, order: 'default', filter: 'updated-after-run' } };
  if (view === 'searchCollections') return { op: { kind: 'searchCollections', coll: 0, before: false } };
  if (view === 'getRelatedNotes') return { op: { kind: 'relatedNotes', note: 0 }, companion: true };
  return undefined;
}

const LIST_BOUNDS = ['created-after-run', 'created-before-run', 'updated-after-run', 'updated-before-run'] as const;
const BOUND_NAMES = ['created_after', 'created_before', 'updated_after', 'updated_before'];

/** Short plans for the targets no walk visits: interacting inputs, paging boundaries, repeats. */
function plans(word: (k: number) => string): Array<{ covers: readonly string[]; ops: (k: number) => Op[] }> {
  let made = 0;
  const coll = (described = false): Op => newCollection(word(++made), { described });
  const note = (extra: Partial<NewNote> = {}, k = 0): Op => newNote(word(k), extra);
  const list = (pageSize: number, extra: Partial<Extract<Op, { kind: 'listNotes' }>> = {}): Op => ({
    kind: 'listNotes',
    pageSize,
    order: 'default',
    filter: 'collection',
    coll: 0,
    ...extra,
  });
  const search = (extra: Partial<Extract<Op, { kind: 'searchNotes' }>> = {}): Op => ({
    kind: 'searchNotes',
    note: 0,
    bound: 'none',
    pageSize: 2,
    common: false,
    ...extra,
  });
  const read: Op = { kind: 'readNote', note: 0, any: true };
  return [
    {
      covers: [
        inputsId('createNote', 'collection_ids', 'collection_titles'),
        inputsId('createNote', 'collection_ids', 'collection_titles', 'same'),
        inputsId('createNote', 'id', 'collection_ids'),
      ],
      ops: () => [
        coll(),
        coll(),
        note({ into: 0, titled: 0 }),
        read,
        note({ id: 'supplied', into: 0, titled: 1 }, 1),
        { kind: 'readNote', note: 1 },
      ],
    },
    {
      covers: [inputsId('createNote', 'created_at', 'updated_at'), inputsId('createNote', 'id', 'created_at')],
      ops: () => [note({ stamps: 'both' }), read, note({ id: 'supplied', stamps: 'created', zoned: true }, 1)],
    },
    {
      covers: [
        inputsId('createCollection', 'created_at', 'updated_at'),
        inputsId('createCollection', 'id', 'description'),
      ],
      ops: () => [
        newCollection(word(0), { stamps: 'both' }),
        newCollection(word(1), { id: 'supplied', described: true }),
        { kind: 'readCollection', coll: 0 },
        { kind: 'readCollection', coll: 1 },
      ],
    },
    {
      covers: [inputsId('updateNote', 'content', 'updated_at'), repeatId('updateNote')],
      ops: (k) => [
        note(),
        { kind: 'updateNote', note: 0, version: 'current', ahead: 1, word: word(k), stamp: true },
        { kind: 'updateNote', note: 0, version: 'current', ahead: 1, word: word(k), stamp: false },
        read,
      ],
    },
    {
      covers: [
        inputsId('searchNotes', 'collections', 'created_before'),
        inputsId('searchNotes', 'collections', 'updated_after'),
        pagingId('searchNotes', 'exact-last'),
        pagingId('searchNotes', 'empty'),
      ],
      ops: () => [
        coll(),
        note({ into: 0 }),
        search({ coll: 0, bound: 'created-before-run' }),
        search({ coll: 0, bound: 'updated-after-run' }),
        search({ pageSize: 1 }),
        search({ absent: true }),
      ],
    },
    {
      // A note of a collection deleted; related notes of a third show the other note of it, summarised.
      covers: [afterWriteId('collection', 'deleteNote', 'getRelatedNotes')],
      ops: () => [
        coll(),
        note({ into: 0 }),
        note({ into: 0 }),
        note(),
        { kind: 'deleteNote', note: 0 },
        { kind: 'relatedNotes', note: 1 },
      ],
    },
    {
      // Three notes of one word, two a page: the snapshot's second page is its last.
      covers: [pagingId('searchNotes', 'snapshot-end')],
      ops: () => [note(), note(), note(), search()],
    },
    {
      // A note and a collection whose created_at is past and updated_at now: every bound at the run's
      // start lies between their two times.
      covers: BOUND_NAMES.flatMap((b) => [boundsId('listNotes', b), boundsId('listCollections', b)]),
      ops: () => [
        newCollection(word(++made), { stamps: 'created' }),
        { kind: 'updateCollection', coll: 0, word: word(made) },
        note({ stamps: 'created' }),
        ...LIST_BOUNDS.map((filter): Op => ({ kind: 'listNotes', pageSize: 5, order: 'default', filter, coll: 0 })),
        ...LIST_BOUNDS.map((filter): Op => ({ kind: 'listCollections', pageSize: 5, order: 'default', filter })),
      ],
    },
    {
      covers: [
        pagingId('searchNotes', 'first'),
        pagingId('searchNotes', 'later'),
        pagingId('searchNotes', 'filtered-later'),
      ],
      ops: () => [note(), note({}, 1), note({}, 2), search({ common: true, bound: 'updated-after-run', pageSize: 1 })],
    },
    {
      covers: [
        inputsId('listNotes', 'collection', 'order_by'),
        inputsId('listNotes', 'collection', 'cursor'),
        pagingId('listNotes', 'first'),
        pagingId('listNotes', 'later'),
        pagingId('listNotes', 'exact-last'),
        pagingId('listNotes', 'collection-later'),
        pagingId('listNotes', 'empty'),
      ],
      ops: () => [
        coll(),
        coll(),
        note({ into: 0 }),
        note({ into: 0 }, 1),
        list(1),
        list(2),
        list(5, { order: 'created_at' }),
        list(2, { coll: 1 }),
      ],
    },
    {
      // A note of each contains kind and a plain one, then lists and searches with filters true:
      // several "combined with OR", and an unfiltered search first (what a word matches is the target's).
      covers: [
        inputsId('listNotes', 'open_tasks', 'images'),
        inputsId('listNotes', 'images', 'files'),
        inputsId('searchNotes', 'open_tasks', 'images'),
        inputsId('searchNotes', 'images', 'files'),
      ],
      ops: () => [
        note({ marker: 'open_task' }),
        note({ marker: 'done_task' }),
        note({ marker: 'image' }),
        note({ marker: 'file' }),
        note(),
        ...CONTAINS_SENT.map((contains) => list(10, { filter: 'created-after-run', contains })),
        search({ pageSize: 20 }),
        ...CONTAINS_SENT.map((contains) => search({ pageSize: 20, contains })),
      ],
    },
    {
      covers: [inputsId('listNotes', 'created_after', 'cursor')],
      ops: () => [note(), note({}, 1), list(1, { filter: 'created-after-run' })],
    },
    {
      covers: [
        pagingId('listCollections', 'first'),
        pagingId('listCollections', 'later'),
        pagingId('listCollections', 'exact-last'),
      ],
      ops: () => [
        coll(),
        coll(),
        { kind: 'listCollections', pageSize: 1, order: 'default', filter: 'created-after-run' },
        { kind: 'listCollections', pageSize: 1, order: 'default', filter: 'created-after-run', exact: true },
      ],
    },
    {
      // A collection left by one of its notes, shown in the summary of another note it still holds.
      covers: [afterWriteId('collection', 'removeNoteFromCollection', 'getRelatedNotes')],
      ops: () => [
        coll(),
        note({ into: 0 }),
        note({ into: 0 }),
        note(),
        { kind: 'removeNote', note: 0, coll: 0 },
        { kind: 'relatedNotes', note: 2 },
      ],
    },
    {
      covers: [repeatId('addNoteToCollection'), repeatId('trashNote'), repeatId('deleteNote')],
      ops: () => [
        coll(),
        note(),
        { kind: 'addNote', note: 0, coll: 0 },
        { kind: 'addNote', note: 0, coll: 0, again: true },
        { kind: 'trashNote', note: 0 },
        { kind: 'trashNote', note: 0, any: true },
        { kind: 'deleteNote', note: 0 },
        { kind: 'deleteNote', note: 0, any: true },
      ],
    },
    {
      // Created with a past updated_at, then a PATCH with the title it has: updated_at must still move.
      covers: [repeatId('updateCollection'), repeatId('deleteCollection')],
      ops: () => [
        newCollection(word(9), { stamps: 'both', described: true }),
        { kind: 'updateCollection', coll: 0, word: word(9), same: true },
        { kind: 'readCollection', coll: 0 },
        { kind: 'deleteCollection', coll: 0 },
        { kind: 'deleteCollection', coll: 0, any: true },
      ],
    },
    {
      covers: [repeatId('setNoteCreatedAt')],
      ops: () => [
        note(),
        { kind: 'setCreatedAt', note: 0, when: 'equal', days: 1 },
        { kind: 'setCreatedAt', note: 0, when: 'equal', days: 1 },
        // Past the original creation: "can only backdate".
        { kind: 'setCreatedAt', note: 0, when: 'later', days: 1 },
      ],
    },
  ];
}

/** Explores until every reachable target was tried or the budget is spent. */
export async function explore(d: ExplorerDeps): Promise<ExploreResult> {
  const start = d.answered();
  const aimed = new Set(d.targets.map((t) => t.id));
  const weight = new Map(d.targets.map((t) => [t.id, t.weight]));
  let elsewhere: { readonly covered: ReadonlySet<string>; readonly requests: number } = {
    covered: new Set(),
    requests: 0,
  };
  const look = () => {
    elsewhere = d.elsewhere?.(d.answered() - start) ?? elsewhere;
  };
  const open = (id: string) => aimed.has(id) && !d.coverage.covered.has(id) && !elsewhere.covered.has(id);
  let capped = false;
  const left = () => d.budget - (d.answered() - start) - elsewhere.requests;
  const spent = () => capped || left() <= 0;
  /** Whether this explorer does the unit: after a look at the rest of the run, the first to claim it. */
  const take = (unit: string) => {
    look();
    return !spent() && (d.claim?.(unit) ?? true);
  };
  const space = loadSpace();
  let words = 0;
  // Words of letters only, the run's own: a search for one finds exactly the notes that hold it.
  const letters = (text: string) => text.toLowerCase().replace(/[^a-z]/g, (c) => 'abcdefghij'[Number(c)] ?? 'x');
  const base = letters(d.fresh().word()).slice(0, 12);
  const word = (k: number) => `${base}${letters(String(words))}${String.fromCharCode(97 + (k % 26))}`;
  let walks = 0;

  /** Runs ops on a runner, reporting a failure the oracle found meanwhile. */
  const run = async (runner: Runner, ops: Op[], sent: Op[]): Promise<boolean> => {
    for (const op of ops) {
      if (spent()) return false;
      const before = runner.failures();
      let did: boolean;
      try {
        did = await runStep(runner, op);
      } catch (error) {
        // The run's cap on creates is reached: the explorer has sent what it could.
        if (isCreateCapReached(error)) {
          capped = true;
          return false;
        }
        throw error;
      }
      if (did) sent.push(op);
      if (runner.failures() > before) await d.onFailure?.(sent, runner.steps, before);
      if (!did) return false;
    }
    return true;
  };

  // Plans first, heaviest gain per request first: they are short and each covers several targets.
  look();
  const planned = plans(word)
    .map((p, index) => ({
      ...p,
      index,
      gain: p.covers.filter(open).reduce((s, id) => s + 1 + (weight.get(id) ?? 0) / 100, 0),
    }))
    .filter((p) => p.gain > 0)
    .sort((a, b) => b.gain / b.ops(0).length - a.gain / a.ops(0).length);
  for (const p of planned) {
    if (spent()) break;
    if (!p.covers.some(open) || !take(`plan-${p.index}`)) continue;
    words++;
    walks++;
    await run(d.fresh(), p.ops(0), []);
  }

  // Note walks kept to each level in turn, then free ones: the later lifecycles are visited with
  // every value of every feature (walk-plan.ts keptToLevel), not only with those the walk climbed to.
  const levels = { note: [0, 1, 2, undefined], collection: [undefined] } as const;
  for (const kind of ['note', 'collection'] as const)
    for (const level of levels[kind]) {
      if (![...aimed].some(open) || !take(`walk-${kind}-${level ?? 'free'}`)) continue;
      for (let stuck = 0; stuck < (level === undefined ? 2 : 1) && !spent(); ) {
        look();
        if (![...aimed].some(open)) break;
        words++;
        walks++;
        const progressed = await walk(kind, level);
        stuck = progressed ? 0 : stuck + 1;
      }
    }
  const sweeps = { edgeSweep, grantSweep, strangerSweep, limitSweep, quotaSweep, attachmentSweep };
  for (const [unit, sweep] of Object.entries(sweeps)) if (take(unit)) await sweep();
  return { walks, requests: d.answered() - start, budgetSpent: spent() };

  /**
   * Every kind of edge request (kit/core/sequences/edges.ts: a field at, past or outside its
   * documented bound, a missing or mistyped one) the run has not sent yet, once each, on a note, a
   * linked note, a collection and a deleted one of each: the inputs no walk varies.
   */
  async function edgeSweep(): Promise<void> {
    if (spent()) return;
    const runner = d.fresh();
    words++;
    const made = [
      newCollection(word(0)),
      newCollection(word(1)),
      newNote(word(0), { into: 0 }),
      newNote(word(1)),
      newNote(word(2)),
      { kind: 'deleteNote', note: 2 } as Op,
      { kind: 'deleteCollection', coll: 1 } as Op,
    ];
    if (!(await run(runner, made, []))) return;
    for (let left = unsentEdges(runner); left.length > 0 && !spent(); ) {
      await run(runner, [{ kind: 'edgeInput', which: left[0]!, index: 0 }], []);
      const now = unsentEdges(runner);
      if (now.length >= left.length) break;
      left = now;
    }
  }

  /**
   * Each permission level, granted to a fixture user on a note and on a collection of the run's
   * user, and each operation the document names for a level tried by the grantee at the level
   * below it and at its own (kit/core/behaviour/grants.ts predicts them); the owner reads both
   * after. About 30 requests, sent only where the budget leaves room for them all.
   */
  async function grantSweep(): Promise<void> {
    if (!d.grantee || left() < 32) return;
    const runner = d.fresh();
    words++;
    walks++;
    if (!(await run(runner, [newNote(word(0)), newCollection(word(1))], []))) return;
    const [noteId, collId] = [runner.mine.notes[0]!, runner.mine.collections[0]!];
    const note = () => runner.world.notes.get(noteId);
    const content = (k: number) => ({ content: runner.content(`Granted ${word(k)}`) });
    const version = () => ({ version: currentVersion(note()!) });
    try {
      const g = await d.grantee();
      await g.grant('note', noteId, 'access');
      await g.api.getNote(noteId);
      await g.api.listNotes({ limit: 100 });
      await g.api.updateNote(noteId, { ...content(2), ...version() });
      await g.api.trashNote(noteId);
      await g.api.deleteNote(noteId);
      await runner.api.getNote(noteId);
      await g.grant('note', noteId, 'edit');
      await g.api.setCreatedAt(noteId, { created_at: iso(runner.stamp()) });
      await g.api.updateNote(noteId, { ...content(3), ...version() });
      await g.grant('note', noteId, 'own');
      await g.api.setCreatedAt(noteId, { created_at: iso(runner.stamp()) });
      await runner.api.getNote(noteId);
      await g.grant('note', noteId, 'edit');
      await g.api.deleteNote(noteId);
      const theirs = await g.api.createNote(content(4));
      const theirColl = await g.api.createCollection({ title: `Theirs ${word(5)}` });
      const idOf = (x: { json?: unknown }) => (x.json as { id?: unknown } | undefined)?.id;
      const [theirId, theirCollId] = [idOf(theirs), idOf(theirColl)];
      if (typeof theirId !== 'string' || typeof theirCollId !== 'string') return;
      await g.api.addToCollection(theirCollId, theirId);
      await g.grant('collection', collId, 'access');
      await g.api.getCollection(collId);
      await g.api.updateCollection(collId, { title: `Renamed ${word(6)}` });
      await g.api.deleteCollection(collId);
      await g.api.moveNote(theirCollId, theirId, { target_collection_id: collId });
      await g.api.addToCollection(collId, theirId);
      await g.grant('collection', collId, 'contribute');
      await g.api.addToCollection(collId, theirId);
      await g.grant('collection', collId, 'edit');
      await g.api.updateCollection(collId, { title: `Renamed ${word(7)}` });
      await runner.api.getCollection(collId);
    } catch (error) {
      if (isCreateCapReached(error)) capped = true;
      else throw error;
    }
  }

  /**
   * A note and a collection of the second token user under the same words as the run's user's:
   * each user's related notes, search and collection search, and the first user's list, read
   * after (the oracle judges every item's owner, kit/core/oracle/note-pages.ts and
   * collection-pages.ts); then the other user asks for the first's note and collection by id
   * (each must be refused) and the first reads them. Only with a second token; 19 requests.
   */
  async function strangerSweep(): Promise<void> {
    const other = d.stranger;
    if (!other || left() < 19) return;
    const runner = d.fresh();
    words++;
    walks++;
    const w = word(0);
    if (!(await run(runner, [newNote(w), newCollection(w)], []))) return;
    const mineId = runner.mine.notes[0]!;
    const mine = () => runner.world.notes.get(mineId);
    try {
      const theirs = await other.createNote({ content: runner.content(`Model ${w}`, `body ${w}`) });
      await other.createCollection({ title: `Model collection ${w}` });
      const theirId = (theirs.json as { id?: unknown } | undefined)?.id;
      const query = runner.declares('names.collections_search.query') ? w : undefined;
      for (const [api, id] of [
        [runner.api, mineId],
        [other, theirId],
      ] as const) {
        if (typeof id === 'string') await api.relatedNotes(id, { limit: 20 });
        await api.searchNotes({ limit: 20 }, { query: w });
        await api.searchCollections({ query });
      }
      await runner.api.listNotes({ limit: 20 });
      // The other user asks for the run's user's note and collection by id: each refused, nothing changed.
      const mineColl = runner.mine.collections[0]!;
      await other.getNote(mineId);
      await other.updateNote(mineId, { content: runner.content(`Stranger ${w}`), version: currentVersion(mine()!) });
      await other.deleteNote(mineId);
      await other.relatedNotes(mineId, { limit: 5 });
      await other.getCollection(mineColl);
      await other.updateCollection(mineColl, { title: `Stranger ${w}` });
      await other.deleteCollection(mineColl);
      await runner.api.getNote(mineId);
      await runner.api.getCollection(mineColl);
    } catch (error) {
      if (isCreateCapReached(error)) capped = true;
      else throw error;
    }
  }

  /**
   * Quick reads by a fixture user whose bucket holds three, until one is refused: the oracle
   * judges the exhausted bucket's answer (kit/core/oracle/headers.ts). At most 8 requests.
   */
  async function limitSweep(): Promise<void> {
    if (!d.limited || left() < 8) return;
    const api = await d.limited();
    walks++;
    for (let i = 0; i < 8; i++) {
      if ((await api.quickRead()).status >= 400) break;
    }
  }

  /**
   * A fixture user with a quota of two notes: one create, two set-created-at calls, the second
   * create (left possible), a third under a fresh id (past the quota) and a read of that id
   * (kit/core/behaviour/quota.ts predicts each). 6 requests.
   */
  async function quotaSweep(): Promise<void> {
    if (!d.quotaUser || left() < 6) return;
    const runner = d.fresh();
    walks++;
    words++;
    const api = await d.quotaUser(2);
    try {
      const first = await api.createNote({ content: runner.content(`Quota ${word(0)}`) });
      const { id, created_at } = (first.json ?? {}) as { id?: unknown; created_at?: unknown };
      const at = typeof created_at === 'string' ? Date.parse(created_at) : Number.NaN;
      if (typeof id !== 'string' || Number.isNaN(at)) return;
      for (const days of [1, 2]) await api.setCreatedAt(id, { created_at: iso(at - days * 86_400_000) });
      await api.createNote({ content: runner.content(`Quota ${word(1)}`) });
      const past = randomUUID();
      await api.createNote({ id: past, content: runner.content(`Quota ${word(2)}`) });
      await api.getNote(past);
    } catch (error) {
      if (isCreateCapReached(error)) capped = true;
      else throw error;
    }
  }

  /**
   * An attachment on a note of the run: its download URL with and without a token, and where the
   * profile names the question endpoint, questions of 0, 1, 10,000 and 10,001 characters
   * (kit/core/behaviour/attachments.ts predicts each). At most 8 requests.
   */
  async function attachmentSweep(): Promise<void> {
    if (!d.attach || left() < 8) return;
    const runner = d.fresh();
    walks++;
    words++;
    if (!(await run(runner, [newNote(word(0))], []))) return;
    const id = await d.attach(runner.mine.notes[0]!);
    if (id === undefined) return;
    const path = `/v2/note-attachments/${id}/download-url`;
    // The fixture call made the run forget what it knew of the note: a read tells it again.
    await runner.api.getNote(runner.mine.notes[0]!);
    await runner.api.raw({ method: 'GET', path });
    await runner.api.raw({ method: 'GET', path, token: null });
    if (!runner.declares('endpoints.attachment_question')) return;
    for (const chars of [1, 10_000, 0, 10_001])
      await runner.api.askQuestion(id, { attachment_id: id, attachment_kind: 'pdf', question: 'q'.repeat(chars) });
  }

  /** One resource through its states; answers whether it covered anything new. */
  async function walk(kind: Kind, level?: number): Promise<boolean> {
    const before = d.coverage.covered.size;
    const runner = d.fresh();
    const companion = d.fresh();
    const sent: Op[] = [];
    const all = [...(kind === 'note' ? noteMoves(word) : collectionMoves(word)), ...viewMoves(kind)];
    const usable = all.filter((m) => d.sendable(m.op));
    const moves = level === undefined ? usable : keptToLevel(kind, usable, level);
    // A note walk has three collections to join and move between; a collection walk a note to hold.
    const describedOpen = [...aimed].some(
      (id) => open(id) && id.includes(':collection:') && id.endsWith('description=set'),
    );
    const setup: Op[] =
      kind === 'note'
        ? [...[0, 1, 2].map((i) => newCollection(word(i), { described: i === 0 })), newNote(word(0))]
        : [newCollection(word(0), { described: describedOpen }), newNote(word(0))];
    const made = kind === 'note' ? 'createNote' : 'createCollection';
    if (!(await run(runner, setup, sent))) return false;
    // A note whose words match the walk's, in a runner of its own: related notes of it show the walk's note.
    await run(companion, [newNote(word(0))], []);
    await views(kind, made, runner, companion, sent);
    const id = () => (kind === 'note' ? runner.mine.notes[0] : runner.mine.collections[0]);
    const tried = new Set<string>();
    for (let steps = 0; steps < 60 && !spent(); steps++) {
      const rid = id();
      const f = rid === undefined ? undefined : kind === 'note' ? d.coverage.note(rid) : d.coverage.collection(rid);
      if (!f) break;
      const move = nextMove(kind, f, moves, tried, open);
      if (!move) break;
      markTried(tried, move, f);
      if (!(await run(move.companion ? companion : runner, withBasis(move.make(steps)), move.companion ? [] : sent)))
        continue;
      await views(kind, move.op, runner, companion, sent);
    }
    return d.coverage.covered.size > before;
  }

  /** Reads each view that shows the resource and has not been read after this kind of write. */
  async function views(kind: Kind, write: string, runner: Runner, companion: Runner, sent: Op[]): Promise<void> {
    for (const kindShown of kind === 'note' ? (['note', 'collection'] as const) : (['collection'] as const)) {
      if (!space.views[kindShown].writes.includes(write)) continue;
      for (const view of space.views[kindShown].shown_by) {
        if (!open(afterWriteId(kindShown, write, view))) continue;
        const v = viewOp(kindShown, view);
        if (v) await run(v.companion ? companion : runner, withBasis(v.op), v.companion ? [] : sent);
      }
    }
  }
}
