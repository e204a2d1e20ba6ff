import { UUID_IN_TEXT } from '../../../spec/patterns.js';
import type { Touches } from '../behaviour/state.js';
import type { Exchange } from '../client.js';
import type { ExchangeObserver as CoreObserver, Sent } from '../observer.js';

export type { Sent } from '../observer.js';

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

/** The oracle's observer: its record of a request in flight is a Pending. */
export type ExchangeObserver = CoreObserver<Pending>;

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

/** A raw write names its resources in the path: /v2/notes/{id}..., /v2/collections/{id}/notes/{id}... */
function rawTouches(path: string): Touches {
  const ids = path.match(UUID_IN_TEXT) ?? [];
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
