import { instantOf, readDateTime } from '../../../spec/patterns.js';
import {
  createdAtSet,
  learnTrashed,
  learnVersion,
  noteCreated,
  noteDeleted,
  noteTrashed,
  noteUpdated,
} from './effects.js';
import { sameInstant, UPDATE_RULES, updateOutcome, versionOutcome } from './outcomes.js';
import { type Ask, blame, type Expect, neverShared, type Part, permissionRule, type Refuse } from './prediction.js';
import { isTokenUser, liveNote, pick } from './request.js';
import type { KnownNote } from './state.js';
import { noteFields } from './views.js';

const show = (value: unknown) => JSON.stringify(value) ?? String(value);
const iso = (ms: number) => new Date(ms).toISOString();

/** The part of a note operation's prediction that is its own (predict.ts joins it with the input's and the state's). */
export function predictNoteOp(ask: Ask): Part | undefined {
  switch (ask.r.op) {
    case 'createNote':
      return createNote(ask);
    case 'updateNote':
      return updateNote(ask);
    case 'setNoteCreatedAt':
      return setCreatedAt(ask);
    case 'trashNote':
    case 'restoreNote':
    case 'deleteNote':
      return lifecycle(ask);
    case 'getNote':
      return getNote(ask);
    case 'getRelatedNotes':
      return stranger(ask, liveNote(ask.world, ask.r.params.note_id, ask.r), 'notes.related.requires-access');
    default:
      return undefined;
  }
}

/** Another token user's note, never shared: a success breaches `rule`, a refusal shows none of its text. */
function stranger(ask: Ask, n: KnownNote | undefined, rule = 'auth.scope.notes-isolated'): Part {
  if (!n) return {};
  return neverShared(ask, n.owner, 'a note', rule, {
    rule: 'auth.scope.notes-isolated',
    texts: [n.title?.value, n.content?.value],
  });
}

/** POST /v2/notes: create-only ids, the content and times as sent or defaulted, the links named; the new note enters the state. */
function createNote(ask: Ask): Part {
  const { world, r, body } = ask;
  const supplied = typeof body.id === 'string' ? body.id : undefined;
  const existing = liveNote(world, supplied, r);
  const refuse: Refuse[] = [];
  if (existing && isTokenUser(existing.owner))
    refuse.push({
      rule:
        existing.owner !== r.actor
          ? 'notes.create.id-conflict-409-other-user'
          : existing.trashed?.value
            ? 'notes.create.id-conflict-409-trashed'
            : 'notes.create.id-conflict-409',
      what: `the id of an existing note (${supplied}) is refused with 409`,
      // With nothing else wrong in the request: which refusal comes first otherwise is not shown.
      ...(ask.problems.length === 0 ? { status: 409 } : {}),
      ...(existing.content?.by ? { context: existing.content.by } : {}),
    });
  const created = instantOf(body.created_at);
  const updated = instantOf(body.updated_at);
  const answer: Expect[] = [];
  if (supplied) answer.push({ rule: 'notes.create.id-honoured', field: 'id', is: { equal: supplied }, from: 'sent' });
  if (typeof body.content === 'string')
    answer.push({ rule: 'notes.create.content-stored', field: 'content', is: { equal: body.content }, from: 'sent' });
  // An offset other than Z is read as the instant it denotes.
  if (created !== undefined && readDateTime(body.created_at)?.designator.toUpperCase() !== 'Z')
    answer.push({
      rule: 'conventions.timestamps.offset-honoured',
      field: 'created_at',
      is: { instant: created },
      from: `sent as ${show(body.created_at)}`,
    });
  if (created !== undefined)
    answer.push({
      rule: 'notes.create.created-at-honoured',
      field: 'created_at',
      is: { instant: created },
      from: 'sent',
    });
  else if (updated !== undefined && body.created_at === undefined)
    answer.push({
      rule: 'notes.create.created-at-defaults-to-updated-at',
      field: 'created_at',
      is: { instant: updated },
      from: 'no created_at was sent, so it is the updated_at sent',
    });
  if (updated !== undefined)
    answer.push({
      rule: 'notes.create.updated-at-honoured',
      field: 'updated_at',
      is: { instant: updated },
      from: 'sent',
    });
  if (body.created_at == null && body.updated_at == null)
    answer.push({
      rule: 'notes.create.created-at-defaults-to-server-time',
      field: 'created_at',
      is: { serverTime: true },
      from: 'no timestamp was sent, so it is the server time',
    });
  if (body.updated_at == null)
    answer.push({
      rule: 'notes.create.updated-at-defaults-to-server-time',
      field: 'updated_at',
      is: { serverTime: true },
      from: 'no updated_at was sent, so it is the server time',
    });
  answer.push({
    rule: 'notes.create.version-positive',
    field: 'version',
    is: { integerAtLeast: 1 },
    from: 'a version',
  });
  answer.push(...createLinks(ask));
  return {
    refuse,
    answer,
    refused: ({ ev }) => {
      if (existing)
        existing.refusals.push({
          rule:
            existing.owner === r.actor
              ? 'notes.create.id-conflict-no-upsert'
              : 'notes.create.id-conflict-409-other-user',
          by: ev,
          asked: pick(body, ['content', 'created_at', 'updated_at']),
        });
    },
    accepted: (a, { ev, endSeq, endedAt }) => {
      if (typeof a.id !== 'string') return;
      const links = Array.isArray(a.collection_ids)
        ? a.collection_ids.filter((v): v is string => typeof v === 'string')
        : [];
      // Linked all the same where the answer does not show it: the owner's note_count would tell.
      for (const c of foreignCollections(ask))
        c.collection.refusals.push({ rule: c.rule, by: ev, asked: { foreignNote: a.id } });
      const ms = (v: unknown, key: string) => {
        const t = instantOf(v);
        return t === undefined ? {} : { [key]: t };
      };
      noteCreated(
        world,
        {
          id: a.id,
          owner: r.actor,
          ...(typeof body.content === 'string' ? { content: body.content } : {}),
          ...(typeof a.title === 'string' ? { title: a.title } : {}),
          ...(Number.isInteger(a.version) ? { version: a.version as number } : {}),
          ...ms(a.created_at, 'createdAt'),
          ...ms(a.updated_at, 'updatedAt'),
          suppliedCreated: created !== undefined,
          suppliedUpdated: updated !== undefined,
          links,
          named: Array.isArray(body.collection_ids) ? body.collection_ids : [],
          endSeq,
          endedAt,
        },
        ev,
      );
    },
  };
}

/** Another token user's collections a create names (by id or by title): they are not accessible, so nothing links. */
function foreignCollections({ world, r, body }: Ask) {
  const titles = Array.isArray(body.collection_titles)
    ? body.collection_titles.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase())
    : [];
  const ids = Array.isArray(body.collection_ids) ? body.collection_ids : [];
  const out = [];
  for (const c of world.collections.values()) {
    if (c.deleted || c.owner === r.actor || !isTokenUser(c.owner) || !isTokenUser(r.actor)) continue;
    const byId = ids.includes(c.id);
    const byTitle = c.title !== undefined && titles.includes(c.title.value.toLowerCase());
    if (!byTitle && !byId) continue;
    out.push({
      collection: c,
      byId,
      rule: byId
        ? 'notes.create.collection-ids-inaccessible-ignored'
        : 'notes.create.collection-titles-inaccessible-ignored',
    });
  }
  return out;
}

/** What the create's collection_ids must show of the collections it named. */
function createLinks(ask: Ask): Expect[] {
  const { world, r, body } = ask;
  const out: Expect[] = [];
  for (const f of foreignCollections(ask))
    if (!f.byId)
      out.push({
        rule: f.rule,
        field: 'collection_ids',
        is: { lacks: f.collection.id },
        from: `collection_titles named ${show(f.collection.title!.value)}, a collection of the ${f.collection.owner} user`,
      });
  // "case-insensitive exact match": the caller's live collection whose current title an entry
  // names, ignoring case, holds the note (ASCII titles only: case folding beyond ASCII is the
  // target's own).
  const titles = Array.isArray(body.collection_titles)
    ? body.collection_titles.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase())
    : [];
  for (const c of titles.length === 0 ? [] : world.collections.values()) {
    const title = c.title?.value;
    if (c.deleted || c.owner !== r.actor || c.clock.inFlight > 0 || title === undefined) continue;
    if (/^[\x20-\x7e]*$/.test(title) && titles.includes(title.toLowerCase()))
      out.push({
        rule: 'notes.create.collection-titles-case-insensitive',
        field: 'collection_ids',
        is: { holds: c.id },
        from: `collection_titles named ${show(title)}, the title of the caller's collection ${c.id}`,
      });
    // "exact match": an entry that is part of the title, or the title and more, names no collection.
    const low = title.toLowerCase();
    const near = titles.find((t) => t !== low && t.length > 0 && (low.includes(t) || t.includes(low)));
    const named = titles.includes(low) || (Array.isArray(body.collection_ids) && body.collection_ids.includes(c.id));
    if (/^[\x20-\x7e]*$/.test(title) && near !== undefined && !named)
      out.push({
        rule: 'notes.create.collection-titles-exact',
        field: 'collection_ids',
        is: { lacks: c.id },
        from: `collection_titles named ${show(near)}, not the title ${show(title)} of the caller's collection ${c.id}`,
      });
  }
  for (const cid of Array.isArray(body.collection_ids) ? body.collection_ids : []) {
    const c = typeof cid === 'string' ? world.collections.get(cid) : undefined;
    if (c?.deleted)
      out.push({
        rule: 'notes.create.collection-ids-unknown-ignored',
        field: 'collection_ids',
        is: { lacks: c.id },
        from: `collection_ids named ${c.id}, deleted by ${c.deleted.by.method} ${c.deleted.by.path}`,
        context: c.deleted.by,
      });
    if (!c || c.deleted || c.clock.inFlight > 1) continue;
    if (c.owner === r.actor)
      out.push({
        rule: 'notes.create.collection-ids-linked',
        field: 'collection_ids',
        is: { holds: c.id },
        from: `collection_ids named the caller's collection ${c.id}`,
      });
    else if (isTokenUser(c.owner) && isTokenUser(r.actor))
      out.push({
        rule: 'notes.create.collection-ids-inaccessible-ignored',
        field: 'collection_ids',
        is: { lacks: c.id },
        from: `collection_ids named another user's collection ${c.id}`,
      });
  }
  return out;
}

/**
 * PATCH /v2/notes/{id}: refused while trashed, refused unless the version is the current one (a
 * stale and an ahead one alike); the owner's update of an active note at its current version is
 * accepted. Accepted, the content is replaced, the version changes, created_at stays, updated_at
 * is the one sent or the server time.
 */
function updateNote(ask: Ask): Part {
  const { world, r, body, problems } = ask;
  const n = liveNote(world, r.params.note_id, r);
  if (!n) return {};
  const s = stranger(ask, n);
  const refuse: Refuse[] = [...(s.refuse ?? [])];
  const version = Number.isInteger(body.version) ? (body.version as number) : undefined;
  const outcome = version === undefined ? undefined : updateOutcome(n, version);
  if (n.trashed?.value === true)
    refuse.push({ rule: UPDATE_RULES.trashed, what: 'an update of a trashed note', context: n.trashed.by });
  const against = version === undefined ? undefined : versionOutcome(n, version);
  if (against === 'stale' || against === 'ahead')
    refuse.push({
      rule: UPDATE_RULES[against],
      what: `version ${version}, though the note's version is ${n.version!.value}`,
      context: n.version!.by,
    });
  const part: Part = { ...s, refuse, answer: [], accept: [] };
  const mine = n.owner === r.actor && r.ownToken;
  if (mine && problems.length === 0 && version !== undefined && n.version) {
    if (n.trashed?.value === true && version === n.version.value)
      part.kind = {
        kind: 'trashed',
        rule: 'errors.status.trashed',
        why: 'an update of a trashed note at its current version',
      };
    else if (n.trashed?.value === false && version !== n.version.value)
      part.kind = {
        kind: 'version_mismatch',
        rule: 'errors.status.version-mismatch',
        why: `an update of an active note at version ${version}, not its current ${n.version.value}`,
      };
  }
  // With an updated_at the document says nothing of (a future one, one before created_at) a refusal is not judged.
  if (mine && problems.length === 0 && n.trashed?.value === false && outcome === 'current' && !('updated_at' in body)) {
    const restored = n.trashed.rule === 'notes.restore.returns-to-active';
    part.accept!.push({
      rule: restored ? 'notes.restore.edits-allowed-again' : 'notes.update.version-from-read-or-write',
      what: `the owner's update of its active note at its current version ${n.version!.value}${restored ? ', restored since it was trashed' : ''}`,
      context: n.version!.by,
    });
  }
  const updated = instantOf(body.updated_at);
  const answer = part.answer!;
  if (typeof body.content === 'string')
    answer.push({ rule: 'notes.update.content-replaced', field: 'content', is: { equal: body.content }, from: 'sent' });
  if (version !== undefined)
    answer.push({
      rule: 'notes.update.version-changes',
      field: 'version',
      is: { integerOtherThan: version },
      from: `the update sent version ${version}`,
    });
  if (n.createdAt)
    answer.push({
      rule: 'notes.update.created-at-unchanged',
      field: 'created_at',
      is: { instant: n.createdAt.value },
      from: `it was ${iso(n.createdAt.value)}`,
      context: n.createdAt.by,
    });
  if (body.updated_at == null)
    answer.push({
      rule: 'notes.update.updated-at-defaults-to-server-time',
      field: 'updated_at',
      is: { serverTime: true },
      from: 'no updated_at was sent, so it is the server time of the update',
    });
  if (updated !== undefined)
    answer.push({
      rule: 'notes.update.updated-at-honoured',
      field: 'updated_at',
      is: { instant: updated },
      from: 'sent',
    });
  answer.push(...activeTrashedAt(n), ...linksOf(n));
  part.refused = ({ ev }, all) =>
    n.refusals.push({
      rule: blame(
        all.refuse,
        'notes.update.content-replaced',
        permissionRule(ask, n.owner, 'auth.scope.notes-isolated', 'notes.update.requires-edit'),
      ),
      by: ev,
      asked: pick(body, ['content', 'updated_at']),
    });
  part.accepted = (a, { ev }) => {
    const t = instantOf(a.updated_at);
    noteUpdated(
      n,
      {
        ...(typeof body.content === 'string' ? { content: body.content } : {}),
        ...(typeof a.title === 'string' ? { title: a.title } : {}),
        ...(Number.isInteger(a.version) ? { version: a.version as number } : {}),
        ...(t === undefined ? {} : { updatedAt: t }),
        suppliedUpdated: updated !== undefined,
      },
      ev,
    );
  };
  return part;
}

/** trashed_at of an active note in a full answer is null. */
function activeTrashedAt(n: KnownNote): Expect[] {
  return n.trashed?.value === false
    ? [
        {
          rule: 'notes.trashed-at.null-when-active',
          field: 'trashed_at',
          is: { trashedAt: 'null' },
          from: 'the note is active',
        },
      ]
    : [];
}

function linksOf(n: KnownNote): Expect[] {
  return noteFields(n, 'write').filter((e) => e.field === 'collection_ids');
}

/**
 * PATCH /v2/notes/{id}/created-at: refused while trashed, and later than the original creation
 * ("it can only backdate"); the owner's backdate of an active note before its original creation is
 * accepted. Accepted: created_at is the value sent, and content, title and version stay.
 */
function setCreatedAt(ask: Ask): Part {
  const { world, r, body, problems, tol } = ask;
  const n = liveNote(world, r.params.note_id, r);
  if (!n) return {};
  const s = stranger(ask, n);
  const refuse: Refuse[] = [...(s.refuse ?? [])];
  const sent = instantOf(body.created_at);
  if (n.trashed?.value === true)
    refuse.push({
      rule: 'notes.set-created-at.trashed-refused',
      what: 'set-created-at on a trashed note',
      context: n.trashed.by,
    });
  const later =
    sent !== undefined &&
    n.original !== undefined &&
    sent > n.original &&
    !sameInstant(sent, n.original, tol.precisionMs);
  if (later)
    refuse.push({
      rule: 'notes.set-created-at.backdate-only',
      what: `created_at ${show(body.created_at)}, later than the note's original creation ${iso(n.original!)}`,
    });
  const part: Part = { ...s, refuse, accept: [], answer: [] };
  const mine = n.owner === r.actor && r.ownToken;
  const valid = sent !== undefined && n.original !== undefined && !later;
  if (mine && problems.length === 0 && n.trashed?.value === true && valid)
    part.kind = {
      kind: 'trashed',
      rule: 'errors.status.trashed',
      why: 'set-created-at on a trashed note, with a valid backdate',
    };
  // Equal to the original is the boundary's (original-inclusive); within the precision, nothing is certain.
  if (
    mine &&
    problems.length === 0 &&
    n.trashed?.value === false &&
    sent !== undefined &&
    n.original !== undefined &&
    sent < n.original - tol.precisionMs
  ) {
    const restored = n.trashed.rule === 'notes.restore.returns-to-active';
    const current = n.createdAt?.value;
    part.accept!.push({
      rule: restored
        ? 'notes.restore.edits-allowed-again'
        : current !== undefined && sent > current
          ? 'notes.set-created-at.original-creation-bound'
          : 'notes.set-created-at.applied',
      what: `the owner's backdate of its active note to ${show(body.created_at)}, before its original creation ${iso(n.original)}`,
    });
  }
  const answer = part.answer!;
  if (sent !== undefined)
    answer.push({ rule: 'notes.set-created-at.applied', field: 'created_at', is: { instant: sent }, from: 'sent' });
  if (n.version)
    answer.push({
      rule: 'notes.set-created-at.version-unchanged',
      field: 'version',
      is: { equal: n.version.value },
      from: `it was ${n.version.value}, and set-created-at changes metadata only, not the content document`,
      context: n.version.by,
    });
  for (const field of ['content', 'title'] as const) {
    const fact = n[field];
    if (fact)
      answer.push({
        rule: 'notes.set-created-at.metadata-only',
        field,
        is: { equal: fact.value },
        from: `it was ${show(fact.value)}`,
        context: fact.by,
      });
  }
  answer.push(...activeTrashedAt(n), ...linksOf(n));
  part.refused = ({ ev }, all) => {
    n.refusals.push({
      rule: blame(
        all.refuse,
        'notes.set-created-at.applied',
        permissionRule(ask, n.owner, 'auth.scope.notes-isolated', 'notes.set-created-at.requires-owner'),
      ),
      by: ev,
      asked: pick(body, ['created_at']),
    });
  };
  part.accepted = (a, { ev }) => createdAtSet(n, instantOf(a.created_at), ev);
  return part;
}

/**
 * Trash, restore and delete (section 3): the owner's delete of its note, active or trashed, is
 * accepted; the state changes as the table says; what they do to version and updated_at is not shown.
 */
function lifecycle(ask: Ask): Part {
  const { world, r, problems } = ask;
  const n = liveNote(world, r.params.note_id, r);
  if (!n) return {};
  const op = r.op!;
  const part: Part = { ...(op === 'restoreNote' ? {} : stranger(ask, n)) };
  const mine = n.owner === r.actor && r.ownToken && problems.length === 0;
  // The owner deletes its note active or trashed, trashes an active one, restores a trashed one (section 3).
  if (mine && op === 'deleteNote')
    part.accept = [
      {
        rule: 'notes.delete.active-or-trashed',
        what: `the owner's delete of its ${n.trashed?.value ? 'trashed' : 'active'} note, which the document allows`,
      },
    ];
  else if (mine && op === 'trashNote' && n.trashed?.value === false)
    part.accept = [{ rule: 'notes.trash.sets-trashed-at', what: "the owner's trash of its active note" }];
  else if (mine && op === 'restoreNote' && n.trashed?.value === true)
    part.accept = [{ rule: 'notes.restore.returns-to-active', what: "the owner's restore of its trashed note" }];
  const permission = {
    trashNote: 'notes.trash.requires-edit',
    deleteNote: 'notes.delete.requires-edit',
    restoreNote: undefined,
  }[op as 'trashNote' | 'deleteNote' | 'restoreNote'];
  // A refused trash of a trashed note (or restore of an active one) asked for nothing to change.
  const changes = op === 'deleteNote' || n.trashed?.value === (op === 'restoreNote');
  part.refused = ({ ev }) => {
    if (!changes) return;
    n.refusals.push({
      rule:
        (permission ? permissionRule(ask, n.owner, 'auth.scope.notes-isolated', permission) : undefined) ??
        (op === 'trashNote'
          ? 'notes.trash.sets-trashed-at'
          : op === 'deleteNote'
            ? 'notes.delete.permanent'
            : 'notes.restore.returns-to-active'),
      by: ev,
      asked: op === 'deleteNote' ? { deleted: true } : { trashed: op === 'trashNote' },
    });
  };
  part.accepted = (_a, { ev }) => {
    if (op === 'deleteNote') noteDeleted(world, n, ev);
    else noteTrashed(world, n, op === 'trashNote', ev);
  };
  return part;
}

/**
 * GET /v2/notes/{id}: a deleted note is gone; the owner's read of a note it knows alive succeeds
 * where the run has a reason (a refused delete, a trashed note "remains readable by id"); the full
 * note agrees with everything known, and a note created with content only has no media.
 */
function getNote(ask: Ask): Part {
  const { world, r } = ask;
  const n = world.notes.get(r.params.note_id ?? '');
  if (!n || n.clock.inFlight > 0 || n.clock.lastEndSeq >= r.startSeq) return {};
  if (n.deleted)
    return {
      refuse: [
        {
          rule: 'notes.delete.permanent',
          what: `a note deleted by ${n.deleted.by.method} ${n.deleted.by.path}`,
          context: n.deleted.by,
        },
      ],
    };
  const part: Part = { ...stranger(ask, n), accept: [] };
  if (n.owner === r.actor && r.ownToken) {
    const refusal = n.refusals.find((f) => 'deleted' in f.asked);
    if (refusal)
      part.accept!.push({
        rule: refusal.rule,
        what: `the note, though its delete was refused (${refusal.by.method} ${refusal.by.path} answered ${refusal.by.status})`,
        context: refusal.by,
      });
    else if ([...n.unlinked.values()].some((f) => f.rule === 'collections.delete.unlinks-notes'))
      // "permanently deletes the collection resource": the notes it held stay.
      part.accept!.push({ rule: 'collections.delete.notes-survive', what: 'a note of a collection that was deleted' });
    else if (n.trashed?.value)
      for (const rule of ['notes.trash.readable-by-id', 'notes.read.trashed-included'])
        part.accept!.push({ rule, what: 'a trashed note, which stays readable by id', context: n.trashed.by });
  }
  const answer = noteFields(n, 'read');
  // Whether markdown images or links become attachments is not shown: only plain content is judged.
  if (n.content && !/!\[|\]\(/.test(n.content.value))
    for (const field of ['audio_recording_ids', 'attachment_metadata'])
      answer.push({
        rule: 'notes.read.response-fields',
        field,
        is: { equal: [] },
        from: 'the note was created with content only',
      });
  return {
    ...part,
    about: n.id,
    answer,
    accepted: (a, { ev }) => {
      if (a.id !== n.id) return;
      if (!n.version) learnVersion(n, a.version, ev);
      if (!n.trashed && 'trashed_at' in a) learnTrashed(n, a.trashed_at, ev);
    },
  };
}
