import type { Exchange } from '../core/client.js';
import { arrayOf, type Observation, type Symbols, typeOf, versionOf } from './normalise.js';
import type { SideState } from './state.js';

type Body = Record<string, unknown>;

/** A field's normalised value, or 'absent': presence is part of what the document fixes per response. */
function field(body: Body, key: string, normalise: (value: unknown) => unknown): unknown {
  return Object.hasOwn(body, key) ? normalise(body[key]) : 'absent';
}

const raw = (value: unknown) => value;

/** The schema verdict of a 200 body (the schemas are the document's shapes; extra fields allowed). */
function schema(x: Exchange): Observation {
  return x.schemaProblems && x.schemaProblems.length > 0 ? { schema: [...x.schemaProblems].sort() } : {};
}

export function bodyOf(x: Exchange): Body | undefined {
  return typeof x.json === 'object' && x.json !== null && !Array.isArray(x.json) ? (x.json as Body) : undefined;
}

/** A full note (create, read, update, set-created-at): every documented field, present or absent. */
const NONE: ReadonlySet<string> = new Set();

/** What the state expects of a note's answer: its version (undefined: any), whether updated_at is determined, the instants supplied. */
export interface NoteExpectation {
  version: number | undefined;
  updatedKnown: boolean;
  stamps: ReadonlySet<string>;
}

export function noteView(x: Exchange, sym: Symbols, note: NoteExpectation): Observation {
  const body = bodyOf(x);
  if (!body) return { body: 'not a JSON object' };
  return {
    id: field(body, 'id', (v) => sym.idOf(v, 'N')),
    title: field(body, 'title', raw),
    content: field(body, 'content', (v) => sym.contentOf(v)),
    created_at: sym.timestamp(body.created_at, note.stamps),
    updated_at: sym.timestamp(body.updated_at, note.updatedKnown ? note.stamps : NONE),
    version: field(body, 'version', (v) => versionOf(v, note.version)),
    collection_ids: field(body, 'collection_ids', (v) => sym.idList(v, 'C')),
    trashed_at: sym.timestamp(body.trashed_at, NONE),
    audio_recording_ids: field(body, 'audio_recording_ids', arrayOf),
    attachment_metadata: field(body, 'attachment_metadata', arrayOf),
    request_id: field(body, 'request_id', typeOf),
    ...schema(x),
  };
}

/** note_count, exactly unless the collection holds a trashed note (whether those count is not shown). */
function noteCount(value: unknown, anyTrashed: boolean): unknown {
  if (!anyTrashed) return value;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? 'integer' : value;
}

export function collectionView(
  x: Exchange,
  sym: Symbols,
  coll: { updatedKnown: boolean; stamps: ReadonlySet<string> },
  anyTrashed: boolean,
): Observation {
  const body = bodyOf(x);
  if (!body) return { body: 'not a JSON object' };
  return {
    id: field(body, 'id', (v) => sym.idOf(v, 'C')),
    title: field(body, 'title', raw),
    // Never sent: whether an omitted description reads as null or "" is not shown.
    description: field(body, 'description', typeOf),
    created_at: sym.timestamp(body.created_at, coll.stamps),
    updated_at: sym.timestamp(body.updated_at, coll.updatedKnown ? coll.stamps : NONE),
    note_count: field(body, 'note_count', (v) => noteCount(v, anyTrashed)),
    request_id: field(body, 'request_id', typeOf),
    ...schema(x),
  };
}

/**
 * A note list filtered by one of the sequence's collections: items as a set (ties in the order
 * are not shown), trashed notes left out (whether the list shows them is not shown).
 */
export function listView(x: Exchange, sym: Symbols, state: SideState, coll: number): Observation {
  const body = bodyOf(x);
  if (!body) return { body: 'not a JSON object' };
  const known = (id: unknown) => (typeof id === 'string' ? state.world.notes.get(id) : undefined);
  const { anyTrashed } = state.members(coll);
  const results = Array.isArray(body.results)
    ? body.results
        .filter((item) => known((item as Body)?.id)?.trashed?.value !== true)
        .map((item) => {
          const it = (typeof item === 'object' && item !== null ? item : {}) as Body;
          const n = known(it.id);
          const note = n && { stamps: state.stampsOf(n.id), updatedKnown: n.updatedAt !== undefined };
          return {
            id: field(it, 'id', (v) => sym.idOf(v, 'N')),
            title: field(it, 'title', raw),
            snippet: field(it, 'snippet', typeOf),
            content: field(it, 'content', typeOf),
            created_at: sym.timestamp(it.created_at, note?.stamps ?? NONE),
            updated_at: sym.timestamp(it.updated_at, note?.updatedKnown ? note.stamps : NONE),
            collection_ids: field(it, 'collection_ids', (v) => sym.idList(v, 'C')),
            audio_recording_ids: field(it, 'audio_recording_ids', arrayOf),
          };
        })
        .sort((a, b) => String(a.id).localeCompare(String(b.id)))
    : `not an array: ${JSON.stringify(body.results)}`;
  return {
    results,
    total: field(body, 'total', (v) => noteCount(v, anyTrashed)),
    next_page: field(body, 'next_page', typeOf),
    request_id: field(body, 'request_id', typeOf),
    ...schema(x),
  };
}

/** Delete, add and move answer {request_id}. */
export function ackView(x: Exchange): Observation {
  const body = bodyOf(x);
  return body ? { request_id: field(body, 'request_id', typeOf), ...schema(x) } : { body: 'not a JSON object' };
}
