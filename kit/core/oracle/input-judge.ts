import { atSize, LIMITS, type SizeLimit } from '../../../spec/limits.js';
import { isUuid } from '../../../spec/patterns.js';
import { ms, sameInstant, show } from './compare.js';
import type { Env } from './env.js';
import { judgeErrorBody } from './error-body.js';
import { integerOf, type Problem } from './inputs.js';
import { isTokenUser } from './note-writes.js';
import { type Observation, objectOf } from './observation.js';
import { knownCollection, knownNote, notAnAnswer } from './settled.js';

/**
 * What the document says of a request's input, judged on its answer, whichever check sent it:
 * a request with a documented problem must be refused with a 4xx (its exact status only where
 * the profile declares one and nothing else could explain the refusal), a refused create leaves
 * nothing under the id it supplied, and a value exactly at a documented limit must be accepted.
 * Rate-limit and quota refusals answer nothing about the input and are left alone.
 */
export function judgeInput(env: Env, o: Observation, problems: readonly Problem[]): void {
  if (notAnAnswer(env, o)) return;
  if (o.noCredentials || o.unknownToken) {
    judgeUnauthenticated(env, o);
    return;
  }
  if (o.malformedBody && o.path.startsWith('/v2/') && o.method !== 'GET')
    env.j.that(
      'errors.bad-input.no-5xx',
      o.x.status >= 400 && o.x.status < 500,
      () => `${o.method} ${o.path}: a body that is not JSON gets a 4xx refusal; the target answered ${o.x.status}`,
      o.x,
    );
  createdAnyway(env, o);
  if (problems.length > 0) judgeRefusal(env, o, problems);
  else judgeBoundaries(env, o);
}

/**
 * A request of the API without an Authorization header, or with a bearer token no target issued
 * (the kit made it up): refused, with the declared status where there is one.
 */
function judgeUnauthenticated(env: Env, o: Observation): void {
  if (!o.path.startsWith('/v2/')) return;
  const what = `${o.method} ${o.path} ${o.unknownToken ? 'with a bearer token nobody issued' : 'without an Authorization header'}`;
  const refused = o.x.status >= 400 && o.x.status < 500;
  const rules = [o.unknownToken ? 'auth.bearer.invalid-refused' : 'auth.bearer.required'];
  // The capture operation's own statement of the same requirement.
  if (o.op === 'captureNote' && o.noCredentials) rules.push('notes.capture.bearer-required');
  for (const rule of rules)
    env.j.that(
      rule,
      refused,
      () => `${what} answered ${o.x.status}; every endpoint requires bearer authentication with an API key`,
      o.x,
    );
  const declared = env.statuses.unauthenticated;
  if (refused && declared !== undefined)
    env.j.that(
      'errors.status.unauthenticated',
      o.x.status === declared,
      () => `${what} was refused with ${o.x.status}; the profile declares ${declared} for unauthenticated`,
      o.x,
    );
}

function judgeRefusal(env: Env, o: Observation, problems: readonly Problem[]): void {
  const { j } = env;
  const what = `${o.method} ${o.path}`;
  const status = o.x.status;
  const refused = status >= 400 && status < 500;
  for (const p of problems)
    for (const rule of p.rules)
      j.that(
        rule,
        refused,
        () =>
          status >= 500
            ? `${what}: ${p.what}, which is refused with a 4xx; the target answered ${status}`
            : `${what}: ${p.what}, which the document refuses; the target accepted it (${status})`,
        o.x,
      );
  if (status >= 500)
    j.that(
      'errors.bad-input.no-5xx',
      false,
      () => `${what}: ${problems[0]!.what}; bad input gets a 4xx, never ${status}`,
      o.x,
    );
  if (!refused) return;
  rememberRefusedCreate(env, o, problems[0]!);
  if (problems.every((p) => p.validation) && onlyInputExplains(env, o)) {
    judgeErrorBody(env, o, 'validation', problems[0]!.what);
    const declared = env.statuses.validation;
    if (declared !== undefined)
      j.that(
        'errors.status.validation',
        status === declared,
        () => `${what}: ${problems[0]!.what}, refused with ${status}; the profile declares ${declared} for validation`,
        o.x,
      );
  }
}

/**
 * Whether nothing but the input can explain a refusal: the request names no resource whose state
 * might be refused first (a missing or trashed note, another version, a cursor, a snapshot), and
 * it comes from a token user with that user's own credentials.
 */
function onlyInputExplains(env: Env, o: Observation): boolean {
  if (!o.ownToken || !isTokenUser(o.actor)) return false;
  const body = objectOf(o.body);
  const input = o.input ?? {};
  switch (o.op) {
    case 'createNote':
    case 'createCollection':
      // A supplied id that exists, or once did, may be refused as a conflict first.
      return body.id === undefined || (typeof body.id === 'string' && !isUuid(body.id)) || freshId(env, body.id);
    case 'listNotes':
    case 'listCollections':
      return input.cursor === undefined;
    case 'searchNotes':
      return objectOf(input.query).snapshot_id === undefined;
    case 'searchCollections':
      return true;
    case 'getRelatedNotes':
      return liveOwn(knownNote(env, o.params.note_id, o), o);
    case 'updateNote': {
      const n = knownNote(env, o.params.note_id, o);
      if (!liveOwn(n, o) || n!.trashed?.value !== false) return false;
      // With an integer version it must be the current one, or the target may answer the mismatch first.
      return !Number.isInteger(body.version) || body.version === n!.version?.value;
    }
    case 'setNoteCreatedAt': {
      const n = knownNote(env, o.params.note_id, o);
      return liveOwn(n, o) && n!.trashed?.value === false;
    }
    case 'updateCollection':
      return liveOwn(knownCollection(env, o.params.collection_id, o), o);
    default:
      return false;
  }
}

function liveOwn(r: { owner: string; deleted?: unknown } | undefined, o: Observation): boolean {
  return r !== undefined && !r.deleted && r.owner === o.actor;
}

/** A UUID the run never saw as a note's or a collection's id, nor as a refused create's. */
function freshId(env: Env, id: unknown): boolean {
  if (!isUuid(id)) return false;
  const { world } = env;
  return (
    !world.notes.has(id) &&
    !world.collections.has(id) &&
    !world.refusedCreates.has(`note ${id}`) &&
    !world.refusedCreates.has(`collection ${id}`)
  );
}

/** A create refused for its input, with a fresh id of its own: nothing may appear under that id. */
function rememberRefusedCreate(env: Env, o: Observation, p: Problem): void {
  const kind = o.op === 'createNote' ? 'note' : o.op === 'createCollection' ? 'collection' : undefined;
  const id = objectOf(o.body).id;
  if (!kind || !o.ownToken || !freshId(env, id)) return;
  env.world.refusedCreates.set(`${kind} ${id}`, { rule: p.rules[0]!, by: o.ev, asked: { id } });
}

/** A resource found under the id of a create the target refused: the refusal created it after all. */
function createdAnyway(env: Env, o: Observation): void {
  const kind = o.op === 'getNote' ? 'note' : o.op === 'getCollection' ? 'collection' : undefined;
  if (!kind || o.x.status < 200 || o.x.status >= 300) {
    // A successful create under that id starts it afresh.
    const created = o.op === 'createNote' ? 'note' : o.op === 'createCollection' ? 'collection' : undefined;
    const id = objectOf(o.body).id;
    if (created && o.x.status >= 200 && o.x.status < 300) env.world.refusedCreates.delete(`${created} ${id}`);
    return;
  }
  const id = o.params.note_id ?? o.params.collection_id;
  const refusal = env.world.refusedCreates.get(`${kind} ${id}`);
  if (!refusal) return;
  env.j.that(
    refusal.rule,
    false,
    () =>
      `${o.method} ${o.path} answered ${o.x.status}: the ${kind} exists, though its create was refused` +
      ` (${refusal.by.method} ${refusal.by.path} answered ${refusal.by.status}); a refusal creates nothing`,
    o.x,
    refusal.by,
  );
}

/** One documented boundary a request stands on, and the rule that says it is accepted. */
interface Boundary {
  readonly rule: string;
  readonly what: string;
}

function sizeBoundary(
  field: string,
  value: unknown,
  limit: SizeLimit,
  charsRule: string,
  bytesRule?: string,
): Boundary[] {
  if (typeof value !== 'string') return [];
  return atSize(value, limit).flatMap((at) =>
    at === 'chars'
      ? [{ rule: charsRule, what: `${field} of exactly ${limit.chars} characters` }]
      : bytesRule
        ? [{ rule: bytesRule, what: `${field} of exactly ${limit.bytes} UTF-8 bytes` }]
        : [],
  );
}

function rangeBoundary(
  field: string,
  value: unknown,
  range: { readonly min: number; readonly max?: number },
  rule: string,
): Boundary[] {
  const n = integerOf(value);
  return n !== undefined && (n === range.min || n === range.max)
    ? [{ rule, what: `${field} ${n}, at the edge of ${range.min}..${range.max}` }]
    : [];
}

/** A past instant written with an offset east of UTC: as text it may read as later than now. */
function eastPast(env: Env, o: Observation, body: Record<string, unknown>): Boundary[] {
  const stamps = (['created_at', 'updated_at'] as const).filter((f) => body[f] !== undefined);
  // With both given, their order is another question the document does not settle.
  if (stamps.length !== 1) return [];
  const value = body[stamps[0]!];
  const at = ms(value);
  if (typeof value !== 'string' || at === undefined || !/\+(0[1-9]|1\d):?\d{2}$/.test(value)) return [];
  return at < o.startedAt - env.clockToleranceMs
    ? [{ rule: 'conventions.timestamps.compare-instants', what: `${stamps[0]} ${value}, a past instant` }]
    : [];
}

/** The collection create fields the document allows null for. */
const COLLECTION_NULLABLE = ['description', 'id', 'created_at', 'updated_at'];

const only = (body: Record<string, unknown>, fields: readonly string[]) =>
  Object.entries(body).every(([k, v]) => fields.includes(k) && v !== null);

/** The boundaries a request without problems stands on, where nothing else it names could be refused. */
function boundariesOf(env: Env, o: Observation): Boundary[] {
  const body = objectOf(o.body);
  const input = o.input ?? {};
  switch (o.op) {
    case 'createNote': {
      if (!only(body, ['content', 'collection_ids', 'collection_titles', 'created_at', 'updated_at', 'id'])) return [];
      if (body.id !== undefined && !freshId(env, body.id)) return [];
      // "ids not mapping to accessible collections are ignored": a deleted collection's id maps to none.
      const gone = (Array.isArray(body.collection_ids) ? body.collection_ids : []).filter(
        (id) => typeof id === 'string' && env.world.collections.get(id)?.deleted !== undefined,
      );
      // "unmatched titles ignored": the title of a collection the caller deleted, held by no collection the run knows.
      const known = [...env.world.collections.values()];
      const unmatched = (Array.isArray(body.collection_titles) ? body.collection_titles : []).filter(
        (t): t is string =>
          typeof t === 'string' &&
          known.some((c) => c.deleted && c.owner === o.actor && c.title?.value.toLowerCase() === t.toLowerCase()) &&
          !known.some((c) => !c.deleted && c.title?.value.toLowerCase() === t.toLowerCase()),
      );
      return [
        ...gone.map((id) => ({
          rule: 'notes.create.collection-ids-unknown-ignored',
          what: `collection_ids naming ${id}, a deleted collection`,
        })),
        ...unmatched.map((t) => ({
          rule: 'notes.create.collection-titles-unmatched-ignored',
          what: `collection_titles naming ${show(t)}, the title of a deleted collection only`,
        })),
        ...sizeBoundary(
          'content',
          body.content,
          LIMITS.noteContentCreate,
          'notes.create.content-max-chars',
          'notes.create.content-max-bytes',
        ),
        ...(Array.isArray(body.collection_titles) ? body.collection_titles : []).flatMap((entry) =>
          sizeBoundary(
            'a collection_titles entry',
            entry,
            LIMITS.collectionTitlesEntry,
            'notes.create.collection-titles-max-chars',
            'notes.create.collection-titles-max-bytes',
          ),
        ),
        ...eastPast(env, o, body),
      ];
    }
    case 'createCollection': {
      // "string or null", "uuid or null", "date-time or null": a null there is as good as a value.
      const nulls = COLLECTION_NULLABLE.filter((f) => body[f] === null);
      const rest = Object.fromEntries(Object.entries(body).filter(([k]) => !nulls.includes(k)));
      if (!only(rest, ['title', 'description', 'created_at', 'updated_at', 'id'])) return [];
      if (rest.id !== undefined && !freshId(env, rest.id)) return [];
      return [
        ...collectionSizes(rest, 'create'),
        ...eastPast(env, o, rest),
        ...(nulls.length > 0 ? [{ rule: 'collections.create.nullable-fields', what: `null ${nulls.join(', ')}` }] : []),
      ];
    }
    case 'updateCollection':
      if (!only(body, ['title', 'description']) || !liveOwn(knownCollection(env, o.params.collection_id, o), o))
        return [];
      return collectionSizes(body, 'update');
    case 'listNotes':
    case 'listCollections': {
      const fields = ['limit', 'order_by', 'created_after', 'created_before', 'updated_after', 'updated_before'];
      if (!only(input, fields)) return [];
      return o.op === 'listNotes'
        ? rangeBoundary('limit', input.limit, LIMITS.notesListLimit, 'notes.list.limit-range')
        : rangeBoundary('limit', input.limit, LIMITS.collectionsListLimit, 'collections.list.limit-range');
    }
    case 'searchNotes': {
      const q = objectOf(input.query);
      const b = objectOf(input.body);
      if (!only(q, ['limit', 'offset']) || !only(b, ['query']) || (integerOf(q.offset) ?? 0) !== 0) return [];
      const out = rangeBoundary('limit', q.limit, LIMITS.searchLimit, 'notes.search.limit-range');
      if (typeof b.query === 'string' && /^\s|\s$/.test(b.query))
        out.push({
          rule: 'notes.search.query-non-whitespace',
          what: `query ${show(b.query)}, words with whitespace around them`,
        });
      return out;
    }
    case 'getRelatedNotes':
      if (!only(input, ['limit']) || !liveOwn(knownNote(env, o.params.note_id, o), o)) return [];
      return rangeBoundary('limit', input.limit, LIMITS.relatedLimit, 'notes.related.limit-range');
    case 'setNoteCreatedAt': {
      const n = knownNote(env, o.params.note_id, o);
      const sent = ms(body.created_at);
      if (!only(body, ['created_at']) || !liveOwn(n, o) || n!.trashed?.value !== false) return [];
      if (n!.original === undefined || sent === undefined || !sameInstant(sent, n!.original, env.precisionMs))
        return [];
      return [
        {
          rule: 'notes.set-created-at.original-inclusive',
          what: `created_at ${show(body.created_at)}, the note's original creation time as its create reported it`,
        },
      ];
    }
    default:
      return [];
  }
}

function collectionSizes(body: Record<string, unknown>, op: 'create' | 'update'): Boundary[] {
  const rules =
    op === 'create'
      ? {
          titleChars: 'collections.create.title-max-chars',
          titleBytes: 'collections.create.title-max-bytes',
          descriptionChars: 'collections.create.description-max-chars',
          descriptionBytes: 'collections.create.description-max-bytes',
        }
      : {
          titleChars: 'collections.update.title-max-chars',
          titleBytes: 'collections.update.title-max-bytes',
          descriptionChars: 'collections.update.description-max-chars',
          descriptionBytes: 'collections.update.description-max-bytes',
        };
  return [
    ...sizeBoundary('title', body.title, LIMITS.collectionTitle, rules.titleChars, rules.titleBytes),
    ...sizeBoundary(
      'description',
      body.description,
      LIMITS.collectionDescription,
      rules.descriptionChars,
      rules.descriptionBytes,
    ),
  ];
}

/** A request standing exactly on a documented limit, with nothing else to refuse: it must be accepted. */
function judgeBoundaries(env: Env, o: Observation): void {
  if (!o.ownToken || !isTokenUser(o.actor) || o.op === undefined) return;
  for (const b of boundariesOf(env, o))
    env.j.that(
      b.rule,
      o.x.status >= 200 && o.x.status < 300,
      () =>
        `${o.method} ${o.path}: ${b.what} is within what the document allows and must be accepted;` +
        ` the target answered ${o.x.status}`,
      o.x,
    );
}
