import { OPERATIONS } from '../../../spec/operations.js';
import { UUID_IN_TEXT } from '../../../spec/patterns.js';
import type { Owner } from '../ledger.js';
import type { Sent } from '../observer.js';
import type { Clock, KnownCollection, KnownNote, Touches, World } from './state.js';

/** A request as the predictions read it: what was sent, and when, in the run's order of requests. */
export interface Request extends Sent {
  readonly startSeq: number;
  readonly startedAt: number;
  /** When the answer came, by the kit's clock (what is surely "in the future" is judged against it). */
  readonly endedAt: number;
}

/** The target's declared choices and tolerances the predictions depend on. */
export interface Tolerances {
  /** The step to which the target keeps instants (timestamp_precision_ms). */
  readonly precisionMs: number;
  /** How far the target's clock may be from the kit's (clock_tolerance_ms). */
  readonly clockToleranceMs: number;
}

/**
 * A raw request (bad input, other credentials) as the operation its method and path name, with the
 * path parameters filled: what the document predicts of that operation holds for it too.
 */
export function resolved(sent: Sent): Sent {
  if (sent.op !== undefined) return sent;
  for (const [op, info] of Object.entries(OPERATIONS)) {
    if (info.method !== sent.method) continue;
    const names = [...info.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const m = new RegExp(`^${info.path.replace(/\{\w+\}/g, '([^/?]+)')}(?:\\?.*)?$`).exec(sent.path);
    if (!m) continue;
    return { ...sent, op, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) };
  }
  return sent;
}

/** The JSON object of a body, or an empty one. */
export function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function isTokenUser(owner: Owner | string): boolean {
  return owner === 'primary' || owner === 'secondary';
}

export function pick(body: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((f) => f in body).map((f) => [f, body[f]]));
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
  const ids = sent.path.match(UUID_IN_TEXT) ?? [];
  if (sent.path.startsWith('/v2/notes')) return { notes: ids, collections: [] };
  if (sent.path.startsWith('/v2/collections')) return { notes: ids.slice(1), collections: ids.slice(0, 1) };
  return { notes: [], collections: [] };
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Whether the answer to `r` shows the resource as the state knows it: no other write in flight on
 * it (this request's own aside), and none answered since `r` was sent.
 */
function quiet(clock: Clock, r: Request, own: readonly string[], id: string): boolean {
  const self = own.includes(id) ? 1 : 0;
  return clock.inFlight <= self && clock.lastEndSeq < r.startSeq;
}

/** A note the state knows (alive or deleted), settled for predicting the answer to `r`. */
export function knownNote(world: World, id: unknown, r: Request): KnownNote | undefined {
  const n = typeof id === 'string' ? world.notes.get(id) : undefined;
  return n && quiet(n.clock, r, touchesOf(r).notes, n.id) ? n : undefined;
}

/** A collection the state knows (alive or deleted), settled for predicting the answer to `r`. */
export function knownCollection(world: World, id: unknown, r: Request): KnownCollection | undefined {
  const c = typeof id === 'string' ? world.collections.get(id) : undefined;
  return c && quiet(c.clock, r, touchesOf(r).collections, c.id) ? c : undefined;
}

/** The same, alive. */
export function liveNote(world: World, id: unknown, r: Request): KnownNote | undefined {
  const n = knownNote(world, id, r);
  return n && !n.deleted ? n : undefined;
}

export function liveCollection(world: World, id: unknown, r: Request): KnownCollection | undefined {
  const c = knownCollection(world, id, r);
  return c && !c.deleted ? c : undefined;
}
