import type { Request } from '../behaviour/request.js';
import type { Touches } from '../behaviour/state.js';
import type { Exchange } from '../client.js';
import type { ExchangeObserver as CoreObserver, Sent } from '../observer.js';

export type { Sent } from '../observer.js';

/** A request and its answer, with when it was sent and answered in the run's order of requests. */
export interface Observation extends Request {
  readonly x: Exchange;
  /** The same exchange cut to a size for keeping: facts and findings hold this one, never the whole body. */
  readonly ev: Exchange;
  readonly endSeq: number;
}

/** The oracle's observer: its record of a request in flight is a Pending. */
export type ExchangeObserver = CoreObserver<Pending>;

export interface Pending {
  readonly sent: Sent;
  readonly startSeq: number;
  readonly startedAt: number;
  readonly touches: Touches;
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
