import { createdAtSet, noteCreated, noteDeleted, noteTrashed, noteUpdated } from '../behaviour/effects.js';
import { UPDATE_RULES, versionOutcome } from '../behaviour/outcomes.js';
import type { KnownNote } from '../behaviour/state.js';
import { agreeNote } from './agree-note.js';
import { instantOf, ms, sameInstant, serverTimeWindow, show } from './compare.js';
import type { Env } from './env.js';
import { type Observation, objectOf } from './observation.js';
import { noteRefusalRule } from './refusal-rules.js';

const ok = (o: Observation) => o.x.status >= 200 && o.x.status < 300;
const isNote = (value: unknown): value is Record<string, unknown> & { id: string } =>
  typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string';

/** A note the run knows, alive and settled for judging an answer to `o` (nothing else in flight on it). */
function liveNote(env: Env, id: string | undefined, o: Observation): KnownNote | undefined {
  const n = id === undefined ? undefined : env.world.notes.get(id);
  if (!n || n.deleted || n.clock.inFlight > 1 || n.clock.lastEndSeq >= o.startSeq) return undefined;
  return n;
}

/** POST /v2/notes: the answer agrees with what was sent, and the new note enters the shadow. */
export function createNote(env: Env, o: Observation): void {
  const { j, world } = env;
  const body = objectOf(o.body);
  const supplied = typeof body.id === 'string' ? body.id : undefined;
  const existing = liveNote(env, supplied, o);
  if (!ok(o)) {
    if (existing && o.x.status < 500)
      existing.refusals.push({
        rule:
          existing.owner === o.actor ? 'notes.create.id-conflict-no-upsert' : 'notes.create.id-conflict-409-other-user',
        by: o.ev,
        asked: pick(body, ['content', 'created_at', 'updated_at']),
      });
    return;
  }
  const r = o.x.json;
  if (!isNote(r)) return;
  const what = `${o.method} ${o.path}`;
  const at = instantOf(env.precisionMs);
  if (existing && (existing.owner === 'primary' || existing.owner === 'secondary'))
    j.that(
      existing.owner !== o.actor
        ? 'notes.create.id-conflict-409-other-user'
        : existing.trashed?.value
          ? 'notes.create.id-conflict-409-trashed'
          : 'notes.create.id-conflict-409',
      false,
      () => `${what} with the id of an existing note (${supplied}) was accepted (${o.x.status}), not refused with 409`,
      o.x,
      existing.content?.by,
    );
  if (supplied)
    j.that(
      'notes.create.id-honoured',
      r.id === supplied,
      () => `${what}: sent id ${supplied}, answered id ${show(r.id)}`,
      o.x,
    );
  if (typeof body.content === 'string')
    j.that(
      'notes.create.content-stored',
      r.content === body.content,
      () => `${what}: the answer's content ${show(r.content)} is not the content sent ${show(body.content)}`,
      o.x,
    );
  const created = ms(body.created_at);
  const updated = ms(body.updated_at);
  if (created !== undefined)
    j.that(
      'notes.create.created-at-honoured',
      at(r.created_at, created),
      () => `${what}: created_at ${show(r.created_at)}, sent ${show(body.created_at)}`,
      o.x,
    );
  else if (updated !== undefined && body.created_at === undefined)
    j.that(
      'notes.create.created-at-defaults-to-updated-at',
      at(r.created_at, updated),
      () =>
        `${what}: no created_at was sent, so it is the updated_at sent (${show(body.updated_at)}), not ${show(r.created_at)}`,
      o.x,
    );
  if (updated !== undefined)
    j.that(
      'notes.create.updated-at-honoured',
      at(r.updated_at, updated),
      () => `${what}: updated_at ${show(r.updated_at)}, sent ${show(body.updated_at)}`,
      o.x,
    );
  const serverTime = serverTimeOf(env, o);
  if (body.created_at == null && body.updated_at == null && 'created_at' in r)
    j.that(
      'notes.create.created-at-defaults-to-server-time',
      serverTime(r.created_at),
      () => `${what}: no timestamp was sent, so created_at is the server time, not ${show(r.created_at)}`,
      o.x,
    );
  if (body.updated_at == null && 'updated_at' in r)
    j.that(
      'notes.create.updated-at-defaults-to-server-time',
      serverTime(r.updated_at),
      () => `${what}: no updated_at was sent, so it is the server time, not ${show(r.updated_at)}`,
      o.x,
    );
  j.that(
    'notes.create.version-positive',
    Number.isInteger(r.version) && (r.version as number) >= 1,
    () => `${what}: version ${show(r.version)} is not an integer of at least 1`,
    o.x,
  );
  const answeredLinks = Array.isArray(r.collection_ids)
    ? r.collection_ids.filter((v): v is string => typeof v === 'string')
    : [];
  // A title of another user's collection links nothing of theirs (their collections are not accessible).
  const titles = Array.isArray(body.collection_titles)
    ? body.collection_titles.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase())
    : [];
  const ids = Array.isArray(body.collection_ids) ? body.collection_ids : [];
  for (const c of world.collections.values()) {
    if (c.deleted || c.owner === o.actor || !isTokenUser(c.owner) || !isTokenUser(o.actor)) continue;
    const byId = ids.includes(c.id);
    const byTitle = c.title !== undefined && titles.includes(c.title.value.toLowerCase());
    if (!byTitle && !byId) continue;
    const rule = byId
      ? 'notes.create.collection-ids-inaccessible-ignored'
      : 'notes.create.collection-titles-inaccessible-ignored';
    if (!byId)
      j.that(
        rule,
        !answeredLinks.includes(c.id),
        () =>
          `${what}: collection_titles named ${show(c.title!.value)}, and the note was linked to the` +
          ` ${c.owner} user's collection ${c.id}`,
        o.x,
      );
    // Linked all the same where the answer does not show it: the owner's note_count would tell.
    c.refusals.push({ rule, by: o.ev, asked: { foreignNote: r.id } });
  }
  for (const cid of Array.isArray(body.collection_ids) ? body.collection_ids : []) {
    const c = typeof cid === 'string' ? world.collections.get(cid) : undefined;
    if (c?.deleted)
      j.that(
        'notes.create.collection-ids-unknown-ignored',
        !answeredLinks.includes(c.id),
        () =>
          `${what}: collection_ids named ${c.id}, deleted by ${c.deleted!.by.method} ${c.deleted!.by.path}, and the note is in it`,
        o.x,
        c.deleted.by,
      );
    if (!c || c.deleted || c.clock.inFlight > 1) continue;
    if (c.owner === o.actor)
      j.that(
        'notes.create.collection-ids-linked',
        answeredLinks.includes(c.id),
        () =>
          `${what}: collection_ids named the caller's collection ${c.id}, but the note is not in it (${show(r.collection_ids)})`,
        o.x,
      );
    else if (isTokenUser(c.owner) && isTokenUser(o.actor))
      j.that(
        'notes.create.collection-ids-inaccessible-ignored',
        !answeredLinks.includes(c.id),
        () => `${what}: collection_ids named another user's collection ${c.id}, and the note was linked to it`,
        o.x,
      );
  }
  // The new note as the shadow knows it (the one interpreter: kit/core/behaviour/effects.ts).
  noteCreated(
    world,
    {
      id: r.id,
      owner: o.actor,
      ...(typeof body.content === 'string' ? { content: body.content } : {}),
      ...(typeof r.title === 'string' ? { title: r.title } : {}),
      ...(Number.isInteger(r.version) ? { version: r.version as number } : {}),
      ...optionalMs('createdAt', r.created_at),
      ...optionalMs('updatedAt', r.updated_at),
      suppliedCreated: created !== undefined,
      suppliedUpdated: updated !== undefined,
      links: answeredLinks,
      named: Array.isArray(body.collection_ids) ? body.collection_ids : [],
      endSeq: o.endSeq,
      endedAt: o.endedAt,
    },
    o.ev,
  );
}

/** { [key]: the instant } when `value` is a timestamp, else nothing. */
function optionalMs<K extends string>(key: K, value: unknown): Partial<Record<K, number>> {
  const t = ms(value);
  return t === undefined ? {} : ({ [key]: t } as Record<K, number>);
}

/** PATCH /v2/notes/{id}: the answer holds what was sent, and the note's content changes. */
export function updateNote(env: Env, o: Observation): void {
  const { j } = env;
  const n = liveNote(env, o.params.note_id, o);
  if (!n) return;
  const body = objectOf(o.body);
  if (!ok(o)) {
    if (o.x.status < 500)
      n.refusals.push({
        rule: noteRefusalRule('updateNote', n, o),
        by: o.ev,
        asked: pick(body, ['content', 'updated_at']),
      });
    return;
  }
  const r = objectOf(o.x.json);
  const what = `${o.method} ${o.path}`;
  // What the document predicted of this update (kit/core/behaviour/outcomes.ts): accepted, it must have been current.
  if (n.trashed?.value === true)
    j.that(
      UPDATE_RULES.trashed,
      false,
      () => `${what} of a trashed note was accepted (${o.x.status})`,
      o.x,
      n.trashed.by,
    );
  const expected = Number.isInteger(body.version) ? versionOutcome(n, body.version as number) : undefined;
  if (expected === 'stale' || expected === 'ahead')
    j.that(
      UPDATE_RULES[expected],
      false,
      () => `${what} with version ${body.version} was accepted though the note's version is ${n.version!.value}`,
      o.x,
      n.version!.by,
    );
  if (typeof body.content === 'string')
    j.that(
      'notes.update.content-replaced',
      r.content === body.content,
      () => `${what}: the answer's content ${show(r.content)} is not the content sent ${show(body.content)}`,
      o.x,
    );
  if (Number.isInteger(body.version) && 'version' in r)
    j.that(
      'notes.update.version-changes',
      Number.isInteger(r.version) && r.version !== body.version,
      () => `${what}: the update sent version ${body.version} and answered version ${show(r.version)}`,
      o.x,
    );
  const created = n.createdAt;
  if (created)
    j.that(
      'notes.update.created-at-unchanged',
      instantOf(env.precisionMs)(r.created_at, created.value),
      () => `${what}: created_at became ${show(r.created_at)}, it was ${new Date(created.value).toISOString()}`,
      o.x,
      created.by,
    );
  const updated = ms(body.updated_at);
  if (body.updated_at == null && 'updated_at' in r)
    j.that(
      'notes.update.updated-at-defaults-to-server-time',
      serverTimeOf(env, o)(r.updated_at),
      () => `${what}: no updated_at was sent, so it is the server time of the update, not ${show(r.updated_at)}`,
      o.x,
    );
  if (updated !== undefined)
    j.that(
      'notes.update.updated-at-honoured',
      instantOf(env.precisionMs)(r.updated_at, updated),
      () => `${what}: updated_at ${show(r.updated_at)}, sent ${show(body.updated_at)}`,
      o.x,
    );
  if ('trashed_at' in r && n.trashed?.value === false)
    j.that(
      'notes.trashed-at.null-when-active',
      r.trashed_at === null,
      () => `${what}: trashed_at of an active note is ${show(r.trashed_at)}`,
      o.x,
    );
  agreeNote(env, n, pick(r, ['collection_ids']), 'full', o.x);
  noteUpdated(
    n,
    {
      ...(typeof body.content === 'string' ? { content: body.content } : {}),
      ...(typeof r.title === 'string' ? { title: r.title } : {}),
      ...(Number.isInteger(r.version) ? { version: r.version as number } : {}),
      ...optionalMs('updatedAt', r.updated_at),
      suppliedUpdated: updated !== undefined,
    },
    o.ev,
  );
}

/** PATCH /v2/notes/{id}/created-at: metadata only, backdate only, version unchanged. */
export function setCreatedAt(env: Env, o: Observation): void {
  const { j } = env;
  const n = liveNote(env, o.params.note_id, o);
  if (!n) return;
  const body = objectOf(o.body);
  if (!ok(o)) {
    if (o.x.status < 500)
      n.refusals.push({ rule: noteRefusalRule('setNoteCreatedAt', n, o), by: o.ev, asked: pick(body, ['created_at']) });
    return;
  }
  const r = objectOf(o.x.json);
  const what = `${o.method} ${o.path}`;
  const sent = ms(body.created_at);
  if (n.trashed?.value === true)
    j.that(
      'notes.set-created-at.trashed-refused',
      false,
      () => `${what} on a trashed note was accepted (${o.x.status})`,
      o.x,
      n.trashed.by,
    );
  if (sent !== undefined && n.original !== undefined)
    j.that(
      'notes.set-created-at.backdate-only',
      sent <= n.original || sameInstant(sent, n.original, env.precisionMs),
      () =>
        `${what}: created_at ${show(body.created_at)} is later than the note's original creation` +
        ` ${new Date(n.original!).toISOString()}, and it was accepted`,
      o.x,
    );
  if (sent !== undefined)
    j.that(
      'notes.set-created-at.applied',
      instantOf(env.precisionMs)(r.created_at, sent),
      () => `${what}: the answer's created_at is ${show(r.created_at)}, sent ${show(body.created_at)}`,
      o.x,
    );
  if (n.version && 'version' in r)
    j.that(
      'notes.set-created-at.version-unchanged',
      r.version === n.version.value,
      () =>
        `${what}: version went from ${n.version!.value} to ${show(r.version)}, though set-created-at changes metadata only, not the content document`,
      o.x,
      n.version.by,
    );
  for (const field of ['content', 'title'] as const) {
    const fact = n[field];
    if (fact && field in r)
      j.that(
        'notes.set-created-at.metadata-only',
        r[field] === fact.value,
        () => `${what}: ${field} became ${show(r[field])}, it was ${show(fact.value)}`,
        o.x,
        fact.by,
      );
  }
  if ('trashed_at' in r && n.trashed?.value === false)
    j.that(
      'notes.trashed-at.null-when-active',
      r.trashed_at === null,
      () => `${what}: trashed_at of an active note is ${show(r.trashed_at)}`,
      o.x,
    );
  agreeNote(env, n, pick(r, ['collection_ids']), 'full', o.x);
  createdAtSet(n, ms(r.created_at), o.ev);
}

/** Trash, restore and delete: the state changes as section 3 says; what it does to version and updated_at is not shown. */
export function lifecycle(env: Env, o: Observation): void {
  const { world } = env;
  const n = liveNote(env, o.params.note_id, o);
  if (!n) return;
  if (!ok(o)) {
    if (o.x.status < 500)
      n.refusals.push({
        rule: noteRefusalRule(o.op!, n, o),
        by: o.ev,
        asked: o.op === 'deleteNote' ? { deleted: true } : { trashed: o.op === 'trashNote' },
      });
    return;
  }
  if (o.op === 'deleteNote') noteDeleted(world, n, o.ev);
  else noteTrashed(world, n, o.op === 'trashNote', o.ev);
}

/** Whether an instant the answer reports is the server time of the exchange (compare.ts serverTimeWindow). */
export function serverTimeOf(env: Env, o: Observation): (value: unknown) => boolean {
  const { low, high } = serverTimeWindow(o.x, o.startedAt, o.endedAt, env.clockToleranceMs, env.precisionMs);
  return (value) => {
    const t = ms(value);
    return t !== undefined && t >= low && t <= high;
  };
}

export function isTokenUser(owner: string): boolean {
  return owner === 'primary' || owner === 'secondary';
}

export function pick(body: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((f) => f in body).map((f) => [f, body[f]]));
}
