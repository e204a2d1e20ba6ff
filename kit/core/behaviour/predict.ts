import { isUuid } from '../../../spec/patterns.js';
import { attachmentPart } from './attachments.js';
import { grantPart } from './grants.js';
import { boundariesOf, freshId, integerOf, problemsOf } from './inputs.js';
import { predictCollectionOp } from './predict-collections.js';
import { predictNoteOp } from './predict-notes.js';
import type { Ask, Part, Prediction, Refuse } from './prediction.js';
import { quotaPart } from './quota.js';
import {
  isTokenUser,
  knownCollection,
  knownNote,
  liveCollection,
  liveNote,
  objectOf,
  type Request,
  type Tolerances,
} from './request.js';
import type { World } from './state.js';

export type { Prediction } from './prediction.js';

/**
 * What the document predicts of the request `r` in the state `world` (kit/core/behaviour/): the
 * one prediction the oracle compares every answer with. The input alone (inputs.ts), then the
 * state: what is missing, trashed, at another version, a stranger's; then each operation's own
 * promises for its answer and its effect on the state.
 */
export function predict(world: World, r: Request, tol: Tolerances): Prediction {
  // No credentials, or a token nobody issued: refused, and nothing else about the request is judged.
  if (r.noCredentials || r.unknownToken) return unauthenticated(r);
  const problems = problemsOf(r, r.endedAt, tol.clockToleranceMs);
  const ask: Ask = { world, r, problems, tol, body: objectOf(r.body) };
  const parts: Part[] = [inputPart(ask), ...stateParts(ask), grantPart(ask), quotaPart(ask), attachmentPart(ask)];
  const own = r.op === undefined ? undefined : (predictNoteOp(ask) ?? predictCollectionOp(ask));
  if (own) parts.push(own);
  return join(parts);
}

function join(parts: readonly Part[]): Prediction {
  const accepted = parts.flatMap((p) => (p.accepted ? [p.accepted] : []));
  const refused = parts.flatMap((p) => (p.refused ? [p.refused] : []));
  const kind = parts.find((p) => p.kind)?.kind;
  const hides = parts.find((p) => p.refusalHides)?.refusalHides;
  const about = parts.find((p) => p.about)?.about;
  return {
    ...(about ? { about } : {}),
    refuse: parts.flatMap((p) => p.refuse ?? []),
    accept: parts.flatMap((p) => p.accept ?? []),
    answer: parts.flatMap((p) => p.answer ?? []),
    ...(kind ? { kind } : {}),
    ...(hides ? { refusalHides: hides } : {}),
    ...(parts.some((p) => p.quotaAnswers) ? { quotaAnswers: true } : {}),
    ...(accepted.length
      ? {
          accepted: (answer, done) => {
            for (const f of accepted) f(answer, done);
          },
        }
      : {}),
    ...(refused.length
      ? {
          refused: (done, all) => {
            for (const f of refused) f(done, all);
          },
        }
      : {}),
  };
}

const EMPTY: Prediction = { refuse: [], accept: [], answer: [] };

/** A request of the API without an Authorization header, or with a bearer token no target issued. */
function unauthenticated(r: Request): Prediction {
  if (!r.path.startsWith('/v2/')) return EMPTY;
  const what = r.unknownToken ? 'a bearer token nobody issued' : 'no Authorization header';
  const rules = [r.unknownToken ? 'auth.bearer.invalid-refused' : 'auth.bearer.required'];
  // The capture operation's own statement of the same requirement.
  if (r.op === 'captureNote' && r.noCredentials) rules.push('notes.capture.bearer-required');
  return {
    ...EMPTY,
    refuse: rules.map((rule) => ({
      rule,
      what: `${what}; every endpoint requires bearer authentication`,
      input: true,
    })),
    kind: { kind: 'unauthenticated', rule: 'errors.status.unauthenticated', why: what },
  };
}

/**
 * The input's documented problems (each refused with a 4xx), or the limits it stands exactly on
 * (accepted). A body that is not JSON gets a 4xx. A create refused for its input, under a fresh id
 * of its own, makes nothing under that id.
 */
function inputPart(ask: Ask): Part {
  const { r, problems, world } = ask;
  const refuse: Refuse[] = problems.flatMap((p) => p.rules.map((rule) => ({ rule, what: p.what, input: true })));
  if (r.malformedBody && r.path.startsWith('/v2/') && r.method !== 'GET')
    refuse.push({ rule: 'errors.bad-input.no-5xx', what: 'a body that is not JSON', input: true });
  if (problems.length === 0) {
    const byOwner = r.ownToken && isTokenUser(r.actor) && r.op !== undefined;
    return {
      refuse,
      accept: byOwner ? boundariesOf(world, r, ask.tol).map((b) => ({ ...b, serverErrorFails: true })) : [],
    };
  }
  const first = problems[0]!;
  return {
    refuse,
    ...(problems.every((p) => p.validation) && onlyInputExplains(ask)
      ? { kind: { kind: 'validation' as const, rule: 'errors.status.validation', why: first.what } }
      : {}),
    refused: ({ ev }) => {
      const kind = r.op === 'createNote' ? 'note' : r.op === 'createCollection' ? 'collection' : undefined;
      const id = ask.body.id;
      if (kind && r.ownToken && freshId(world, id))
        world.refusedCreates.set(`${kind} ${id}`, { rule: first.rules[0]!, by: ev, asked: { id } });
    },
  };
}

/**
 * Whether nothing but the input can explain a refusal: the request names no resource whose state
 * might be refused first (a missing or trashed note, another version, a cursor, a snapshot), and
 * it comes from a token user with that user's own credentials.
 */
function onlyInputExplains({ world, r, body }: Ask): boolean {
  if (!r.ownToken || !isTokenUser(r.actor)) return false;
  const input = r.input ?? {};
  const own = <T extends { owner: string }>(x: T | undefined) => x !== undefined && x.owner === r.actor;
  switch (r.op) {
    case 'createNote':
    case 'createCollection':
      // A supplied id that exists, or once did, may be refused as a conflict first.
      return body.id === undefined || (typeof body.id === 'string' && !isUuid(body.id)) || freshId(world, body.id);
    case 'listNotes':
    case 'listCollections':
      return input.cursor === undefined;
    case 'searchNotes':
      return objectOf(input.query).snapshot_id === undefined;
    case 'searchCollections':
      return true;
    case 'getRelatedNotes':
      return own(liveNote(world, r.params.note_id, r));
    case 'updateNote': {
      const n = liveNote(world, r.params.note_id, r);
      if (!own(n) || n!.trashed?.value !== false) return false;
      // With an integer version it must be the current one, or the target may answer the mismatch first.
      return !Number.isInteger(body.version) || body.version === n!.version?.value;
    }
    case 'setNoteCreatedAt': {
      const n = liveNote(world, r.params.note_id, r);
      return own(n) && n!.trashed?.value === false;
    }
    case 'updateCollection':
      return own(liveCollection(world, r.params.collection_id, r));
    default:
      return false;
  }
}

/** The operations on a note its owner deleted, and the rules an acceptance breaks (a read: predict-notes.ts). */
const ON_DELETED_NOTE: Readonly<Record<string, readonly string[]>> = {
  updateNote: ['notes.delete.permanent', 'errors.missing.note-refused'],
  setNoteCreatedAt: ['errors.missing.note-refused'],
  deleteNote: ['errors.missing.note-refused'],
  trashNote: ['errors.missing.note-refused'],
  getRelatedNotes: ['errors.missing.note-refused'],
  restoreNote: ['notes.delete.not-restorable'],
};

const ON_DELETED_COLLECTION: Readonly<Record<string, readonly string[]>> = {
  updateCollection: ['errors.missing.collection-refused'],
  deleteCollection: ['errors.missing.collection-refused'],
  getCollection: [],
};

/**
 * What the state makes certain whichever check sent the request: an operation on what its owner
 * deleted is refused (as missing, with the declared status when nothing in the input could be
 * refused first); a membership change naming it too; a create under an id whose create was
 * refused is a new resource, and a read finding one there shows the refusal made it after all.
 */
function stateParts(ask: Ask): Part[] {
  const { world, r, problems } = ask;
  const out: Part[] = [refusedCreate(ask)];
  if (!r.ownToken || r.op === undefined) return out;
  const mine = <T extends { owner: string }>(x: T | undefined) => (x && x.owner === r.actor ? x : undefined);
  const deletedNote = mine(knownNote(world, r.params.note_id, r))?.deleted;
  const deletedCollection = mine(knownCollection(world, r.params.collection_id, r))?.deleted;
  const notFound = (what: string): Part['kind'] =>
    problems.length === 0 ? { kind: 'not_found', rule: 'errors.status.not-found', why: what } : undefined;
  if (deletedNote && (ON_DELETED_NOTE[r.op] || r.op === 'getNote')) {
    const kind = notFound('a note its owner deleted');
    out.push({
      refuse: (ON_DELETED_NOTE[r.op] ?? []).map((rule) => ({
        rule,
        what: `a note deleted by ${deletedNote.by.method} ${deletedNote.by.path} (an operation on a note that does not exist is refused)`,
        context: deletedNote.by,
      })),
      ...(kind ? { kind } : {}),
    });
  } else if (deletedCollection && ON_DELETED_COLLECTION[r.op]) {
    const kind = notFound('a collection its owner deleted');
    out.push({
      refuse: ON_DELETED_COLLECTION[r.op]!.map((rule) => ({
        rule,
        what:
          `a collection deleted by ${deletedCollection.by.method} ${deletedCollection.by.path}` +
          ' (an operation on a collection that does not exist is refused)',
        context: deletedCollection.by,
      })),
      ...(kind ? { kind } : {}),
    });
  } else if (r.op === 'addNoteToCollection' || r.op === 'moveNote') out.push(membershipWithDeleted(ask));
  out.push(neverSeen(ask), unknownSnapshot(ask));
  return out;
}

/**
 * A later search page under a snapshot_id no answer of the run carried (the kit makes such ids up):
 * not "from a previous page", so the only refusal it can get is the unknown snapshot's, with the
 * status the profile declares (none declared: a 4xx is all that is certain, and the check says so).
 */
function unknownSnapshot({ world, r, problems }: Ask): Part {
  if (r.op !== 'searchNotes' || problems.length > 0 || !isTokenUser(r.actor)) return {};
  const q = objectOf(r.input?.query);
  if ((integerOf(q.offset) ?? 0) <= 0 || !freshId(world, q.snapshot_id)) return {};
  const why = `snapshot_id ${q.snapshot_id}, which no answer of the run issued`;
  return { kind: { kind: 'unknown_snapshot', rule: 'notes.search.snapshot-unknown', why } };
}

/** The rule that refuses an operation naming a note or collection that does not exist, by operation. */
const MISSING: Readonly<Record<string, { note?: string; collection?: string }>> = {
  getNote: { note: 'errors.missing.note-refused' },
  updateNote: { note: 'errors.missing.note-refused' },
  deleteNote: { note: 'errors.missing.note-refused' },
  trashNote: { note: 'errors.missing.note-refused' },
  setNoteCreatedAt: { note: 'errors.missing.note-refused' },
  getRelatedNotes: { note: 'errors.missing.note-refused' },
  getCollection: { collection: 'errors.missing.collection-refused' },
  updateCollection: { collection: 'errors.missing.collection-refused' },
  deleteCollection: { collection: 'errors.missing.collection-refused' },
  addNoteToCollection: { note: 'membership.add.missing-refused', collection: 'membership.add.missing-refused' },
  moveNote: { note: 'membership.move.missing-refused', collection: 'membership.move.missing-refused' },
};

/**
 * A UUID the run never saw, in a create, an answer or a refusal, names no note or collection the
 * caller can reach (the kit makes such ids up to ask for what does not exist): the operation is
 * refused as missing. A move to such a target, of a note in its source, keeps the note there.
 */
function neverSeen({ world, r, body, problems }: Ask): Part {
  const rules = r.op === undefined || !r.ownToken || !isTokenUser(r.actor) ? undefined : MISSING[r.op];
  if (!rules) return {};
  const note = r.params.note_id;
  const collection = r.params.collection_id ?? r.params.source_collection_id;
  const gone = [
    ...(rules.note && freshId(world, note)
      ? [{ rule: rules.note, what: `note ${note}, which the run never saw` }]
      : []),
    ...(rules.collection && freshId(world, collection)
      ? [{ rule: rules.collection, what: `collection ${collection}, which the run never saw` }]
      : []),
  ];
  if (r.op === 'moveNote' && gone.length === 0 && freshId(world, body.target_collection_id)) {
    const n = liveNote(world, note, r);
    if (n?.owner === r.actor && n.links?.has(collection ?? ''))
      gone.push({
        rule: 'membership.move.failed-add-keeps-source',
        what: `a target ${String(body.target_collection_id)} the run never saw`,
      });
  }
  if (gone.length === 0) return {};
  const kind = note && freshId(world, note) ? 'note' : 'collection';
  return {
    refuse: gone.map((g) => ({ ...g, what: `it names ${g.what} (an operation on what does not exist is refused)` })),
    ...(problems.length === 0 && r.op !== 'moveNote' && r.op !== 'addNoteToCollection'
      ? { kind: { kind: 'not_found' as const, rule: 'errors.status.not-found', why: `a ${kind} that does not exist` } }
      : {}),
  };
}

/** Add and move naming a note or collection their owner deleted: refused, and nothing linked. */
function membershipWithDeleted({ world, r, body }: Ask): Part {
  const gone = (x: { owner: string; deleted?: { by: { method: string; path: string } } } | undefined) =>
    x && x.owner === r.actor && x.deleted ? x.deleted : undefined;
  const note = knownNote(world, r.params.note_id, r);
  const source = knownCollection(world, r.params.collection_id ?? r.params.source_collection_id, r);
  const target = r.op === 'moveNote' ? knownCollection(world, body.target_collection_id, r) : undefined;
  const missing = gone(note) ?? gone(source);
  // A move to a deleted target is judged only when the note and its source are the caller's and alive.
  const by =
    missing ?? (r.op === 'moveNote' && note && !note.deleted && source && !source.deleted ? gone(target) : undefined);
  if (!by) return {};
  const rule =
    r.op === 'addNoteToCollection'
      ? 'membership.add.missing-refused'
      : missing
        ? 'membership.move.missing-refused'
        : 'membership.move.failed-add-keeps-source';
  return {
    refuse: [
      {
        rule,
        what: `it names what ${by.by.method} ${by.by.path} deleted (a membership change with a missing note or collection is refused)`,
      },
    ],
  };
}

/** A read under the id of a create the target refused: the resource must not exist; a new create there starts afresh. */
function refusedCreate({ world, r, body }: Ask): Part {
  const read = r.op === 'getNote' ? 'note' : r.op === 'getCollection' ? 'collection' : undefined;
  const created = r.op === 'createNote' ? 'note' : r.op === 'createCollection' ? 'collection' : undefined;
  if (created) return { accepted: () => world.refusedCreates.delete(`${created} ${body.id}`) };
  const refusal = read ? world.refusedCreates.get(`${read} ${r.params.note_id ?? r.params.collection_id}`) : undefined;
  if (!refusal) return {};
  return {
    refuse: [
      {
        rule: refusal.rule,
        what:
          `a ${read} whose create was refused (${refusal.by.method} ${refusal.by.path} answered ` +
          `${refusal.by.status}), as if that refusal had created it`,
        context: refusal.by,
      },
    ],
  };
}
