import { isUuid, readDateTime } from '../../../spec/patterns.js';
import { loadRules } from '../../../spec/rules.js';
import { objectOf } from '../behaviour/request.js';
import type { Env } from './env.js';
import type { Observation } from './observation.js';

const RULES = loadRules();

/** The operations whose success the document describes: those the request_id rule names (spec/rules.yaml). */
const DOCUMENTED = new Set(RULES.find((r) => r.id === 'conventions.request-id.on-every-success')!.operations);

/**
 * The rule that promises each operation's response shape (spec/openapi.yaml's schema of its 200):
 * its `*.response-fields` rule, and for a page its `*.item-fields` rule, by the operation they name.
 */
const ruleOf = (suffix: string) =>
  new Map(RULES.filter((r) => r.id.endsWith(suffix)).map((r) => [r.operations[0]!, r.id] as const));
const ITEMS = ruleOf('.item-fields');
const SHAPE: Readonly<Record<string, { body: string; items?: string }>> = Object.fromEntries(
  [...ruleOf('.response-fields')].map(([op, body]) => [
    op,
    { body, ...(ITEMS.has(op) ? { items: ITEMS.get(op)! } : {}) },
  ]),
);

/** Fields a response must not carry (section 2): trashed_at on create, note_count on collection writes, read-only lists on writes. */
const ABSENT: Readonly<Record<string, ReadonlyArray<[string, string]>>> = {
  createNote: [
    ['trashed_at', 'notes.create.response-omits-trashed-at'],
    ['audio_recording_ids', 'notes.read-only-fields.absent-from-writes'],
    ['attachment_metadata', 'notes.read-only-fields.absent-from-writes'],
  ],
  updateNote: [
    ['audio_recording_ids', 'notes.read-only-fields.absent-from-writes'],
    ['attachment_metadata', 'notes.read-only-fields.absent-from-writes'],
  ],
  setNoteCreatedAt: [
    ['audio_recording_ids', 'notes.read-only-fields.absent-from-writes'],
    ['attachment_metadata', 'notes.read-only-fields.absent-from-writes'],
  ],
  createCollection: [['note_count', 'collections.create.response-omits-note-count']],
  updateCollection: [['note_count', 'collections.update.response-omits-note-count']],
};

/** "Collections have no state field" (section 3): names that would give one a state. */
const STATE_FIELDS = ['trashed_at', 'state', 'status', 'trashed', 'is_trashed', 'deleted_at'];
const COLLECTION_ANSWERS = new Set([
  'createCollection',
  'getCollection',
  'updateCollection',
  'listCollections',
  'searchCollections',
]);

/**
 * What holds for every success of a documented operation, whichever check asked: 200, a JSON body
 * declared as JSON with a string request_id, the documented shape, ISO 8601 timestamps, and no field the document
 * says the response leaves out.
 */
export function conventions(env: Env, o: Observation): void {
  const { j } = env;
  const op = o.op;
  if (!op || o.x.status < 200 || o.x.status >= 300) return;
  const what = `${o.method} ${o.path} (${op})`;
  // An endpoint whose path is not shown (the attachment question): only the fields the document lists.
  if (!DOCUMENTED.has(op)) {
    judgeShape(env, o, op, what);
    return;
  }
  j.that(
    'conventions.success.status-200',
    o.x.status === 200,
    () => `${what} succeeded with ${o.x.status}, not 200`,
    o.x,
  );
  const parsed = j.that(
    'conventions.json.bodies',
    o.x.json !== undefined,
    () => `${what}: the success body is not JSON: ${o.x.text.slice(0, 120)}`,
    o.x,
  );
  if (!parsed) return;
  // Where the document shows the answer's shape, a JSON body is declared as JSON (advisory: section
  // 1 says the bodies are JSON, not how they are labelled).
  if (SHAPE[op])
    j.that(
      'conventions.json.content-type',
      /json/i.test(o.x.headers['content-type'] ?? ''),
      () => `${what}: a JSON body declared as ${JSON.stringify(o.x.headers['content-type'] ?? '(no content type)')}`,
      o.x,
    );
  const body = objectOf(o.x.json);
  j.that(
    'conventions.request-id.on-every-success',
    typeof body.request_id === 'string',
    () => `${what}: request_id is ${JSON.stringify(body.request_id)}, not a string`,
    o.x,
  );
  if (typeof body.request_id === 'string') {
    // An identifier of that request: no two requests of the run share one.
    const before = env.requestIds.get(body.request_id);
    j.that(
      'conventions.request-id.unique',
      before === undefined,
      () => `${what}: request_id ${JSON.stringify(body.request_id)} was already the answer's to ${before?.what}`,
      o.x,
    );
    if (before === undefined) env.requestIds.set(body.request_id, { what: `${o.method} ${o.path}`, x: o.ev });
  }
  judgeShape(env, o, op, what);
  for (const [field, rule] of ABSENT[op] ?? [])
    j.that(
      rule,
      !(field in body),
      () => `${what}: the answer carries ${field} (${JSON.stringify(body[field])}), which it leaves out`,
      o.x,
    );
  if (COLLECTION_ANSWERS.has(op))
    for (const item of op.startsWith('list') || op.startsWith('search') ? itemsOf(body) : [body]) {
      const state = STATE_FIELDS.find((field) => field in item);
      j.that(
        'collections.read.no-state-field',
        state === undefined,
        () => `${what}: a collection carries ${state}, but collections have no state field`,
        o.x,
      );
    }
  // A generated id breaks the general rule and the create's own ("generates a new UUID").
  if ((op === 'createNote' || op === 'createCollection') && typeof objectOf(o.body).id !== 'string') {
    const own = op === 'createNote' ? 'notes.create.id-generated' : 'collections.create.id-generated';
    for (const rule of ['conventions.ids.uuid', own])
      j.that(rule, isUuid(body.id), () => `${what}: the generated id ${JSON.stringify(body.id)} is not a UUID`, o.x);
    // "Generated if omitted": a new id, not one the run has seen.
    const known = typeof body.id === 'string' && (env.world.notes.has(body.id) || env.world.collections.has(body.id));
    j.that(own, !known, () => `${what}: the generated id ${JSON.stringify(body.id)} is one the run already knows`, o.x);
  }
  judgeTimestamps(env, o, body, what);
}

/** Every timestamp field of the answer, top level and in its items, is ISO 8601 with an offset. */
function judgeTimestamps(env: Env, o: Observation, body: Record<string, unknown>, what: string): void {
  const objects = [body, ...(Array.isArray(body.results) ? body.results.map(objectOf) : [])];
  for (const item of objects) {
    for (const field of ['created_at', 'updated_at', 'trashed_at']) {
      const value = item[field];
      if (value === undefined || (field === 'trashed_at' && value === null)) continue;
      env.j.that(
        'conventions.timestamps.response-format',
        readDateTime(value)?.realDate === true,
        () => `${what}: ${field} ${JSON.stringify(value)} is not an ISO 8601 date-time with a timezone designator`,
        o.x,
      );
    }
  }
}

function itemsOf(body: Record<string, unknown>): Array<Record<string, unknown>> {
  return Array.isArray(body.results) ? body.results.map(objectOf) : [];
}

/** A success body against its operation's schema (the problems api.ts found as it came), under the shape rules. */
function judgeShape(env: Env, o: Observation, op: string, what: string): void {
  const shape = SHAPE[op];
  if (!shape) return;
  const problems = o.x.schemaProblems ?? [];
  const itemProblems = problems.filter((p) => p.startsWith('/results/'));
  const bodyProblems = problems.filter((p) => !p.startsWith('/results/'));
  env.j.that(shape.body, bodyProblems.length === 0, () => `${what}: ${bodyProblems.slice(0, 3).join('; ')}`, o.x);
  if (shape.items)
    env.j.that(shape.items, itemProblems.length === 0, () => `${what}: ${itemProblems.slice(0, 3).join('; ')}`, o.x);
}
