import type { Exchange } from '../harness/client.js';
import type { Owner } from '../harness/ledger.js';
import type { Touches } from '../model/world.js';

/** One request as the API layer sent it: the operation, who sent it and what it meant. */
export interface Sent {
  /** The operationId of spec/openapi.yaml; undefined for a raw request (bad input, other credentials). */
  readonly op: string | undefined;
  readonly actor: Owner;
  /** Whether the request carried the actor's own token (raw requests may send other credentials). */
  readonly ownToken: boolean;
  readonly method: string;
  /** The path as sent, without the query. */
  readonly path: string;
  /** Path parameters by their openapi.yaml names (note_id, collection_id, source_collection_id). */
  readonly params: Readonly<Record<string, string>>;
  /** The query and body before the profile's wire names were applied (the kit's own vocabulary). */
  readonly input?: Readonly<Record<string, unknown>>;
  /** The JSON body sent, as sent. */
  readonly body?: unknown;
}

/** A request and its answer, with when it was sent and answered in the run's order of requests. */
export interface Observation extends Sent {
  readonly x: Exchange;
  /** The same exchange cut to a size for keeping: facts and findings hold this one, never the whole body. */
  readonly ev: Exchange;
  readonly startSeq: number;
  readonly endSeq: number;
  readonly startedAt: number;
  readonly endedAt: number;
}

/** What the API layer calls around every request it sends (the oracle implements it). */
export interface ExchangeObserver {
  sending(sent: Sent): Pending;
  answered(pending: Pending, x: Exchange): void;
  /** The request got no answer (timeout, connection lost): what it may have changed is unknown. */
  unanswered(pending: Pending): void;
  /** A fixture API call changed a resource in a way the document does not describe. */
  touchedByFixture(kind: 'note' | 'collection' | 'user', id: string): void;
}

export interface Pending {
  readonly sent: Sent;
  readonly startSeq: number;
  readonly startedAt: number;
  readonly touches: Touches;
}

/** The JSON object of a body, or an empty one. */
export function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

const WRITES: Readonly<
  Record<string, (p: Readonly<Record<string, string>>, body: Record<string, unknown>) => Touches>
> = {
  createNote: (_, b) => ({ notes: typeof b.id === 'string' ? [b.id] : [], collections: stringsOf(b.collection_ids) }),
  updateNote: (p) => ({ notes: [p.note_id!], collections: [] }),
  setNoteCreatedAt: (p) => ({ notes: [p.note_id!], collections: [] }),
  trashNote: (p) => ({ notes: [p.note_id!], collections: [] }),
  restoreNote: (p) => ({ notes: [p.note_id!], collections: [] }),
  deleteNote: (p) => ({ notes: [p.note_id!], collections: [] }),
  createCollection: (_, b) => ({ notes: [], collections: typeof b.id === 'string' ? [b.id] : [] }),
  updateCollection: (p) => ({ notes: [], collections: [p.collection_id!] }),
  deleteCollection: (p) => ({ notes: [], collections: [p.collection_id!] }),
  trashCollection: (p) => ({ notes: [], collections: [p.collection_id!] }),
  addNoteToCollection: (p) => ({ notes: [p.note_id!], collections: [p.collection_id!] }),
  removeNoteFromCollection: (p) => ({ notes: [p.note_id!], collections: [p.collection_id!] }),
  moveNote: (p, b) => ({
    notes: [p.note_id!],
    collections: [
      p.source_collection_id!,
      ...(typeof b.target_collection_id === 'string' ? [b.target_collection_id] : []),
    ],
  }),
};

/** The resources a request may change (raw requests: those its path names, unless it only reads). */
export function touchesOf(sent: Sent): Touches {
  const write = sent.op === undefined ? undefined : WRITES[sent.op];
  if (write) return write(sent.params, objectOf(sent.body));
  if (sent.op !== undefined || sent.method === 'GET' || sent.method === 'HEAD') return { notes: [], collections: [] };
  return rawTouches(sent.path);
}

const UUID_IN_PATH = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A raw write names its resources in the path: /v2/notes/{id}..., /v2/collections/{id}/notes/{id}... */
function rawTouches(path: string): Touches {
  const ids = path.match(UUID_IN_PATH) ?? [];
  if (path.startsWith('/v2/notes')) return { notes: ids, collections: [] };
  if (path.startsWith('/v2/collections')) return { notes: ids.slice(1), collections: ids.slice(0, 1) };
  return { notes: [], collections: [] };
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

const KEPT_CHARS = 4_096;

/** An exchange as the oracle keeps it: bodies cut, the parsed body dropped (facts live as long as the run). */
export function kept(x: Exchange): Exchange {
  const cut = (s: string) => (s.length > KEPT_CHARS ? `${s.slice(0, KEPT_CHARS)}... (${s.length} characters)` : s);
  return {
    ...x,
    json: undefined,
    text: cut(x.text),
    ...(x.requestBody === undefined ? {} : { requestBody: cut(x.requestBody) }),
  };
}
