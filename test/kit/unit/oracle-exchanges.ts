import type { Exchange } from '../../../kit/core/client.js';

/** Answers so far, across the oracle's unit tests: each success gets its own request_id. */
let answers = 0;

/**
 * An answer written as a server would send it: a success carries a fresh request_id, a JSON body is
 * declared as JSON, and the Date header is the time the server stamped what it wrote (the oracle
 * judges defaulted timestamps by it). `stampRefusals` also gives refusals a request_id.
 */
export function answer(method: string, path: string, status: number, json: unknown, stampRefusals = true): Exchange {
  const body =
    json === undefined
      ? undefined
      : status < 300 || stampRefusals
        ? { request_id: `r${++answers}`, ...(json as object) }
        : json;
  const stamp = (json as { updated_at?: unknown } | undefined)?.updated_at;
  return {
    method,
    path,
    requestHeaders: {},
    status,
    headers: {
      ...(typeof stamp === 'string' ? { date: new Date(stamp).toUTCString() } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    text: JSON.stringify(body ?? ''),
    json: body,
    durationMs: 1,
  };
}
