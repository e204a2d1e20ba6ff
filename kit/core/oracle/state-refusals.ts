import type { RefusalKind } from '../../../spec/profile.js';
import type { KnownNote } from '../behaviour/state.js';
import type { Exchange } from '../client.js';
import { ms, sameInstant, show } from './compare.js';
import type { Env } from './env.js';
import { judgeErrorBody } from './error-body.js';
import type { Problem } from './inputs.js';
import { type Observation, objectOf } from './observation.js';
import { knownCollection, knownNote, notAnAnswer } from './settled.js';

const ok = (o: Observation) => o.x.status >= 200 && o.x.status < 300;
const refused = (o: Observation) => o.x.status >= 400 && o.x.status < 500;

/** The rules an accepted operation on a note its owner deleted breaks (a read is reads.ts's). */
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
};

/**
 * Refusals the shadow makes certain, whichever check sent the request: an operation on a note or
 * collection its owner deleted must be refused (it is missing), a membership change naming one
 * too; an update at another version or of a trashed note must be refused (the update handlers
 * judge that), and where the profile declares the status of that kind of refusal, and nothing
 * else in the request could be refused first, the answer carries it.
 */
export function judgeStateRefusals(env: Env, o: Observation, problems: readonly Problem[]): void {
  if (notAnAnswer(env, o) || !o.ownToken || o.op === undefined) return;
  const what = `${o.method} ${o.path}`;
  const note = knownNote(env, o.params.note_id, o);
  const collection = knownCollection(env, o.params.collection_id, o);
  const mine = <T extends { owner: string }>(r: T | undefined) => (r && r.owner === o.actor ? r : undefined);
  const deletedNote = mine(note)?.deleted;
  const deletedCollection = mine(collection)?.deleted;
  if (deletedNote && ON_DELETED_NOTE[o.op]) {
    for (const rule of ON_DELETED_NOTE[o.op]!)
      env.j.that(
        rule,
        !ok(o),
        () =>
          `${what} answered ${o.x.status} for a note deleted by ${deletedNote.by.method} ${deletedNote.by.path};` +
          ' an operation on a note that does not exist is refused',
        o.x,
        deletedNote.by,
      );
    if (problems.length === 0) status(env, o, 'not_found', 'errors.status.not-found', 'a note its owner deleted');
    return;
  }
  if (deletedCollection && (ON_DELETED_COLLECTION[o.op] || o.op === 'getCollection')) {
    for (const rule of ON_DELETED_COLLECTION[o.op] ?? [])
      env.j.that(
        rule,
        !ok(o),
        () =>
          `${what} answered ${o.x.status} for a collection deleted by ${deletedCollection.by.method}` +
          ` ${deletedCollection.by.path}; an operation on a collection that does not exist is refused`,
        o.x,
        deletedCollection.by,
      );
    if (problems.length === 0) status(env, o, 'not_found', 'errors.status.not-found', 'a collection its owner deleted');
    return;
  }
  if (o.op === 'getNote' && deletedNote)
    status(env, o, 'not_found', 'errors.status.not-found', 'a note its owner deleted');
  if (o.op === 'addNoteToCollection' || o.op === 'moveNote') membership(env, o);
  if (problems.length > 0) return;
  const n = mine(note);
  const body = objectOf(o.body);
  if (!n || n.deleted || !refused(o)) return;
  mustBeAccepted(env, o, n);
  if (o.op === 'updateNote' && Number.isInteger(body.version) && n.version) {
    if (n.trashed?.value === true && body.version === n.version.value)
      status(env, o, 'trashed', 'errors.status.trashed', 'an update of a trashed note at its current version');
    else if (n.trashed?.value === false && body.version !== n.version.value)
      status(
        env,
        o,
        'version_mismatch',
        'errors.status.version-mismatch',
        `an update of an active note at version ${body.version}, not its current ${n.version.value}`,
      );
  }
  const sent = ms(body.created_at);
  if (
    o.op === 'setNoteCreatedAt' &&
    n.trashed?.value === true &&
    sent !== undefined &&
    n.original !== undefined &&
    (sent <= n.original || sameInstant(sent, n.original, env.precisionMs))
  )
    status(env, o, 'trashed', 'errors.status.trashed', 'set-created-at on a trashed note, with a valid backdate');
}

/**
 * A write the document allows the owner, on a note the shadow knows, with nothing in its input or
 * the note's state to refuse: deleting it, active or trashed; updating an active note at its
 * current version; backdating an active note to no later than its original creation.
 */
function mustBeAccepted(env: Env, o: Observation, n: KnownNote): void {
  const body = objectOf(o.body);
  const restored = n.trashed?.value === false && n.trashed.rule === 'notes.restore.returns-to-active';
  const refusedIt = (rule: string, what: string, by?: Exchange): void => {
    env.j.that(rule, false, () => `${o.method} ${o.path}: ${what}, yet it was refused with ${o.x.status}`, o.x, by);
  };
  if (o.op === 'deleteNote') {
    refusedIt(
      'notes.delete.active-or-trashed',
      `the owner deleted its ${n.trashed?.value ? 'trashed' : 'active'} note, which the document allows`,
    );
    return;
  }
  if (n.trashed?.value !== false) return;
  // With an updated_at the document says nothing of (a future one, one before created_at) the refusal is not judged.
  if (o.op === 'updateNote' && n.version && body.version === n.version.value && !('updated_at' in body)) {
    refusedIt(
      restored ? 'notes.restore.edits-allowed-again' : 'notes.update.version-from-read-or-write',
      `the owner updated its active note at its current version ${n.version.value}` +
        (restored ? ', restored since it was trashed' : ''),
      n.version.by,
    );
    return;
  }
  const sent = ms(body.created_at);
  if (o.op !== 'setNoteCreatedAt' || sent === undefined || n.original === undefined) return;
  // Equal to the original is the boundary judgement's (original-inclusive); within the precision, nothing is certain.
  if (sent >= n.original - env.precisionMs) return;
  const current = n.createdAt?.value;
  refusedIt(
    restored
      ? 'notes.restore.edits-allowed-again'
      : current !== undefined && sent > current
        ? 'notes.set-created-at.original-creation-bound'
        : 'notes.set-created-at.applied',
    `the owner backdated its active note to ${show(body.created_at)}, before its original creation` +
      ` ${new Date(n.original).toISOString()}`,
  );
}

/** Add and move naming a note or collection their owner deleted: refused, and nothing linked. */
function membership(env: Env, o: Observation): void {
  const note = knownNote(env, o.params.note_id, o);
  const sourceId = o.params.collection_id ?? o.params.source_collection_id;
  const source = knownCollection(env, sourceId, o);
  const targetId = objectOf(o.body).target_collection_id;
  const target = o.op === 'moveNote' ? knownCollection(env, targetId, o) : undefined;
  const gone = (r: { owner: string; deleted?: { by: { method: string; path: string } } } | undefined) =>
    r && r.owner === o.actor && r.deleted ? r.deleted : undefined;
  const missing = gone(note) ?? gone(source);
  const rule =
    o.op === 'addNoteToCollection'
      ? 'membership.add.missing-refused'
      : missing
        ? 'membership.move.missing-refused'
        : 'membership.move.failed-add-keeps-source';
  // A move to a deleted target is judged only when the note and its source are the caller's and alive.
  const by =
    missing ?? (o.op === 'moveNote' && note && !note.deleted && source && !source.deleted ? gone(target) : undefined);
  if (!by) return;
  env.j.that(
    rule,
    !ok(o),
    () =>
      `${o.method} ${o.path} answered ${o.x.status}, though it names what ${by.by.method} ${by.by.path} deleted;` +
      ' a membership change with a missing note or collection is refused',
    o.x,
  );
}

/** The refusal carries the status the profile declares for its kind (none declared: a 4xx is all that is certain). */
function status(env: Env, o: Observation, kind: RefusalKind, rule: string, why: string): void {
  if (ok(o)) return;
  judgeErrorBody(env, o, kind, why);
  const declared = env.statuses[kind];
  if (declared === undefined) return;
  env.j.that(
    rule,
    o.x.status === declared,
    () => `${o.method} ${o.path}: ${why}, refused with ${o.x.status}; the profile declares ${declared} for ${kind}`,
    o.x,
  );
}
