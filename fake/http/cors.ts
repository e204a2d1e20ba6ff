import { header } from './parse.js';
import type { FakeRequest, FakeResponse } from './types.js';

/** Request headers a browser client of the API needs; others it asks for in a preflight are echoed. */
const ALWAYS_ALLOWED_HEADERS = ['Authorization', 'Content-Type'];
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** How long a browser may cache a preflight answer (seconds); short, so a restarted fake is seen soon. */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * CORS for browser apps developed against the fake: every origin is echoed (a local fake has
 * no origin to protect), and the response headers a client reads are exposed.
 */
export class Cors {
  private readonly expose: string;

  /** `exposedHeaders`: the rate-limit and Retry-After names this instance sends. */
  constructor(exposedHeaders: readonly string[]) {
    this.expose = exposedHeaders.join(', ');
  }

  /** Adds the headers every response carries, whether it succeeded or not. */
  decorate(request: FakeRequest, headers: Record<string, string>): void {
    const origin = header(request.headers, 'origin');
    headers.vary = headers.vary ? `${headers.vary}, Origin` : 'Origin';
    if (origin === undefined) return;
    headers['access-control-allow-origin'] = origin;
    if (this.expose !== '') headers['access-control-expose-headers'] = this.expose;
  }

  /** The answer to OPTIONS on a path served under `allowed` methods (the preflight needs no token). */
  preflight(request: FakeRequest, allowed: readonly string[]): FakeResponse {
    const methods = [...allowed, 'OPTIONS'].join(', ');
    const asked = (header(request.headers, 'access-control-request-headers') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter((h) => HEADER_NAME.test(h));
    const allowHeaders = [...new Set([...ALWAYS_ALLOWED_HEADERS, ...asked].map((h) => h.toLowerCase()))].map(
      (h) => ALWAYS_ALLOWED_HEADERS.find((a) => a.toLowerCase() === h) ?? h,
    );
    const headers: Record<string, string> = {
      allow: methods,
      'access-control-allow-methods': methods,
      'access-control-allow-headers': allowHeaders.join(', '),
      'access-control-max-age': String(PREFLIGHT_MAX_AGE_S),
      vary: 'Access-Control-Request-Method, Access-Control-Request-Headers',
    };
    return { status: 204, headers, json: undefined, text: '' };
  }
}
