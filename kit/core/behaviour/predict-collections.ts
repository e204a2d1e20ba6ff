import { instantOf } from '../../../spec/patterns.js';
import {
  collectionCreated,
  collectionDeleted,
  collectionUpdated,
  type MembershipOp,
  membershipChanged,
} from './effects.js';
import { addDetermined, moveDetermined } from './outcomes.js';
import { type Ask, blame, type Expect, neverShared, type Part, permissionRule } from './prediction.js';
import { isTokenUser, liveCollection, liveNote, pick } from './request.js';
import type { KnownCollection, KnownNote } from './state.js';
import { collectionFields } from './views.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** The part of a collection or membership operation's prediction that is its own (predict.ts joins the rest). */
export function predictCollectionOp(ask: Ask): Part | undefined {
  switch (ask.r.op) {
    case 'createCollection':
      return createCollection(ask);
    case 'updateCollection':
      return updateCollection(ask);
    case 'deleteCollection':
      return deleteCollection(ask);
    case 'getCollection':
      return getCollection(ask);
    case 'addNoteToCollection':
    case 'moveNote':
    case 'removeNoteFromCollection':
      return membership(ask);
    default:
      return undefined;
  }
}

/** Another token user's collection, never shared: a success breaches isolation, a refusal shows none of its text. */
function stranger(ask: Ask, c: KnownCollection | undefined): Part {
  if (!c) return {};
  return neverShared(ask, c.owner, 'a collection', 'auth.scope.collections-isolated', {
    rule: 'auth.scope.collections-isolated',
    texts: [c.title?.value, c.description?.value],
  });
}

/** POST /v2/collections: create-only ids (a trashed collection's too), the fields and times as sent or defaulted. */
function createCollection(ask: Ask): Part {
  const { world, r, body } = ask;
  const supplied = typeof body.id === 'string' ? body.id : undefined;
  const existing = liveCollection(world, supplied, r);
  const created = instantOf(body.created_at);
  const updated = instantOf(body.updated_at);
  const answer: Expect[] = [];
  if (supplied)
    answer.push({ rule: 'collections.create.id-honoured', field: 'id', is: { equal: supplied }, from: 'sent' });
  if (typeof body.title === 'string')
    answer.push({ rule: 'collections.create.fields-stored', field: 'title', is: { equal: body.title }, from: 'sent' });
  if (typeof body.description === 'string' || body.description === null || !('description' in body))
    answer.push({
      rule: 'collections.create.fields-stored',
      field: 'description',
      is: { equal: body.description ?? null },
      from: 'sent (null when none is)',
    });
  if (created !== undefined)
    answer.push({
      rule: 'collections.create.created-at-honoured',
      field: 'created_at',
      is: { instant: created },
      from: 'sent',
    });
  else if (updated !== undefined)
    answer.push({
      rule: 'collections.create.created-at-defaults-to-updated-at',
      field: 'created_at',
      is: { instant: updated },
      from: 'no created_at was sent, so it is the updated_at sent',
    });
  if (updated !== undefined)
    answer.push({
      rule: 'collections.create.updated-at-honoured',
      field: 'updated_at',
      is: { instant: updated },
      from: 'sent',
    });
  else if (created !== undefined)
    answer.push({
      rule: 'collections.create.updated-at-defaults-to-created-at',
      field: 'updated_at',
      is: { instant: created },
      from: 'no updated_at was sent, so it is the created_at sent',
    });
  // "null ... omitted": a null id, created_at and updated_at mean a new id and the server time.
  if (body.id === null)
    answer.push({
      rule: 'collections.create.null-as-omitted',
      field: 'id',
      is: { newUuid: true },
      from: 'a null id was sent',
    });
  if (body.created_at === null && body.updated_at === null)
    answer.push(
      {
        rule: 'collections.create.null-as-omitted',
        field: 'created_at',
        is: { serverTime: true },
        from: 'null timestamps were sent, so it is the server time',
      },
      {
        rule: 'collections.create.null-as-omitted',
        field: 'updated_at',
        is: { sameInstantAs: 'created_at' },
        from: 'null timestamps were sent, so it is created_at',
      },
    );
  if (body.created_at == null && body.updated_at == null)
    answer.push(
      {
        rule: 'collections.create.created-at-defaults-to-server-time',
        field: 'created_at',
        is: { serverTime: true },
        from: 'no timestamp was sent, so it is the server time',
      },
      {
        rule: 'collections.create.created-at-defaults-to-server-time',
        field: 'updated_at',
        is: { sameInstantAs: 'created_at' },
        from: 'no timestamp was sent, so it is created_at',
      },
    );
  return {
    refuse:
      existing && isTokenUser(existing.owner)
        ? [
            {
              rule:
                existing.owner === r.actor
                  ? 'collections.create.id-conflict-409'
                  : 'collections.create.id-conflict-409-other-user',
              what: `the id of an existing collection (${supplied}) is refused with 409`,
              ...(ask.problems.length === 0 ? { status: 409 } : {}),
              ...(existing.title?.by ? { context: existing.title.by } : {}),
            },
          ]
        : [],
    answer,
    refused: ({ ev }) => {
      if (existing)
        existing.refusals.push({
          rule:
            existing.owner === r.actor
              ? 'collections.create.id-conflict-no-upsert'
              : 'collections.create.id-conflict-409-other-user',
          by: ev,
          asked: pick(body, ['title', 'description', 'created_at', 'updated_at']),
        });
    },
    accepted: (a, { ev, endSeq, endedAt }) => {
      if (typeof a.id !== 'string') return;
      const rc = instantOf(a.created_at);
      const ru = instantOf(a.updated_at);
      const description = body.description;
      collectionCreated(
        world,
        {
          id: a.id,
          owner: r.actor,
          ...(typeof body.title === 'string' ? { title: body.title } : {}),
          ...(typeof description === 'string' || description === null || !('description' in body)
            ? { description: (description as string | null | undefined) ?? null }
            : {}),
          ...(rc === undefined ? {} : { createdAt: rc }),
          ...(ru === undefined ? {} : { updatedAt: ru }),
          suppliedCreated: created !== undefined,
          suppliedUpdated: updated !== undefined,
          endSeq,
          endedAt,
        },
        ev,
      );
    },
  };
}

/** PATCH /v2/collections/{id}: the fields sent change, omitted ones and created_at stay; updated_at as sent or server time. */
function updateCollection(ask: Ask): Part {
  const { world, r, body } = ask;
  const c = liveCollection(world, r.params.collection_id, r);
  if (!c) return {};
  const answer: Expect[] = [];
  // A null title: whether it means "not provided" or is kept as sent is not shown; the title becomes unknown.
  for (const field of ['title', 'description'] as const) {
    if (field === 'title' && body.title === null) continue;
    const sent = field in body;
    const fact = c[field];
    if (sent)
      answer.push({ rule: 'collections.update.fields-applied', field, is: { equal: body[field] }, from: 'sent' });
    else if (fact)
      answer.push({
        rule: 'collections.update.partial',
        field,
        is: { equal: fact.value },
        from: `not sent, so unchanged from ${JSON.stringify(fact.value)}`,
        context: fact.by,
      });
  }
  if (c.createdAt)
    answer.push({
      rule: 'collections.update.partial',
      field: 'created_at',
      is: { instant: c.createdAt.value },
      from: `it was ${iso(c.createdAt.value)}`,
      context: c.createdAt.by,
    });
  const updated = instantOf(body.updated_at);
  if (body.updated_at == null)
    answer.push({
      rule: 'collections.update.updated-at-defaults-to-server-time',
      field: 'updated_at',
      is: { serverTime: true },
      from: 'no updated_at was sent, so it is the server time of the PATCH',
    });
  if (updated !== undefined)
    answer.push({
      rule: 'collections.update.updated-at-preserved',
      field: 'updated_at',
      is: { instant: updated },
      from: 'sent',
    });
  return {
    ...stranger(ask, c),
    answer,
    refused: ({ ev }, all) =>
      c.refusals.push({
        rule: blame(
          all.refuse,
          'collections.update.fields-applied',
          permissionRule(ask, c.owner, 'auth.scope.collections-isolated', 'collections.update.requires-edit'),
        ),
        by: ev,
        asked: pick(body, ['title', 'description']),
      }),
    accepted: (a, { ev }) => collectionUpdated(c, body, instantOf(a.updated_at), ev),
  };
}

/** DELETE /v2/collections/{id}: gone, and no note lists it any more; the notes stay. */
function deleteCollection(ask: Ask): Part {
  const { world, r } = ask;
  const c = liveCollection(world, r.params.collection_id, r);
  if (!c) return {};
  return {
    ...stranger(ask, c),
    refused: ({ ev }) =>
      c.refusals.push({
        rule:
          permissionRule(ask, c.owner, 'auth.scope.collections-isolated', 'collections.delete.requires-edit') ??
          'collections.delete.permanent',
        by: ev,
        asked: { deleted: true },
      }),
    accepted: (_a, { ev }) => collectionDeleted(world, c, ev),
  };
}

/** GET /v2/collections/{id}: a deleted collection is gone; metadata and note_count agree with what is known, and no note list. */
function getCollection(ask: Ask): Part {
  const { world, r } = ask;
  const c = world.collections.get(r.params.collection_id ?? '');
  if (!c || c.clock.inFlight > 0 || c.clock.lastEndSeq >= r.startSeq) return {};
  if (c.deleted)
    return {
      refuse: [
        {
          rule: 'collections.delete.permanent',
          what: `a collection deleted by ${c.deleted.by.method} ${c.deleted.by.path}`,
          context: c.deleted.by,
        },
      ],
    };
  return {
    ...stranger(ask, c),
    about: c.id,
    answer: [
      ...collectionFields(world, c, 'collections.read.note-count'),
      // "Reads metadata only (no note list)": no list at all, and no note the collection holds named anywhere.
      {
        rule: 'collections.read.no-note-list',
        field: '',
        is: { namesNone: [...(c.members ?? [])] },
        from: 'a collection read is metadata only',
      },
    ],
  };
}

/**
 * Add, move and remove: the links change as section 4 says; what a membership change does to the
 * note's version and updated_at, or the collections' updated_at, is not shown. A refusal is blamed
 * on the documented reason the request shows.
 */
function membership(ask: Ask): Part {
  const { world, r, body } = ask;
  const op = r.op as MembershipOp;
  const note = liveNote(world, r.params.note_id, r);
  const sourceId = r.params.collection_id ?? r.params.source_collection_id;
  const source = liveCollection(world, sourceId, r);
  const targetId =
    op === 'moveNote' && typeof body.target_collection_id === 'string' ? body.target_collection_id : undefined;
  const target = liveCollection(world, targetId, r);
  // Into one's own collection, another token user's note (never shared with the caller).
  const foreignNote =
    op === 'addNoteToCollection' && note && isTokenUser(note.owner) && note.owner !== r.actor && isTokenUser(r.actor)
      ? note
      : undefined;
  // A change the document settles, of the caller's own note and collections with nothing else in
  // flight: it must be accepted ("adds the note to the target collection, then removes it from the source").
  const mine = (x: { owner: string; clock: { inFlight: number } } | undefined) =>
    x !== undefined && x.owner === r.actor && x.clock.inFlight <= 1;
  const settles =
    r.ownToken &&
    isTokenUser(r.actor) &&
    note !== undefined &&
    mine(note) &&
    mine(source) &&
    (op === 'moveNote'
      ? mine(target) && moveDetermined(note, source!, target!)
      : op === 'addNoteToCollection' && addDetermined(note, source!));
  return {
    ...(settles
      ? {
          accept: [
            {
              rule: op === 'moveNote' ? 'membership.move.moves' : 'membership.add.links',
              what:
                op === 'moveNote'
                  ? `a move of the caller's active note ${note.id} from a collection holding it to one that does not`
                  : `an add of the caller's active note ${note.id} to a collection of theirs not holding it`,
            },
          ],
        }
      : {}),
    ...(foreignNote && r.ownToken
      ? {
          refuse: [
            {
              rule: 'membership.add.requires-note-access',
              what: `a note of the ${foreignNote.owner} user, added by the ${r.actor} user`,
            },
          ],
        }
      : {}),
    refused: ({ ev }) => {
      if (!note) return;
      const asked =
        op === 'addNoteToCollection'
          ? { link: sourceId }
          : op === 'moveNote'
            ? { link: targetId, unlink: sourceId }
            : { unlink: sourceId };
      note.refusals.push({ rule: membershipRefusalRule(ask, note, source, target), by: ev, asked });
    },
    accepted: (_a, { ev }) => membershipChanged(world, op, r.actor, note, source, target, ev),
  };
}

/** A refused membership change: which documented refusal it is, as far as the request shows. */
function membershipRefusalRule(
  ask: Ask,
  note: KnownNote,
  source: KnownCollection | undefined,
  target: KnownCollection | undefined,
): string {
  const op = ask.r.op;
  if (op === 'addNoteToCollection') {
    if (!source) return 'membership.add.missing-refused';
    return (
      permissionRule(ask, source.owner, 'membership.add.requires-note-access', 'membership.add.requires-contribute') ??
      permissionRule(ask, note.owner, 'membership.add.requires-note-access', 'membership.add.requires-note-access') ??
      'membership.add.links'
    );
  }
  if (op === 'moveNote') {
    if (typeof ask.body.target_collection_id !== 'string') return 'membership.move.target-required';
    if (!source) return 'membership.move.missing-refused';
    if (!target) return 'membership.move.failed-add-keeps-source';
    return (
      permissionRule(
        ask,
        source.owner,
        'membership.move.requires-permissions',
        'membership.move.requires-permissions',
      ) ??
      permissionRule(
        ask,
        target.owner,
        'membership.move.requires-permissions',
        'membership.move.requires-permissions',
      ) ??
      'membership.move.moves'
    );
  }
  return 'membership.remove.unlinks';
}
