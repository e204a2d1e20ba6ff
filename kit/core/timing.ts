import { KitError } from '../../spec/verdicts.js';
import type { Exchange } from './client.js';
import type { KitContext } from './context.js';

/** How long the kit waits for a write to show in search or related notes when the target declares nothing. */
export const DEFAULT_SEARCH_INDEX_LAG_MS = 10_000;
/** Past the declared lag: timers fire a little early, and "about 1.5 s" is rarely exact. */
const LAG_SLACK_MS = 250;
/** Polls per wait at most: the request budget is shared by the whole run. */
const MAX_POLLS = 15;
const FIRST_INTERVAL_MS = 100;
const MAX_INTERVAL_MS = 1_000;

/**
 * The step (ms) to which the target keeps the instants it is sent (profile `timestamp_precision_ms`).
 * A declared profile without the key keeps milliseconds (1). With no profile at all the kit cannot
 * know and tolerates whole seconds, the coarsest common storage (a plain SQL DATETIME column): the
 * document states no precision.
 */
export function timestampPrecisionMs(ctx: Pick<KitContext, 'profile' | 'profileDeclared'>): number {
  return ctx.profile.timestamp_precision_ms ?? (ctx.profileDeclared ? 1 : 1_000);
}

/** How long after a write search and related notes may still not show it (profile `search_index_lag_ms`). */
export function searchIndexLagMs(ctx: Pick<KitContext, 'profile'>): number {
  return ctx.profile.search_index_lag_ms ?? DEFAULT_SEARCH_INDEX_LAG_MS;
}

/**
 * Whether a returned instant is the supplied one as a store of `precisionMs` keeps it: the instant
 * itself, or cut down (or rounded up) to the step. With precision 1 only the instant itself.
 */
export function sameAtPrecision(returned: number, supplied: number, precisionMs: number): boolean {
  if (returned === supplied) return true;
  const down = Math.floor(supplied / precisionMs) * precisionMs;
  return returned === down || returned === down + precisionMs;
}

export interface Polled<T> {
  value: T;
  ready: boolean;
}

/**
 * Reads until `ready` holds or the search index lag has passed (a few polls, growing intervals),
 * and answers the last reading either way: for checks where not showing is itself the answer.
 */
export async function poll<T>(
  ctx: Pick<KitContext, 'profile'>,
  read: () => Promise<T>,
  ready: (value: T) => boolean,
): Promise<Polled<T>> {
  const deadline = Date.now() + searchIndexLagMs(ctx) + LAG_SLACK_MS;
  let interval = FIRST_INTERVAL_MS;
  let value = await read();
  for (let polls = 1; !ready(value); polls++) {
    const left = deadline - Date.now();
    if (left <= 0 || polls >= MAX_POLLS) return { value, ready: false };
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, left)));
    interval = Math.min(interval * 1.5, MAX_INTERVAL_MS, Math.max(FIRST_INTERVAL_MS, searchIndexLagMs(ctx) / 4));
    value = await read();
  }
  return { value, ready: true };
}

/**
 * A search or related-notes reading that must eventually show a write: polled (see poll) and, if it
 * never does, the kit cannot judge: an error naming the lag, never a fail for a note not yet indexed.
 */
export async function eventually<T>(
  ctx: Pick<KitContext, 'profile'>,
  what: string,
  read: () => Promise<T>,
  ready: (value: T) => boolean,
): Promise<T> {
  const { value, ready: done } = await poll(ctx, read, ready);
  if (done) return value;
  // (Not expect.ts's show: this module is also loaded outside vitest, by the differential run.)
  const last = isExchange(value)
    ? `: ${value.method} ${value.path} answered ${value.status} ${value.text.slice(0, 300)}`
    : '';
  const declared =
    ctx.profile.search_index_lag_ms === undefined
      ? ', the default; declare search_index_lag_ms if the index lags more'
      : '';
  throw new KitError(
    `${what} did not show within the search index lag (${searchIndexLagMs(ctx)} ms${declared}), so the check cannot judge${last}`,
  );
}

function isExchange(value: unknown): value is Exchange {
  return typeof value === 'object' && value !== null && 'status' in value && 'method' in value && 'text' in value;
}
