import {
  collectionCreated,
  collectionDeleted,
  collectionUpdated,
  type MembershipOp,
  membershipChanged,
} from '../behaviour/effects.js';
import type { KnownCollection, KnownNote } from '../behaviour/state.js';
import { instantOf, ms, show } from './compare.js';
import type { Env } from './env.js';
import { isTokenUser, pick, serverTimeOf } from './note-writes.js';
import { type Observation, objectOf } from './observation.js';
import { collectionRefusalRule, membershipRefusalRule } from './refusal-rules.js';

const ok = (o: Observation) => o.x.status >= 200 && o.x.status < 300;

function liveCollection(env: Env, id: string | undefined, o: Observation): KnownCollection | undefined {
  const c = id === undefined ? undefined : env.world.collections.get(id);
  if (!c || c.deleted || c.clock.inFlight > 1 || c.clock.lastEndSeq >= o.startSeq) return undefined;
  return c;
}

function liveNote(env: Env, id: string | undefined, o: Observation): KnownNote | undefined {
  const n = id === undefined ? undefined : env.world.notes.get(id);
  if (!n || n.deleted || n.clock.inFlight > 1 || n.clock.lastEndSeq >= o.startSeq) return undefined;
  return n;
}

/** POST /v2/collections: the answer holds what was sent, and the collection enters the shadow, empty. */
export function createCollection(env: Env, o: Observation): void {
  const { j, world } = env;
  const body = objectOf(o.body);
  const supplied = typeof body.id === 'string' ? body.id : undefined;
  const existing = liveCollection(env, supplied, o);
  if (!ok(o)) {
    if (existing && o.x.status < 500)
      existing.refusals.push({
        rule:
          existing.owner === o.actor
            ? 'collections.create.id-conflict-no-upsert'
            : 'collections.create.id-conflict-409-other-user',
        by: o.ev,
        asked: pick(body, ['title', 'description', 'created_at', 'updated_at']),
      });
    return;
  }
  const r = objectOf(o.x.json);
  if (typeof r.id !== 'string') return;
  const what = `${o.method} ${o.path}`;
  const at = instantOf(env.precisionMs);
  if (existing && isTokenUser(existing.owner))
    j.that(
      existing.owner === o.actor
        ? 'collections.create.id-conflict-409'
        : 'collections.create.id-conflict-409-other-user',
      false,
      () => `${what} with the id of an existing collection (${supplied}) was accepted (${o.x.status})`,
      o.x,
      existing.title?.by,
    );
  if (supplied)
    j.that(
      'collections.create.id-honoured',
      r.id === supplied,
      () => `${what}: sent id ${supplied}, answered id ${show(r.id)}`,
      o.x,
    );
  if (typeof body.title === 'string')
    j.that(
      'collections.create.fields-stored',
      r.title === body.title,
      () => `${what}: title ${show(r.title)}, sent ${show(body.title)}`,
      o.x,
    );
  if (
    'description' in r &&
    (typeof body.description === 'string' || body.description === null || !('description' in body))
  )
    j.that(
      'collections.create.fields-stored',
      r.description === (body.description ?? null),
      () => `${what}: description ${show(r.description)}, sent ${show(body.description ?? null)}`,
      o.x,
    );
  const created = ms(body.created_at);
  const updated = ms(body.updated_at);
  if (created !== undefined)
    j.that(
      'collections.create.created-at-honoured',
      at(r.created_at, created),
      () => `${what}: created_at ${show(r.created_at)}, sent ${show(body.created_at)}`,
      o.x,
    );
  else if (updated !== undefined)
    j.that(
      'collections.create.created-at-defaults-to-updated-at',
      at(r.created_at, updated),
      () =>
        `${what}: no created_at was sent, so it is the updated_at sent (${show(body.updated_at)}), not ${show(r.created_at)}`,
      o.x,
    );
  if (updated !== undefined)
    j.that(
      'collections.create.updated-at-honoured',
      at(r.updated_at, updated),
      () => `${what}: updated_at ${show(r.updated_at)}, sent ${show(body.updated_at)}`,
      o.x,
    );
  else if (created !== undefined)
    j.that(
      'collections.create.updated-at-defaults-to-created-at',
      at(r.updated_at, created),
      () =>
        `${what}: no updated_at was sent, so it is the created_at sent (${show(body.created_at)}), not ${show(r.updated_at)}`,
      o.x,
    );
  if (body.created_at == null && body.updated_at == null && 'created_at' in r) {
    j.that(
      'collections.create.created-at-defaults-to-server-time',
      serverTimeOf(env, o)(r.created_at),
      () => `${what}: no timestamp was sent, so created_at is the server time, not ${show(r.created_at)}`,
      o.x,
    );
    const rc = ms(r.created_at);
    if (rc !== undefined && 'updated_at' in r)
      j.that(
        'collections.create.created-at-defaults-to-server-time',
        at(r.updated_at, rc),
        () =>
          `${what}: no timestamp was sent, so updated_at is created_at (${show(r.created_at)}), not ${show(r.updated_at)}`,
        o.x,
      );
  }
  const rc = ms(r.created_at);
  const ru = ms(r.updated_at);
  const description = body.description;
  collectionCreated(
    world,
    {
      id: r.id,
      owner: o.actor,
      ...(typeof body.title === 'string' ? { title: body.title } : {}),
      ...(typeof description === 'string' || description === null || !('description' in body)
        ? { description: (description as string | null | undefined) ?? null }
        : {}),
      ...(rc === undefined ? {} : { createdAt: rc }),
      ...(ru === undefined ? {} : { updatedAt: ru }),
      suppliedCreated: created !== undefined,
      suppliedUpdated: updated !== undefined,
      endSeq: o.endSeq,
      endedAt: o.endedAt,
    },
    o.ev,
  );
}

/** PATCH /v2/collections/{id}: provided fields change, omitted ones and created_at stay. */
export function updateCollection(env: Env, o: Observation): void {
  const { j } = env;
  const c = liveCollection(env, o.params.collection_id, o);
  if (!c) return;
  const body = objectOf(o.body);
  if (!ok(o)) {
    if (o.x.status < 500)
      c.refusals.push({
        rule: collectionRefusalRule('updateCollection', c, o),
        by: o.ev,
        asked: pick(body, ['title', 'description']),
      });
    return;
  }
  const r = objectOf(o.x.json);
  const what = `${o.method} ${o.path}`;
  // A null title: whether it means "not provided" or is kept as sent is not shown; the title becomes unknown.
  const nullTitle = body.title === null;
  for (const field of ['title', 'description'] as const) {
    if (field === 'title' && nullTitle) continue;
    const sent = field in body;
    const fact = c[field];
    const expected = sent ? body[field] : fact?.value;
    if (!sent && !fact) continue;
    if (field in r)
      j.that(
        sent ? 'collections.update.fields-applied' : 'collections.update.partial',
        r[field] === expected,
        () =>
          `${what}: ${field} is ${show(r[field])}, ${sent ? 'sent' : 'not sent, so unchanged from'} ${show(expected)}`,
        o.x,
        sent ? undefined : fact?.by,
      );
  }
  const created = c.createdAt;
  if (created && 'created_at' in r)
    j.that(
      'collections.update.partial',
      instantOf(env.precisionMs)(r.created_at, created.value),
      () => `${what}: created_at became ${show(r.created_at)}, it was ${new Date(created.value).toISOString()}`,
      o.x,
      created.by,
    );
  const updated = ms(body.updated_at);
  if (body.updated_at == null && 'updated_at' in r)
    j.that(
      'collections.update.updated-at-defaults-to-server-time',
      serverTimeOf(env, o)(r.updated_at),
      () => `${what}: no updated_at was sent, so it is the server time of the PATCH, not ${show(r.updated_at)}`,
      o.x,
    );
  if (updated !== undefined)
    j.that(
      'collections.update.updated-at-preserved',
      instantOf(env.precisionMs)(r.updated_at, updated),
      () => `${what}: updated_at ${show(r.updated_at)}, sent ${show(body.updated_at)}`,
      o.x,
    );
  collectionUpdated(c, body, ms(r.updated_at), o.ev);
}

/** DELETE /v2/collections/{id}: gone, and no note lists it any more; the notes stay. */
export function deleteCollection(env: Env, o: Observation): void {
  const c = liveCollection(env, o.params.collection_id, o);
  if (!c) return;
  if (!ok(o)) {
    if (o.x.status < 500)
      c.refusals.push({ rule: collectionRefusalRule('deleteCollection', c, o), by: o.ev, asked: { deleted: true } });
    return;
  }
  collectionDeleted(env.world, c, o.ev);
}

/**
 * Add, move and remove: the links change as the document says. What a membership change does to
 * the note's version and updated_at, or the collection's updated_at, is not shown: unknown until read.
 */
export function membership(env: Env, o: Observation): void {
  const { world } = env;
  const op = o.op!;
  const body = objectOf(o.body);
  const note = liveNote(env, o.params.note_id, o);
  const source = liveCollection(env, o.params.collection_id ?? o.params.source_collection_id, o);
  const targetId =
    op === 'moveNote' && typeof body.target_collection_id === 'string' ? body.target_collection_id : undefined;
  const target = liveCollection(env, targetId, o);
  if (!ok(o)) {
    if (note && o.x.status < 500) {
      const rule = membershipRefusalRule(op, o, note, source, target);
      const sourceId = o.params.collection_id ?? o.params.source_collection_id;
      const asked =
        op === 'addNoteToCollection'
          ? { link: sourceId }
          : op === 'moveNote'
            ? { link: targetId, unlink: sourceId }
            : { unlink: sourceId };
      note.refusals.push({ rule, by: o.ev, asked });
    }
    return;
  }
  membershipChanged(world, op as MembershipOp, o.actor, note, source, target, o.ev);
}
