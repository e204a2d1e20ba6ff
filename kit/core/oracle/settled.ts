import type { KnownCollection, KnownNote } from '../behaviour/state.js';
import type { Env } from './env.js';
import { type Observation, objectOf, touchesOf } from './observation.js';

/** Whether the answer to `o` shows the resource as the shadow knows it: nothing else in flight on it, nothing since. */
function quiet(
  r: { clock: { inFlight: number; lastEndSeq: number } },
  o: Observation,
  own: readonly string[],
  id: string,
): boolean {
  const self = own.includes(id) ? 1 : 0;
  return r.clock.inFlight <= self && r.clock.lastEndSeq < o.startSeq;
}

/** A note the shadow knows (alive or deleted), settled for judging the answer to `o`. */
export function knownNote(env: Env, id: unknown, o: Observation): KnownNote | undefined {
  const n = typeof id === 'string' ? env.world.notes.get(id) : undefined;
  return n && quiet(n, o, touchesOf(o).notes, n.id) ? n : undefined;
}

/** A collection the shadow knows (alive or deleted), settled for judging the answer to `o`. */
export function knownCollection(env: Env, id: unknown, o: Observation): KnownCollection | undefined {
  const c = typeof id === 'string' ? env.world.collections.get(id) : undefined;
  return c && quiet(c, o, touchesOf(o).collections, c.id) ? c : undefined;
}

/** The documented quota refusal (its body's error.type): a condition of the account, not an answer to the input. */
export function isQuotaRefusal(o: Observation): boolean {
  return objectOf(objectOf(o.x.json).error).type === 'quota_exceeded';
}

/** An answer that says nothing about the request's input: rate limited, or the account's quota spent. */
export function notAnAnswer(env: Env, o: Observation): boolean {
  return o.x.status === 429 || o.x.status === env.statuses.rate_limited || isQuotaRefusal(o);
}
