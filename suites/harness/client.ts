import { Agent, errors as undiciErrors, request } from 'undici';
import { Breaker, TargetUnavailable } from './breaker.js';
import { KitError } from './errors.js';
import { type NamedSecret, curlRepro } from './repro.js';

/** One request and its answer, as recorded for evidence (bodies cut, secrets redacted). */
export interface Exchange {
  readonly method: string;
  /** Path and query, relative to the target's base URL. */
  readonly path: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody?: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The response body as text (cut for the record, whole for parsing). */
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  readonly json: unknown;
  readonly durationMs: number;
  /** Problems of a 200 body against its schema in spec/ (set by the api layer). */
  schemaProblems?: string[];
  /** A shell command sending this request again as it was sent, credentials as variables (repro.ts). */
  readonly repro?: string;
}

export interface SendOptions {
  method: string;
  path: string;
  query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** A JSON body (serialised), or raw bytes/text sent as they are. */
  json?: unknown;
  raw?: string | Uint8Array;
  contentType?: string | null;
  /** The bearer token; null sends no Authorization header at all. */
  token: string | null;
  /** Replaces the Authorization header entirely (auth checks). */
  authorization?: string;
  /** Return a final 429 instead of treating it as the kit's problem (rate-limit checks). */
  acceptRateLimited?: boolean;
  /** Do not wait for X-RateLimit-Reset when the bucket is empty (the check that empties it). */
  ignoreRemaining?: boolean;
}

export interface ClientOptions {
  baseUrl: string;
  timeoutMs: number;
  requestBudget: number;
  requestsPerSecond?: number;
  /** Values never written to evidence (tokens). */
  secrets: readonly string[];
  /** The variables that stand for the secrets in repro commands (NOTES_TOKEN...); unnamed ones get NOTES_SECRET_N. */
  secretVariables?: Readonly<Record<string, string>>;
  /** Longest Retry-After the kit waits for before reporting the target as rate limiting it. */
  maxRetryAfterMs?: number;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const RECORD_CHARS = 4096;
const MAX_RATE_RETRIES = 3;

/**
 * The kit's only way to the target: undici with a per-request timeout, no redirects followed
 * (a 3xx is returned as it is, so the token never travels to another origin), 429 +
 * Retry-After honoured, X-RateLimit-Remaining pacing, a request budget and a rate cap, and a
 * breaker that stops waiting on a target that no longer answers.
 */
export class TargetClient {
  private readonly agent: Agent;
  private readonly base: URL;
  private nextAllowedAt = 0;
  private bucketEmptyUntil = 0;
  private recorder: Exchange[] | undefined;
  private readonly extraSecrets: string[] = [];
  private readonly learnedVariables = new Map<string, string>();
  private readonly breaker = new Breaker();
  sent = 0;

  constructor(private readonly options: ClientOptions) {
    this.base = new URL(options.baseUrl);
    this.agent = new Agent({
      keepAliveTimeout: 4_000,
      connections: 16,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: { timeout: Math.min(options.timeoutMs, 10_000) },
    });
  }

  get origin(): string {
    return this.base.origin;
  }

  /** Exchanges from now on are also pushed to this list (the running check's evidence). */
  record(into: Exchange[] | undefined): void {
    this.recorder = into;
  }

  async send(opts: SendOptions): Promise<Exchange> {
    this.breaker.admit(`${opts.method} ${this.redact(opts.path)}`);
    for (let attempt = 0; ; attempt++) {
      let exchange: Exchange;
      try {
        exchange = await this.sendOnce(opts);
      } catch (error) {
        if (error instanceof TargetUnavailable) this.breaker.failed(error);
        throw error;
      }
      if (exchange.status !== 429 || opts.acceptRateLimited) {
        this.breaker.answered();
        return exchange;
      }
      const wait = retryAfterMs(exchange.headers['retry-after']);
      if (attempt >= MAX_RATE_RETRIES || wait === undefined || wait > (this.options.maxRetryAfterMs ?? 60_000)) {
        const error = new TargetUnavailable(`${opts.method} ${exchange.path}: the target answered 429 (rate limited) ${attempt + 1} time(s)${wait === undefined ? ' without a usable Retry-After' : `, asking to wait ${Math.round(wait / 1000)} s`}; lower requests_per_second in the profile`, 'rate-limited');
        this.breaker.failed(error);
        throw error;
      }
      await sleep(wait);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async sendOnce(opts: SendOptions): Promise<Exchange> {
    if (this.sent >= this.options.requestBudget) {
      throw new KitError(`the request budget of ${this.options.requestBudget} is spent (profile budgets.request_budget)`);
    }
    await this.pace(opts.ignoreRemaining === true);
    const url = this.urlFor(opts);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.authorization !== undefined) headers.authorization = opts.authorization;
    else if (opts.token !== null) headers.authorization = `Bearer ${opts.token}`;
    let body: string | Uint8Array | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.json !== undefined) body = JSON.stringify(opts.json);
    if (body !== undefined && opts.contentType !== null) headers['content-type'] = opts.contentType ?? 'application/json';

    this.sent++;
    const started = performance.now();
    let status: number;
    let responseHeaders: Record<string, string>;
    let bytes: Buffer;
    try {
      const response = await request(url, {
        dispatcher: this.agent,
        method: opts.method as 'GET',
        headers,
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      status = response.statusCode;
      responseHeaders = flattenHeaders(response.headers);
      bytes = await readCapped(response.body);
    } catch (error) {
      throw transportError(error, `${opts.method} ${url.pathname}`, this.options.timeoutMs);
    }
    const text = bytes.toString('utf8');
    const exchange: Exchange = {
      method: opts.method,
      path: this.redact(url.pathname + url.search),
      requestHeaders: this.redactHeaders(headers),
      ...(body === undefined ? {} : { requestBody: this.redact(cut(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'))) }),
      status,
      headers: responseHeaders,
      text: this.redact(text),
      json: parseJson(text, responseHeaders['content-type']),
      durationMs: Math.round(performance.now() - started),
      repro: curlRepro({ method: opts.method, url: url.href, headers, ...(body === undefined ? {} : { body }) }, this.namedSecrets()),
    };
    this.afterResponse(exchange);
    this.recorder?.push({ ...exchange, text: cut(exchange.text) });
    return exchange;
  }

  private urlFor(opts: SendOptions): URL {
    if (!opts.path.startsWith('/') || opts.path.startsWith('//')) throw new KitError(`refusing a path that is not relative to the target: ${opts.path}`);
    const url = new URL(this.base.pathname.replace(/\/$/, '') + opts.path, this.base);
    for (const [key, value] of Object.entries(opts.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    // The token goes only to the target's own origin.
    if (url.origin !== this.base.origin) throw new KitError(`refusing to send a request to ${url.origin}, which is not the target`);
    return url;
  }

  /**
   * Waits for this request's slot. The slot is taken before waiting, so that concurrent sends
   * queue one interval apart instead of all reading the same free slot.
   */
  private async pace(ignoreRemaining: boolean): Promise<void> {
    const now = Date.now();
    const slot = Math.max(now, this.nextAllowedAt, ignoreRemaining ? 0 : this.bucketEmptyUntil);
    const rps = this.options.requestsPerSecond;
    this.nextAllowedAt = slot + (rps ? 1000 / rps : 0);
    if (slot > now) await sleep(slot - now);
  }

  /** Slows down when the target says the bucket is empty (X-RateLimit-Remaining: 0). */
  private afterResponse(exchange: Exchange): void {
    const remaining = Number(exchange.headers['x-ratelimit-remaining']);
    if (!(remaining <= 0)) return;
    const reset = Number(exchange.headers['x-ratelimit-reset']);
    const waitMs = !Number.isFinite(reset) ? 1000 : reset > 1e9 ? reset * 1000 - Date.now() : reset * 1000;
    this.bucketEmptyUntil = Math.max(this.bucketEmptyUntil, Date.now() + Math.min(Math.max(waitMs, 0), 60_000));
  }

  /** A credential learned during the run (a fixture user's token): redacted from now on. */
  addSecret(secret: string): void {
    this.extraSecrets.push(secret);
    // A fixture user's token: the user is gone after the run, so its repro names the Nth such user.
    this.learnedVariables.set(secret, `NOTES_FIXTURE_TOKEN_${this.learnedVariables.size + 1}`);
  }

  private namedSecrets(): NamedSecret[] {
    const named = this.options.secretVariables ?? {};
    return [
      ...this.options.secrets.map((value, i) => ({ value, variable: named[value] ?? `NOTES_SECRET_${i + 1}` })),
      ...this.extraSecrets.map((value) => ({ value, variable: this.learnedVariables.get(value)! })),
    ];
  }

  redact(text: string): string {
    let out = text;
    for (const secret of [...this.options.secrets, ...this.extraSecrets]) if (secret.length >= 4) out = out.split(secret).join('***');
    return out;
  }

  /**
   * An exchange as it may leave the run (evidence in reports): redacted again with every secret
   * known by now, response headers included, and without the parsed body (the checks need real
   * values there; the report has the redacted text).
   */
  forEvidence(x: Exchange): Exchange {
    return {
      ...x,
      json: undefined,
      path: this.redact(x.path),
      requestHeaders: this.redactHeaders(x.requestHeaders),
      ...(x.requestBody === undefined ? {} : { requestBody: this.redact(x.requestBody) }),
      headers: this.redactHeaders(x.headers),
      text: this.redact(x.text),
    };
  }

  private redactHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) out[k] = k === 'authorization' ? redactAuthorization(v) : this.redact(v);
    return out;
  }
}

/** Credentials never reach evidence: at most the scheme word stays ("Bearer ***"). */
function redactAuthorization(value: string): string {
  const [scheme = '', ...rest] = value.trim().split(/\s+/);
  if (rest.length > 0) return `${scheme} ***`;
  // A lone word may itself be a token; only a bare scheme name is safe to show.
  return /^(Bearer|Basic)?$/i.test(scheme) ? value : '***';
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

async function readCapped(body: AsyncIterable<Buffer | Uint8Array> & { destroy?: (e?: Error) => void }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      body.destroy?.();
      throw new KitError(`the response body exceeds ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

function parseJson(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  if (contentType && !/json/i.test(contentType) && !/^\s*[{[]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** No HTTP answer at all, named by its cause (TargetUnavailable, so the breaker counts it). */
function transportError(error: unknown, what: string, timeoutMs: number): KitError {
  if (error instanceof KitError) return error;
  const unavailable = (message: string) => new TargetUnavailable(message, 'no-answer');
  const e = error as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError
    || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return unavailable(`${what}: no complete answer within ${timeoutMs} ms (timeout)`);
  }
  if (code === 'ECONNREFUSED') return unavailable(`${what}: connection refused by the target`);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return unavailable(`${what}: the target closed the connection (${code})`);
  if (code?.startsWith('HPE_')) return unavailable(`${what}: the target's answer is not valid HTTP (${code})`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return unavailable(`${what}: the target's host name does not resolve`);
  // Anything else may be the kit's own doing (a header undici refuses): not counted against the target.
  return new KitError(`${what}: ${code ? `${code}: ` : ''}${e.message ?? String(error)}`);
}

function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function cut(text: string): string {
  return text.length > RECORD_CHARS ? `${text.slice(0, RECORD_CHARS)}… (${text.length} characters in all)` : text;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
