import { atSize, byteCount, charCount, LIMITS, pastSize, type SizeLimit } from '../../../spec/limits.js';
import { OPERATIONS } from '../../../spec/operations.js';
import { instantOf, isUuid, LOCAL_DATE_TIME, readDateTime } from '../../../spec/patterns.js';
import { CONTAINS_KINDS } from '../../../spec/profile.js';
import { sameInstant } from './outcomes.js';
import { liveCollection, liveNote, objectOf, type Request, type Tolerances } from './request.js';
import type { World } from './state.js';

/**
 * What the API document says about a request's input, read from the request alone: the reasons
 * it states for refusing it (a size past a limit, a required field left out, a wrong type, a
 * timestamp without offset or in the future, a limit out of range), each with its rule. Only
 * documented fields are read; what the profile decides (unknown fields, null, names) is left out.
 */
export interface Problem {
  /** The rules that say such a request is refused (the first is the one it was written for). */
  readonly rules: readonly string[];
  /** The problem in words, for a finding's message. */
  readonly what: string;
  /**
   * A validation failure whatever the state of the resources (the profile's statuses.validation
   * answers it); false where the target may see another reason first (a missing snapshot, say).
   */
  readonly validation: boolean;
}

/** A request as the oracle reads its input: the operation, its body and its query in the kit's own names. */
export interface InputOf {
  readonly op: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly input?: Readonly<Record<string, unknown>>;
}

interface StampRules {
  /** The rule of "offset required" for this field. */
  readonly offset: string;
  /** The rule of "not in the future", where the document states one. */
  readonly future?: string;
  /** The rule of a wrong JSON type, where one covers timestamps. */
  readonly types?: string;
  /** Whether conventions.timestamps.real-dates and compare-instants name this operation. */
  readonly conventions: boolean;
}

/** The problems of one supplied timestamp; `now` is when the target answered, by the kit's clock. */
function stampProblems(field: string, value: unknown, rules: StampRules, now: number, toleranceMs: number): Problem[] {
  // Null is the profile's (null_fields); absent is no problem.
  if (value === undefined || value === null) return [];
  if (typeof value !== 'string')
    return rules.types ? [{ rules: [rules.types], what: `${field} is not a string`, validation: true }] : [];
  if (LOCAL_DATE_TIME.test(value))
    return [{ rules: [rules.offset], what: `${field} ${value} has no timezone offset`, validation: true }];
  const read = readDateTime(value);
  if (!read) return [];
  if (!read.realDate)
    return rules.conventions
      ? [
          {
            rules: ['conventions.timestamps.real-dates'],
            what: `${field} ${value} names a day that does not exist`,
            validation: true,
          },
        ]
      : [];
  // Future beyond any clock difference the profile allows: the target's own clock shows it as future too.
  if (!rules.future || read.ms <= now + toleranceMs) return [];
  // Written with a west offset, a future instant reads earlier than now as text: compare-instants says instants decide.
  const west = read.designator.startsWith('-') && rules.conventions;
  return [
    {
      rules: west ? [rules.future, 'conventions.timestamps.compare-instants'] : [rules.future],
      what: `${field} ${value} is in the future`,
      validation: true,
    },
  ];
}

function sizeProblems(
  field: string,
  value: unknown,
  limit: SizeLimit,
  charsRule: string,
  bytesRule?: string,
): Problem[] {
  if (typeof value !== 'string') return [];
  const past = pastSize(value, limit);
  if (past === 'chars')
    return [{ rules: [charsRule], what: `${field} is longer than ${limit.chars} characters`, validation: true }];
  if (past === 'bytes' && bytesRule)
    return [{ rules: [bytesRule], what: `${field} is longer than ${limit.bytes} UTF-8 bytes`, validation: true }];
  return [];
}

/** A JSON body that is not an object (an array, a number, a string, null): bad input, refused with a 4xx. */
function notAnObject(body: unknown): Problem[] {
  if (body === undefined) return [];
  return [{ rules: ['errors.bad-input.no-5xx'], what: 'the body is not a JSON object', validation: true }];
}

/** An integer query value as the kit gave it (a number, or a string of digits), else undefined. */
export function integerOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
}

function rangeProblems(
  field: string,
  value: unknown,
  range: { readonly min: number; readonly max?: number },
  rule: string,
): Problem[] {
  if (value === undefined) return [];
  const n = integerOf(value);
  if (n !== undefined && n >= range.min && (range.max === undefined || n <= range.max)) return [];
  const bounds = range.max === undefined ? `at least ${range.min}` : `${range.min}..${range.max}`;
  return [{ rules: [rule], what: `${field} ${JSON.stringify(value)} is not an integer ${bounds}`, validation: true }];
}

function boundProblems(input: Readonly<Record<string, unknown>>, rule: string): Problem[] {
  return ['created_after', 'created_before', 'updated_after', 'updated_before'].flatMap((b) =>
    typeof input[b] === 'string' && LOCAL_DATE_TIME.test(input[b] as string)
      ? [{ rules: [rule], what: `the bound ${b} ${input[b]} has no timezone offset`, validation: true }]
      : [],
  );
}

const ORDER_BY = new Set(['created_at', 'updated_at']);

/** The rules of a create's timestamps, by field (written out: a test reads the oracle's rule ids from its files). */
const NOTE_CREATE_STAMPS: Readonly<Record<'created_at' | 'updated_at', StampRules>> = {
  created_at: {
    offset: 'notes.create.created-at-offset-required',
    future: 'notes.create.created-at-not-future',
    types: 'notes.create.field-types',
    conventions: true,
  },
  updated_at: {
    offset: 'notes.create.updated-at-offset-required',
    future: 'notes.create.updated-at-not-future',
    types: 'notes.create.field-types',
    conventions: true,
  },
};
const COLLECTION_CREATE_STAMPS: Readonly<Record<'created_at' | 'updated_at', StampRules>> = {
  created_at: {
    offset: 'collections.create.created-at-offset-required',
    future: 'collections.create.created-at-not-future',
    conventions: true,
  },
  updated_at: {
    offset: 'collections.create.updated-at-offset-required',
    future: 'collections.create.updated-at-not-future',
    conventions: true,
  },
};

const LIST_RULES = {
  listNotes: {
    limit: 'notes.list.limit-range',
    orderBy: 'notes.list.order-by-values',
    bounds: 'notes.list.bounds-offset-required',
  },
  listCollections: {
    limit: 'collections.list.limit-range',
    orderBy: 'collections.list.order-by-values',
    bounds: 'collections.list.bounds-offset-required',
  },
} as const;

/** The operation a raw request of the actor's own names (method and path against openapi.yaml's templates). */
export function operationOf(method: string, path: string): string | undefined {
  for (const [op, info] of Object.entries(OPERATIONS)) {
    if (info.method !== method) continue;
    const pattern = new RegExp(`^${info.path.replace(/\{\w+\}/g, '[^/]+')}$`);
    if (pattern.test(path)) return op;
  }
  return undefined;
}

/**
 * Every documented reason to refuse this request that its input shows. `now` (the kit's clock when
 * the answer came) and `toleranceMs` decide what is surely in the future.
 */
export function problemsOf(sent: InputOf, now: number, toleranceMs: number): Problem[] {
  const op = sent.op ?? operationOf(sent.method, sent.path);
  const path = pathIdProblem(op, sent.path);
  return path ? [path] : inputProblems(op, sent, now, toleranceMs);
}

/** The operations whose path names a note or collection by id, and the rule that refuses an id that is no UUID. */
const PATH_IDS: Readonly<Record<string, string>> = {
  getNote: 'notes.read.invalid-id-refused',
  updateNote: 'notes.read.invalid-id-refused',
  deleteNote: 'notes.read.invalid-id-refused',
  getCollection: 'collections.read.invalid-id-refused',
  updateCollection: 'collections.read.invalid-id-refused',
  deleteCollection: 'collections.read.invalid-id-refused',
};

/** Not a UUID in the path: refused, whether the target calls it bad input or a missing resource. */
function pathIdProblem(op: string | undefined, path: string): Problem | undefined {
  const rule = op === undefined ? undefined : PATH_IDS[op];
  const id = path.split('?')[0]!.split('/')[3] ?? '';
  if (!rule || isUuid(decodeURIComponent(id))) return undefined;
  return { rules: [rule], what: `the id ${JSON.stringify(id)} in the path is not a UUID`, validation: false };
}

function inputProblems(op: string | undefined, sent: InputOf, now: number, toleranceMs: number): Problem[] {
  const body = objectOf(sent.body);
  const input = sent.input ?? {};
  const isObject = typeof sent.body === 'object' && sent.body !== null && !Array.isArray(sent.body);
  switch (op) {
    case 'createNote': {
      if (!isObject) return notAnObject(sent.body);
      const out: Problem[] = [];
      if (!('content' in body))
        out.push({ rules: ['notes.create.content-required'], what: 'content is left out', validation: true });
      else if (typeof body.content !== 'string')
        out.push({ rules: ['notes.create.field-types'], what: 'content is not a string', validation: true });
      out.push(
        ...sizeProblems(
          'content',
          body.content,
          LIMITS.noteContentCreate,
          'notes.create.content-max-chars',
          'notes.create.content-max-bytes',
        ),
      );
      for (const list of ['collection_ids', 'collection_titles'] as const) {
        const value = body[list];
        if (value === undefined || value === null) continue;
        if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
          out.push({
            rules: ['notes.create.field-types'],
            what: `${list} is not an array of strings`,
            validation: true,
          });
      }
      if (Array.isArray(body.collection_titles))
        for (const entry of body.collection_titles)
          out.push(
            ...sizeProblems(
              'a collection_titles entry',
              entry,
              LIMITS.collectionTitlesEntry,
              'notes.create.collection-titles-max-chars',
              'notes.create.collection-titles-max-bytes',
            ),
          );
      for (const field of ['created_at', 'updated_at'] as const)
        out.push(...stampProblems(field, body[field], NOTE_CREATE_STAMPS[field], now, toleranceMs));
      if (typeof body.id === 'string' && !isUuid(body.id))
        out.push({
          rules: ['notes.create.id-must-be-uuid'],
          what: `the id ${body.id} is not a UUID`,
          validation: true,
        });
      return out;
    }
    case 'updateNote': {
      if (!isObject) return notAnObject(sent.body);
      const out: Problem[] = [];
      if (!('content' in body))
        out.push({ rules: ['notes.update.content-required'], what: 'content is left out', validation: true });
      else if (typeof body.content !== 'string')
        out.push({ rules: ['notes.update.field-types'], what: 'content is not a string', validation: true });
      if (!('version' in body))
        out.push({ rules: ['notes.update.version-required'], what: 'version is left out', validation: true });
      else if (typeof body.version !== 'number' || !Number.isInteger(body.version))
        out.push({
          rules: ['notes.update.field-types'],
          what: `version ${JSON.stringify(body.version)} is not an integer`,
          validation: true,
        });
      else if (body.version < 1)
        // Also a version the note does not have: the target may answer it as a version mismatch.
        out.push({
          rules: ['notes.update.version-min-1'],
          what: `version ${body.version} is below 1`,
          validation: false,
        });
      out.push(...sizeProblems('content', body.content, LIMITS.noteContentUpdate, 'notes.update.content-max-chars'));
      // No "not in the future" is stated for a note update's updated_at: only the offset is judged.
      out.push(
        ...stampProblems(
          'updated_at',
          body.updated_at,
          { offset: 'notes.update.updated-at-offset-required', conventions: false },
          now,
          toleranceMs,
        ),
      );
      return out;
    }
    case 'setNoteCreatedAt': {
      if (!isObject) return notAnObject(sent.body);
      if (!('created_at' in body) || body.created_at === null)
        return [{ rules: ['notes.set-created-at.required'], what: 'created_at is left out', validation: true }];
      return stampProblems(
        'created_at',
        body.created_at,
        {
          offset: 'notes.set-created-at.offset-required',
          future: 'notes.set-created-at.not-future',
          conventions: true,
        },
        now,
        toleranceMs,
      ).map((p) =>
        // compare-instants names creates only; the set-created-at rule stands alone.
        ({ ...p, rules: p.rules.filter((r) => r !== 'conventions.timestamps.compare-instants') }),
      );
    }
    case 'createCollection': {
      if (!isObject) return notAnObject(sent.body);
      const out: Problem[] = [];
      if (!('title' in body))
        out.push({ rules: ['collections.create.title-required'], what: 'title is left out', validation: true });
      else if (typeof body.title !== 'string')
        out.push({
          rules: ['collections.create.title-required', 'collections.create.field-types'],
          what: 'title is not a string',
          validation: true,
        });
      if ('description' in body && body.description !== null && typeof body.description !== 'string')
        out.push({ rules: ['collections.create.field-types'], what: 'description is not a string', validation: true });
      out.push(
        ...sizeProblems(
          'title',
          body.title,
          LIMITS.collectionTitle,
          'collections.create.title-max-chars',
          'collections.create.title-max-bytes',
        ),
        ...sizeProblems(
          'description',
          body.description,
          LIMITS.collectionDescription,
          'collections.create.description-max-chars',
          'collections.create.description-max-bytes',
        ),
      );
      for (const field of ['created_at', 'updated_at'] as const)
        out.push(...stampProblems(field, body[field], COLLECTION_CREATE_STAMPS[field], now, toleranceMs));
      if (typeof body.id === 'string' && !isUuid(body.id))
        out.push({
          rules: ['collections.create.id-must-be-uuid'],
          what: `the id ${body.id} is not a UUID`,
          validation: true,
        });
      return out;
    }
    case 'updateCollection': {
      if (!isObject) return notAnObject(sent.body);
      const out: Problem[] = [];
      // A null title may be read as "not provided" (the document does not say): only another type is judged.
      if ('title' in body && body.title !== null && typeof body.title !== 'string')
        out.push({ rules: ['collections.update.field-types'], what: 'title is not a string', validation: true });
      if ('description' in body && body.description !== null && typeof body.description !== 'string')
        out.push({ rules: ['collections.update.field-types'], what: 'description is not a string', validation: true });
      out.push(
        ...sizeProblems(
          'title',
          body.title,
          LIMITS.collectionTitle,
          'collections.update.title-max-chars',
          'collections.update.title-max-bytes',
        ),
        ...sizeProblems(
          'description',
          body.description,
          LIMITS.collectionDescription,
          'collections.update.description-max-chars',
          'collections.update.description-max-bytes',
        ),
        ...stampProblems(
          'updated_at',
          body.updated_at,
          {
            offset: 'collections.update.updated-at-offset-required',
            future: 'collections.update.updated-at-not-future',
            conventions: false,
          },
          now,
          toleranceMs,
        ),
      );
      return out;
    }
    case 'listNotes':
    case 'listCollections': {
      const rules = LIST_RULES[op];
      const out = rangeProblems(
        'limit',
        input.limit,
        op === 'listNotes' ? LIMITS.notesListLimit : LIMITS.collectionsListLimit,
        rules.limit,
      );
      if (input.order_by !== undefined && !ORDER_BY.has(input.order_by as string))
        out.push({
          rules: [rules.orderBy],
          what: `order_by ${JSON.stringify(input.order_by)} is neither created_at nor updated_at`,
          validation: true,
        });
      out.push(...boundProblems(input, rules.bounds));
      return out;
    }
    case 'searchNotes': {
      const q = objectOf(input.query);
      const b = objectOf(input.body);
      if (sent.input === undefined) return [];
      const out = [
        ...rangeProblems('limit', q.limit, LIMITS.searchLimit, 'notes.search.limit-range'),
        ...rangeProblems('offset', q.offset, LIMITS.searchOffset, 'notes.search.offset-min-0'),
      ];
      const offset = integerOf(q.offset);
      if (offset !== undefined && offset > 0 && q.snapshot_id === undefined)
        // Whether the target reads this as bad input or as a snapshot it cannot find is its choice.
        out.push({
          rules: ['notes.search.snapshot-required'],
          what: `offset ${offset} comes without snapshot_id`,
          validation: false,
        });
      if (typeof b.query !== 'string')
        out.push({
          rules: ['notes.search.query-required'],
          what: b.query === undefined ? 'query is left out' : 'query is not a string',
          validation: true,
        });
      else if (!/\S/.test(b.query))
        out.push({
          rules: ['notes.search.query-non-whitespace'],
          what: `query ${JSON.stringify(b.query)} has no non-whitespace character`,
          validation: true,
        });
      out.push(...boundProblems(b, 'notes.search.bounds-offset-required'));
      return out;
    }
    case 'getRelatedNotes':
      return rangeProblems('limit', input.limit, LIMITS.relatedLimit, 'notes.related.limit-range');
    case 'searchCollections':
      return boundProblems(input, 'collections.search.bounds-offset-required');
    case 'moveNote':
      if (!isObject) return notAnObject(sent.body);
      return isUuid(body.target_collection_id)
        ? []
        : [
            {
              rules: ['membership.move.target-required'],
              what: 'target_collection_id is not a UUID',
              validation: true,
            },
          ];
    default:
      return [];
  }
}

/** One documented boundary a request stands on, and the rule that says it is accepted. */
export interface Boundary {
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
  // At the limit or a few under it: an off-by-a-few limit refuses these.
  return atSize(value, limit, NEAR).flatMap((at) =>
    at === 'chars'
      ? [{ rule: charsRule, what: `${field} of ${charCount(value)} characters, within ${limit.chars}` }]
      : bytesRule
        ? [{ rule: bytesRule, what: `${field} of ${byteCount(value)} UTF-8 bytes, within ${limit.bytes}` }]
        : [],
  );
}

/** How far under a size limit a value still stands on it (the limit properties send up to 3 characters, 6 bytes under). */
const NEAR = 8;

function rangeBoundary(
  field: string,
  value: unknown,
  range: { readonly min: number; readonly max?: number },
  rule: string,
): Boundary[] {
  const n = integerOf(value);
  return n !== undefined && n >= range.min && (range.max === undefined || n <= range.max)
    ? [{ rule, what: `${field} ${n}, within ${range.min}..${range.max ?? ''}` }]
    : [];
}

/** A past instant written with an offset east of UTC (+01:00 to +19:59): as text it may read as later than now. */
function eastPast(r: Request, tol: Tolerances, body: Record<string, unknown>): Boundary[] {
  const stamps = (['created_at', 'updated_at'] as const).filter((f) => body[f] !== undefined);
  // With both given, their order is another question the document does not settle.
  if (stamps.length !== 1) return [];
  const value = body[stamps[0]!];
  const read = readDateTime(value);
  if (!read?.realDate || !/^\+(0[1-9]|1\d)/.test(read.designator)) return [];
  return read.ms < r.startedAt - tol.clockToleranceMs
    ? [{ rule: 'conventions.timestamps.compare-instants', what: `${stamps[0]} ${value}, a past instant` }]
    : [];
}

/**
 * Supplied timestamps with an offset, in the past beyond any clock difference: what the field's
 * rules allow ("must have offset, not in the future"), so the request is accepted under them.
 */
function pastStamps(
  r: Request,
  tol: Tolerances,
  body: Record<string, unknown>,
  rules: Readonly<Record<string, StampRules>>,
): Boundary[] {
  return Object.entries(rules).flatMap(([field, rule]) => {
    const read = readDateTime(body[field]);
    if (!read?.realDate || read.ms > r.startedAt - tol.clockToleranceMs) return [];
    const what = `${field} ${show(body[field])}, a past instant with an offset`;
    return [{ rule: rule.offset, what }, ...(rule.future ? [{ rule: rule.future, what }] : [])];
  });
}

/** List and search bounds written with an offset: accepted under the bounds rule. */
function offsetBounds(input: Readonly<Record<string, unknown>>, rule: string): Boundary[] {
  return ['created_after', 'created_before', 'updated_after', 'updated_before'].flatMap((b) =>
    readDateTime(input[b])?.realDate ? [{ rule, what: `the bound ${b} ${show(input[b])}, with an offset` }] : [],
  );
}

/** The collection create fields the document allows null for. */
const COLLECTION_NULLABLE = ['description', 'id', 'created_at', 'updated_at'];

const only = (body: Record<string, unknown>, fields: readonly string[]) =>
  Object.entries(body).every(([k, v]) => fields.includes(k) && v !== null);

const show = (value: unknown) => JSON.stringify(value) ?? String(value);

/**
 * The boundaries a request without problems stands on, where nothing else it names could be
 * refused: a value exactly at a limit, a padded query, a past instant written with a far-east
 * offset, nulls a collection create allows, a note create naming a deleted collection or only the
 * title of one, a backdate to exactly the original creation.
 */
export function boundariesOf(world: World, r: Request, tol: Tolerances): Boundary[] {
  const body = objectOf(r.body);
  const input = r.input ?? {};
  const own = <T extends { owner: string }>(x: T | undefined) => x !== undefined && x.owner === r.actor;
  switch (r.op) {
    case 'createNote': {
      if (!only(body, ['content', 'collection_ids', 'collection_titles', 'created_at', 'updated_at', 'id'])) return [];
      if (body.id !== undefined && !freshId(world, body.id)) return [];
      // "ids not mapping to accessible collections are ignored": a deleted collection's id maps to none.
      const gone = (Array.isArray(body.collection_ids) ? body.collection_ids : []).filter(
        (id) => typeof id === 'string' && world.collections.get(id)?.deleted !== undefined,
      );
      // "unmatched titles ignored": the title of a collection the caller deleted, held by no collection the run knows.
      const known = [...world.collections.values()];
      const same = (c: { title?: { value: string } }, t: string) => c.title?.value.toLowerCase() === t.toLowerCase();
      const unmatched = (Array.isArray(body.collection_titles) ? body.collection_titles : []).filter(
        (t): t is string =>
          typeof t === 'string' &&
          known.some((c) => c.deleted && c.owner === r.actor && same(c, t)) &&
          !known.some((c) => !c.deleted && same(c, t)),
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
        ...eastPast(r, tol, body),
        ...pastStamps(r, tol, body, NOTE_CREATE_STAMPS),
      ];
    }
    case 'createCollection': {
      // "string or null", "uuid or null", "date-time or null": a null there is as good as a value.
      const nulls = COLLECTION_NULLABLE.filter((f) => body[f] === null);
      const rest = Object.fromEntries(Object.entries(body).filter(([k]) => !nulls.includes(k)));
      if (!only(rest, ['title', 'description', 'created_at', 'updated_at', 'id'])) return [];
      if (rest.id !== undefined && !freshId(world, rest.id)) return [];
      return [
        ...collectionSizes(rest, 'create'),
        ...eastPast(r, tol, rest),
        ...pastStamps(r, tol, rest, COLLECTION_CREATE_STAMPS),
        ...(nulls.length > 0 ? [{ rule: 'collections.create.nullable-fields', what: `null ${nulls.join(', ')}` }] : []),
      ];
    }
    case 'updateCollection':
      if (!only(body, ['title', 'description']) || !own(liveCollection(world, r.params.collection_id, r))) return [];
      return collectionSizes(body, 'update');
    case 'listNotes':
    case 'listCollections': {
      const fields = ['limit', 'order_by', 'created_after', 'created_before', 'updated_after', 'updated_before'];
      const named = r.op === 'listNotes' ? declaredInputs(world, r, input, 'collection') : undefined;
      if (named === null || !only(input, [...fields, ...(named ?? [])])) return [];
      return r.op === 'listNotes'
        ? [
            ...namesBoundary(named, 'notes.list.parameter-names'),
            ...rangeBoundary('limit', input.limit, LIMITS.notesListLimit, 'notes.list.limit-range'),
            ...offsetBounds(input, LIST_RULES.listNotes.bounds),
          ]
        : [
            ...rangeBoundary('limit', input.limit, LIMITS.collectionsListLimit, 'collections.list.limit-range'),
            ...offsetBounds(input, LIST_RULES.listCollections.bounds),
          ];
    }
    case 'searchNotes': {
      const q = objectOf(input.query);
      const b = objectOf(input.body);
      const bounds = ['created_after', 'created_before', 'updated_after', 'updated_before'];
      const named = declaredInputs(world, r, b, 'collections');
      if (named === null || !only(q, ['limit', 'offset']) || !only(b, ['query', ...bounds, ...named])) return [];
      if ((integerOf(q.offset) ?? 0) !== 0) return [];
      const out = [
        ...namesBoundary(named, 'notes.search.parameter-names'),
        ...rangeBoundary('limit', q.limit, LIMITS.searchLimit, 'notes.search.limit-range'),
        ...rangeBoundary('offset', q.offset, LIMITS.searchOffset, 'notes.search.offset-min-0'),
        ...offsetBounds(b, 'notes.search.bounds-offset-required'),
      ];
      if (typeof b.query === 'string' && /^\s|\s$/.test(b.query))
        out.push({
          rule: 'notes.search.query-non-whitespace',
          what: `query ${show(b.query)}, words with whitespace around them`,
        });
      return out;
    }
    case 'updateNote': {
      // At the content limit, from the owner, at the current version of an active note: accepted.
      const n = liveNote(world, r.params.note_id, r);
      if (!only(body, ['content', 'version']) || !own(n) || n!.trashed?.value !== false) return [];
      if (n!.version === undefined || body.version !== n!.version.value) return [];
      return sizeBoundary('content', body.content, LIMITS.noteContentUpdate, 'notes.update.content-max-chars');
    }
    case 'getRelatedNotes':
      if (!only(input, ['limit']) || !own(liveNote(world, r.params.note_id, r))) return [];
      return rangeBoundary('limit', input.limit, LIMITS.relatedLimit, 'notes.related.limit-range');
    case 'setNoteCreatedAt': {
      const n = liveNote(world, r.params.note_id, r);
      const sent = instantOf(body.created_at);
      if (!only(body, ['created_at']) || !own(n) || n!.trashed?.value !== false) return [];
      if (n!.original === undefined || sent === undefined || !sameInstant(sent, n!.original, tol.precisionMs))
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

/**
 * The inputs of a note list or search whose names the document leaves to the profile (the kit's
 * API sends them only under the names it declares), when each holds a value the document allows:
 * a contains or include-content boolean, a collection filter naming live collections of the
 * caller's own that no request in flight touches. Their names, or null when one holds anything
 * else (a cursor is never counted: it may be refused for the filters it was issued under).
 */
function declaredInputs(
  world: World,
  r: Request,
  given: Record<string, unknown>,
  collectionField: 'collection' | 'collections',
): string[] | null {
  const names: string[] = [];
  const bool = (v: unknown) => v === true || v === false || v === 'true' || v === 'false';
  for (const k of [...CONTAINS_KINDS, 'include_content']) {
    if (given[k] === undefined) continue;
    if (!bool(given[k])) return null;
    names.push(k);
  }
  const c = given[collectionField];
  if (c !== undefined) {
    const ids = collectionField === 'collection' ? [c] : Array.isArray(c) && c.length > 0 ? c : [undefined];
    const mine = (id: unknown) => liveCollection(world, id, r)?.owner === r.actor;
    if (!ids.every(mine)) return null;
    names.push(collectionField);
  }
  return names;
}

function namesBoundary(named: readonly string[] | undefined, rule: string): Boundary[] {
  return named && named.length > 0 ? [{ rule, what: `the profile's names for ${named.join(', ')}` }] : [];
}

/** The size rules of a collection's title and description, by operation (written out: the rule ids are read from these files). */
const COLLECTION_SIZES = {
  create: [
    'collections.create.title-max-chars',
    'collections.create.title-max-bytes',
    'collections.create.description-max-chars',
    'collections.create.description-max-bytes',
  ],
  update: [
    'collections.update.title-max-chars',
    'collections.update.title-max-bytes',
    'collections.update.description-max-chars',
    'collections.update.description-max-bytes',
  ],
} as const;

function collectionSizes(body: Record<string, unknown>, op: 'create' | 'update'): Boundary[] {
  const [titleChars, titleBytes, descriptionChars, descriptionBytes] = COLLECTION_SIZES[op];
  return [
    ...sizeBoundary('title', body.title, LIMITS.collectionTitle, titleChars, titleBytes),
    ...sizeBoundary('description', body.description, LIMITS.collectionDescription, descriptionChars, descriptionBytes),
  ];
}

/** A UUID the run never saw as a note's or a collection's id, nor as a refused create's. */
export function freshId(world: World, id: unknown): id is string {
  return (
    isUuid(id) &&
    !world.seen.has(id) &&
    !world.notes.has(id) &&
    !world.collections.has(id) &&
    !world.refusedCreates.has(`note ${id}`) &&
    !world.refusedCreates.has(`collection ${id}`)
  );
}
