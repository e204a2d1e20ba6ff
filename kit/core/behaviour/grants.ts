import { instantOf } from '../../../spec/patterns.js';
import { versionOutcome } from './outcomes.js';
import type { Accept, Ask, Part, Refuse } from './prediction.js';
import { isTokenUser, liveCollection, liveNote } from './request.js';

/**
 * What a fixture user's grant decides (section 5: "Permission levels named per operation: access
 * (read), edit (update, delete), own (set-created-at), contribute (add to collection)"): an
 * operation a lower level does not name is refused under the operation's permission rule, with the
 * declared forbidden status where nothing else could be refused first, and the level's own
 * operations are accepted. Predicted only where the grant alone decides: the user's one known
 * grant on a token user's note, and no grant on any collection (how a collection's grant reaches
 * its notes is not shown). Whether one level includes another, and what a second grant to the
 * same user does, are not shown: a level is accepted for what the document names for it, and a
 * refusal is predicted only for a user never granted a level that names the operation.
 */
export function grantPart(ask: Ask): Part {
  const { world, r } = ask;
  if (!r.actor.startsWith('user:') || !r.ownToken || r.op === undefined) return {};
  if (r.op === 'addNoteToCollection') return contribute(ask);
  if (r.op === 'moveNote') return moveInto(ask);
  if (r.op === 'getCollection' || r.op === 'updateCollection' || r.op === 'deleteCollection') return onCollection(ask);
  const n = liveNote(world, r.params.note_id, r);
  if (!n || !isTokenUser(n.owner) || world.collectionGrantees.has(r.actor)) return {};
  const levels = world.grants.get(`note ${n.id} ${r.actor}`);
  const level = levels?.at(-1);
  if (level === undefined) return {};
  const only = (...lower: string[]) => levels!.every((l) => lower.includes(l));
  const clean = ask.problems.length === 0;
  const active = n.trashed?.value === false;
  const what = `a user granted ${level} on the note`;
  const version = ask.body.version;
  const current = Number.isInteger(version) && versionOutcome(n, version as number) === 'current';
  switch (r.op) {
    case 'getNote':
      return level === 'access' ? accepted(what, 'permissions.access.read', clean) : {};
    case 'updateNote': {
      const plain = clean && active && current && !('updated_at' in ask.body);
      if (only('access')) return refused(what, 'notes.update.requires-edit', plain);
      return level === 'edit' ? accepted(what, 'permissions.edit.update-delete', plain) : {};
    }
    case 'trashNote':
      return only('access') ? refused(what, 'notes.trash.requires-edit', clean && active) : {};
    case 'deleteNote':
      if (only('access')) return refused(what, 'notes.delete.requires-edit', clean);
      return level === 'edit' ? accepted(what, 'permissions.edit.update-delete', clean) : {};
    case 'setNoteCreatedAt': {
      const sent = instantOf(ask.body.created_at);
      const backdate =
        clean && active && sent !== undefined && n.original !== undefined && sent < n.original - ask.tol.precisionMs;
      if (level === 'edit' && only('access', 'edit'))
        return refused(what, 'notes.set-created-at.requires-owner', backdate);
      return level === 'own' ? accepted(what, 'permissions.own.set-created-at', backdate) : {};
    }
    default:
      return {};
  }
}

/** A refusal under `rule` (with the declared forbidden status when `certain`: nothing else could be refused first). */
function refused(what: string, rule: string, certain: boolean): Part {
  return {
    refuse: [{ rule, what: `${what}, which the document does not let do this` }],
    ...(certain ? { kind: { kind: 'forbidden', rule: 'errors.status.forbidden', why: what } } : {}),
  };
}

/** An acceptance under `rule`, where nothing else could refuse it (`certain`). */
function accepted(what: string, rule: string, certain: boolean): Part {
  return certain ? { accept: [{ rule, what: `${what}, which the document lets do this` }] } : {};
}

/** The levels a fixture user was granted on a token user's collection, in order. */
function collectionLevels({ world, r }: Ask, id: unknown): string[] | undefined {
  const c = liveCollection(world, id, r);
  return c && isTokenUser(c.owner) ? world.grants.get(`collection ${c.id} ${r.actor}`) : undefined;
}

/** A token user's collection, read, updated or deleted by a fixture user granted a level on it. */
function onCollection(ask: Ask): Part {
  const levels = collectionLevels(ask, ask.r.params.collection_id);
  const level = levels?.at(-1);
  if (level === undefined) return {};
  const what = `a user granted ${level} on the collection`;
  const clean = ask.problems.length === 0;
  const cannotEdit = levels!.every((l) => l === 'access' || l === 'contribute');
  if (ask.r.op === 'getCollection')
    return level === 'access' ? accepted(what, 'permissions.collection.access-edit', clean) : {};
  const rule =
    ask.r.op === 'updateCollection' ? 'collections.update.requires-edit' : 'collections.delete.requires-edit';
  if (cannotEdit) return refused(what, rule, clean);
  return level === 'edit' ? accepted(what, 'permissions.collection.access-edit', clean) : {};
}

/** A fixture user moving a note of its own out of a collection of its own into a token user's it may only access. */
function moveInto(ask: Ask): Part {
  const { world, r, body } = ask;
  const n = liveNote(world, r.params.note_id, r);
  const source = liveCollection(world, r.params.source_collection_id ?? r.params.collection_id, r);
  const levels = collectionLevels(ask, body.target_collection_id);
  if (!n || !source || n.owner !== r.actor || source.owner !== r.actor || !n.links?.has(source.id)) return {};
  if (!levels?.every((l) => l === 'access')) return {};
  const what = 'a move into a collection the user was granted only access on';
  return refused(what, 'membership.move.requires-permissions', ask.problems.length === 0);
}

/** A fixture user adding a note of its own to a token user's collection: access is not enough, contribute is. */
function contribute(ask: Ask): Part {
  const { world, r } = ask;
  const n = liveNote(world, r.params.note_id, r);
  const c = liveCollection(world, r.params.collection_id, r);
  if (!n || !c || n.owner !== r.actor || !isTokenUser(c.owner) || n.links === undefined) return {};
  const levels = world.grants.get(`collection ${c.id} ${r.actor}`);
  const level = levels?.at(-1);
  // A note already in it: whether a second add is refused is the repeat's rule, not the grant's.
  if (level === undefined || n.links.has(c.id)) return {};
  const what = `an add by a user granted ${level} on the collection, of a note of its own`;
  const clean = ask.problems.length === 0;
  if (levels!.every((l) => l === 'access')) {
    const refuse: Refuse[] = [{ rule: 'membership.add.requires-contribute', what }];
    return { refuse, ...(clean ? { kind: { kind: 'forbidden', rule: 'errors.status.forbidden', why: what } } : {}) };
  }
  if (level !== 'contribute' || !clean) return {};
  const accept: Accept[] = ['permissions.contribute.add', 'membership.add.requires-contribute'].map((rule) => ({
    rule,
    what,
  }));
  return { accept };
}
