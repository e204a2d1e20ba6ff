import { Agent, request, errors as undiciErrors } from 'undici';
import { KitError } from '../../spec/verdicts.js';
import { Breaker, TargetUnavailable } from './breaker.js';
import type { Exchange } from './exchange.js';
import { type HarEntry, harEntry } from './har.js';
import { trackReads } from './read-tracking.js';
import { redactText } from './redact.js';
import { curlRepro, type NamedSecret, plannedRequest, type SentRequest } from './repro.js';
import { WriteHistory } from './write-history.js';

export type { Exchange } from './exchange.js';

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
  /**
   * The per-wait cap: the longest the kit waits for a rate limit (Retry-After, or an empty
   * X-RateLimit bucket) in one stretch of refusals; a longer wait makes the request a KitError.
   */
  maxRetryAfterMs?: number;
  /** Bytes read of one response body at most; past it the client stops reading (KitError). */
  maxResponseBytes?: number;
  /** The run's deadline (epoch ms): no request is sent and no wait ends after it. */
  deadlineAt?: number;
  /** Says what the deadline is, for the messages (e.g. "the run's --max-duration of 30 min"). */
  deadlineWhat?: string;
  /** Told of every credential learned during the run (addSecret), e.g. to redact it from the run's reports. */
  onSecretLearned?: (secret: string) => void;
  /** Aborts every request in flight and every wait, and refuses new requests (the run was stopped). */
  signal?: AbortSignal;
  /** The run's recording (`--har`): each answered exchange, redacted, as a HAR entry with an id of this prefix. */
  recording?: { readonly prefix: string; readonly write: (entry: HarEntry) => void };
  /**
   * Where the budgets came from, for the messages that name them ("--request-budget", "the default
   * for a remote target"; kit/budgets.ts budgetSources); `request_budget` may say more (a worker's share).
   */
  sources?: Readonly<Partial<Record<'request_budget' | 'max_rate_limit_wait_ms' | 'max_response_bytes', string>>>;
  /** The run's stretch of rate-limit refusals, shared with its other processes' clients (run-folder.ts). */
  rateLimitStretch?: { read(): number | undefined; write(since: number | undefined): void };
}

export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 60_000;
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
  /**
   * Until when each credential's X-RateLimit bucket is empty (keyed by the Authorization sent):
   * a bucket is the caller's, so a fixture user that empties its own (the rate-limit check) does
   * not hold up the main user's requests.
   */
  private readonly bucketEmptyUntil = new Map<string, number>();
  private recorder: Exchange[] | undefined;
  private onRead: ((index: number) => void) | undefined;
  private readonly extraSecrets: string[] = [];
  private readonly learnedVariables = new Map<string, string>();
  private readonly breaker = new Breaker();
  /** When the current stretch of rate-limit refusals began (undefined: the last answer was not one). */
  private rateLimitedSince: number | undefined;
  private deadlineAt: number | undefined;
  private deadlineWhat: string;
  private stop: AbortSignal | undefined;
  /** Requests sent within the request budget. */
  sent = 0;
  /** Requests sent to clean up (cleanup()): past the budget if need be, and counted apart. */
  cleanupSent = 0;
  private cleaning = 0;
  /** Every request sent, for the recording's ids. */
  private seq = 0;
  /** What made and changed each id this client created, for repros (writesOf). */
  private readonly history = new WriteHistory();

  constructor(private readonly options: ClientOptions) {
    this.base = new URL(options.baseUrl);
    this.deadlineAt = options.deadlineAt;
    this.deadlineWhat = options.deadlineWhat ?? "the run's deadline";
    this.stop = options.signal;
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

  /**
   * Exchanges from now on are also pushed to this list (the running check's evidence); with
   * `onRead`, each exchange handed back says when its answer is read, by its index in the list
   * (read-tracking.ts: how a failure finds the exchange it judged).
   */
  record(into: Exchange[] | undefined, onRead?: (index: number) => void): void {
    this.recorder = into;
    this.onRead = into ? onRead : undefined;
  }

  /**
   * From now on no request is sent and no wait ends after `at` (epoch ms); undefined lifts the
   * deadline. The run command's client sweeps after the run's deadline (none), or after an
   * interrupt (a bound of its own, since the sweep must itself end).
   */
  setDeadline(at: number | undefined, what = "the run's deadline"): void {
    this.deadlineAt = at;
    this.deadlineWhat = what;
  }

  /** From now on, `signal` (or nothing) stops what is in flight: the run's start-up honours Ctrl-C, its sweep does not. */
  honour(signal: AbortSignal | undefined): void {
    this.stop = signal;
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
      this.rateLimited(exchange.status === 429);
      if (exchange.status !== 429 || opts.acceptRateLimited) {
        this.breaker.answered();
        return exchange;
      }
      const wait = retryAfterMs(exchange.headers['retry-after']) ?? emptyBucketWaitMs(exchange.headers);
      const refusal = attempt >= MAX_RATE_RETRIES ? undefined : this.waitRefusal(wait);
      if (attempt >= MAX_RATE_RETRIES || wait === undefined || refusal !== undefined) {
        const asked =
          wait === undefined ? ' without a usable Retry-After' : `, asking to wait ${Math.round(wait / 1000)} s`;
        const error = new TargetUnavailable(
          `${opts.method} ${exchange.path}: the target's rate limit: it answered 429 (rate limited) ${attempt + 1} time(s)` +
            `${asked}${refusal ? `; ${refusal}` : ''}; a slower pace may help (--requests-per-second)`,
          'rate-limited',
        );
        this.breaker.failed(error);
        throw error;
      }
      await this.sleep(wait);
    }
  }

  /** Begins or ends the stretch of rate-limit refusals, for every client of the run. */
  private rateLimited(refused: boolean): void {
    const shared = this.options.rateLimitStretch;
    if (!refused) {
      if (this.rateLimitedSince !== undefined) shared?.write(undefined);
      this.rateLimitedSince = undefined;
    } else if (this.rateLimitedSince === undefined) {
      this.rateLimitedSince = shared?.read() ?? Date.now();
      shared?.write(this.rateLimitedSince);
    }
  }

  /**
   * Why the kit will not wait `waitMs` for a rate limit, if it will not: the wait would end past
   * the run's deadline, or the stretch of refusals it belongs to would last longer than the
   * per-wait cap (so a target that rate-limits forever costs one cap, not one cap per retry).
   */
  private waitRefusal(waitMs: number | undefined): string | undefined {
    if (waitMs === undefined) return undefined;
    const now = Date.now();
    const cap = this.options.maxRetryAfterMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
    const since = this.rateLimitedSince ?? now;
    if (now + waitMs - since > cap) {
      const waited = now - since >= 1000 ? ` after ${Math.round((now - since) / 1000)} s of refusals` : '';
      const source = this.options.sources?.max_rate_limit_wait_ms ?? 'budgets.max_rate_limit_wait_ms';
      return `that is beyond the ${Math.round(cap / 1000)} s the kit waits for a rate limit${waited} (${source}), so it did not wait`;
    }
    if (this.deadlineAt !== undefined && now + waitMs > this.deadlineAt) {
      return `waiting ${Math.ceil(waitMs / 1000)} s would run past ${this.deadlineWhat}, so the kit did not wait`;
    }
    return undefined;
  }

  private async sleep(ms: number): Promise<void> {
    const signal = this.stop;
    if (signal?.aborted) throw stopped(signal);
    if (!signal) return sleep(ms);
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(stopped(signal));
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Runs `work` as cleanup: its requests are not held to the request budget (what the run made
   * must go even when the budget is spent) and are counted in cleanupSent, not in sent.
   */
  async cleanup<T>(work: () => Promise<T>): Promise<T> {
    this.cleaning++;
    try {
      return await work();
    } finally {
      this.cleaning--;
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async sendOnce(opts: SendOptions): Promise<Exchange> {
    if (this.cleaning === 0 && this.sent >= this.options.requestBudget) {
      const source = this.options.sources?.request_budget ?? 'budgets.request_budget';
      throw new KitError(`not sent: the request budget of ${this.options.requestBudget} is spent (${source})`);
    }
    if (this.stop?.aborted) throw stopped(this.stop);
    const url = this.urlFor(opts);
    const credential = bucketKey(opts);
    await this.pace(opts.ignoreRemaining === true, credential, `${opts.method} ${this.redact(url.pathname)}`);
    if (this.deadlineAt !== undefined && Date.now() >= this.deadlineAt)
      throw new KitError(`${opts.method} ${this.redact(url.pathname)} not sent: ${this.deadlineWhat} is over`);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.authorization !== undefined) headers.authorization = opts.authorization;
    else if (opts.token !== null) headers.authorization = `Bearer ${opts.token}`;
    let body: string | Uint8Array | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.json !== undefined) body = JSON.stringify(opts.json);
    if (body !== undefined && opts.contentType !== null)
      headers['content-type'] = opts.contentType ?? 'application/json';

    if (this.cleaning > 0) this.cleanupSent++;
    else this.sent++;
    const seq = ++this.seq;
    const startedAt = Date.now();
    const started = performance.now();
    const what = `${opts.method} ${this.redact(url.pathname)}`;
    // A request never outlives the deadline: its timeout is cut to what is left.
    const timeoutMs = Math.max(
      1,
      Math.min(this.options.timeoutMs, this.deadlineAt === undefined ? Infinity : this.deadlineAt - Date.now()),
    );
    const stop = this.stop;
    const abort = abortOnTimeoutOrStop(timeoutMs, stop);
    let status: number;
    let responseHeaders: Record<string, string>;
    let bytes: Buffer;
    try {
      const response = await request(url, {
        dispatcher: this.agent,
        method: opts.method as 'GET',
        headers,
        ...(body === undefined ? {} : { body }),
        signal: abort.signal,
      });
      status = response.statusCode;
      responseHeaders = flattenHeaders(response.headers);
      const cap = this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
      const source = this.options.sources?.max_response_bytes ?? 'budgets.max_response_bytes';
      const tooLarge = `${what}: the response is over ${cap} bytes (${source}); the kit stopped reading it`;
      bytes = await readCapped(response.body, cap, tooLarge, responseHeaders['content-length']);
    } catch (error) {
      const failure = stop?.aborted ? stopped(stop, what) : transportError(error, what, timeoutMs);
      // The recording keeps requests without a (whole) answer too, as browsers do: status 0.
      if (this.options.recording)
        this.recordUnanswered(opts.method, url, headers, body, { seq, startedAt, started }, failure);
      throw failure;
    } finally {
      abort.done();
    }
    // A long body's lists are cut in its bytes, before it is text: a million items never become a
    // 3 MB string per answer, which the worker's heap kept as garbage up to 600 MB (LONGEST_LIST).
    const text = Buffer.from(bytes.length > 1 << 20 ? withoutLongListTails(bytes) : bytes).toString('utf8');
    const exchange: Exchange = {
      method: opts.method,
      path: this.redact(url.pathname + url.search),
      requestHeaders: this.redactHeaders(headers),
      ...(body === undefined
        ? {}
        : { requestBody: this.redact(cut(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'))) }),
      status,
      headers: responseHeaders,
      text: this.redact(text),
      json: parseJson(text, responseHeaders['content-type']),
      durationMs: Math.round(performance.now() - started),
      ...this.replayOf({ method: opts.method, url: url.href, headers, ...(body === undefined ? {} : { body }) }),
      ...(this.options.recording ? { id: `${this.options.recording.prefix}${seq}` } : {}),
      seq,
    };
    const createdId = opts.method === 'POST' && status >= 200 && status < 300 ? idOf(exchange.json) : undefined;
    if (createdId !== undefined) (exchange as { createdId?: string }).createdId = createdId;
    this.history.add({ ...exchange, json: undefined, text: cut(exchange.text) }, body);
    if (this.options.recording) this.recordHar(exchange, url, startedAt, body);
    this.afterResponse(exchange, credential);
    if (!this.recorder) return exchange;
    // The record is for evidence, which is text: a parsed body of a million items stays with the caller only.
    const index = this.recorder.push({ ...exchange, json: undefined, text: cut(exchange.text) }) - 1;
    const onRead = this.onRead;
    return onRead ? trackReads(exchange, () => onRead(index)) : exchange;
  }

  /**
   * The repro of a request: its command as sent, and the means to write it with more variables (a
   * failure's script, kit/core/repro-script.ts). The credentials stay in `request`, in memory only.
   */
  private replayOf(request: SentRequest): Pick<Exchange, 'repro' | 'replay' | 'plan'> {
    return {
      repro: curlRepro(request, this.namedSecrets()),
      replay: (variables, options) => curlRepro(request, [...this.namedSecrets(), ...variables], options),
      plan: (variables) => plannedRequest(request, this.base.href, [...this.namedSecrets(), ...variables]),
    };
  }

  /**
   * The writes this client sent that made and changed `id`, in the order sent, if it still keeps
   * them (write-history.ts): a failure's repro makes again what the failing request names.
   */
  writesOf(id: string): readonly Exchange[] {
    return this.history.of(id);
  }

  /** The run's recording: the whole request body (redacted), not the evidence's cut one. */
  private recordHar(exchange: Exchange, url: URL, startedAt: number, body: string | Uint8Array | undefined): void {
    const sent = typeof body === 'string' ? body : body === undefined ? undefined : Buffer.from(body).toString('utf8');
    this.options.recording!.write(
      harEntry(
        exchange,
        { url: this.redact(url.href), startedAt, ...(sent === undefined ? {} : { body: this.redact(sent) }) },
        exchange.id!,
      ),
    );
  }

  private recordUnanswered(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    { seq, startedAt, started }: { seq: number; startedAt: number; started: number },
    failure: Error,
  ): void {
    const sent = typeof body === 'string' ? body : body === undefined ? undefined : Buffer.from(body).toString('utf8');
    const exchange: Exchange = {
      method,
      path: this.redact(url.pathname + url.search),
      requestHeaders: this.redactHeaders(headers),
      status: 0,
      headers: {},
      text: '',
      json: undefined,
      durationMs: Math.round(performance.now() - started),
      id: `${this.options.recording!.prefix}${seq}`,
    };
    const entry = harEntry(
      exchange,
      { url: this.redact(url.href), startedAt, ...(sent === undefined ? {} : { body: this.redact(sent) }) },
      exchange.id!,
    );
    this.options.recording!.write({ ...entry, comment: `no answer: ${this.redact(failure.message)}` });
  }

  private urlFor(opts: SendOptions): URL {
    if (!opts.path.startsWith('/') || opts.path.startsWith('//'))
      throw new KitError(`refusing a path that is not relative to the target: ${opts.path}`);
    const url = new URL(this.base.pathname.replace(/\/$/, '') + opts.path, this.base);
    for (const [key, value] of Object.entries(opts.query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    // The token goes only to the target's own origin.
    if (url.origin !== this.base.origin)
      throw new KitError(`refusing to send a request to ${url.origin}, which is not the target`);
    return url;
  }

  /**
   * Waits for this request's slot. The slot is taken before waiting, so that concurrent sends
   * queue one interval apart instead of all reading the same free slot.
   */
  private async pace(ignoreRemaining: boolean, credential: string, what: string): Promise<void> {
    const now = Date.now();
    const emptyUntil = this.bucketEmptyUntil.get(credential) ?? 0;
    const bucketWait = ignoreRemaining ? 0 : emptyUntil - now;
    if (bucketWait > 0) {
      // An empty bucket that resets too late: a KitError naming the rate limit, without waiting.
      const refusal = this.waitRefusal(bucketWait);
      if (refusal) {
        throw new TargetUnavailable(
          `${what} not sent: the target's rate limit: X-RateLimit-Remaining was 0, resetting in ${Math.ceil(bucketWait / 1000)} s; ${refusal}`,
          'rate-limited',
        );
      }
      this.rateLimitedSince ??= now;
    }
    const slot = Math.max(now, this.nextAllowedAt, ignoreRemaining ? 0 : emptyUntil);
    const rps = this.options.requestsPerSecond;
    this.nextAllowedAt = slot + (rps ? 1000 / rps : 0);
    if (slot > now) await this.sleep(slot - now);
  }

  /** Slows down when the target says the bucket is empty (X-RateLimit-Remaining: 0). */
  private afterResponse(exchange: Exchange, credential: string): void {
    const waitMs = emptyBucketWaitMs(exchange.headers);
    if (waitMs === undefined) return;
    this.bucketEmptyUntil.set(credential, Math.max(this.bucketEmptyUntil.get(credential) ?? 0, Date.now() + waitMs));
  }

  /** A credential learned during the run (a fixture user's token): redacted from now on. */
  addSecret(secret: string): void {
    this.extraSecrets.push(secret);
    this.options.onSecretLearned?.(secret);
    // A fixture user's token: the user is gone after the run, so its repro names the Nth such user.
    this.learnedVariables.set(secret, `NOTES_FIXTURE_TOKEN_${this.learnedVariables.size + 1}`);
  }

  /** Every secret known by now: the given tokens and those learned during the run. */
  get secrets(): readonly string[] {
    return [...this.options.secrets, ...this.extraSecrets];
  }

  private namedSecrets(): NamedSecret[] {
    const named = this.options.secretVariables ?? {};
    return [
      ...this.options.secrets.map((value, i) => ({ value, variable: named[value] ?? `NOTES_SECRET_${i + 1}` })),
      ...this.extraSecrets.map((value) => ({ value, variable: this.learnedVariables.get(value)! })),
    ];
  }

  redact(text: string): string {
    return redactText(text, this.secrets);
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
    for (const [k, v] of Object.entries(headers))
      out[k] = k === 'authorization' ? redactAuthorization(v) : this.redact(v);
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
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * The body, read up to `cap` bytes: past it (or when Content-Length announces more) the client
 * stops reading and drops the connection, so a 15 MB or endless body costs the kit `cap` bytes.
 */
async function readCapped(
  body: AsyncIterable<Buffer | Uint8Array> & {
    destroy?: (e?: Error) => void;
    on?: (event: 'error', listener: () => void) => unknown;
  },
  cap: number,
  tooLarge: string,
  contentLength: string | undefined,
): Promise<Buffer> {
  const over = () => {
    // Destroying a body nobody reads emits an abort error: it is ours, not news.
    body.on?.('error', () => {});
    body.destroy?.();
    return new KitError(tooLarge);
  };
  if (contentLength !== undefined && Number(contentLength) > cap) throw over();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > cap) throw over();
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** The wait X-RateLimit-Remaining: 0 asks for (X-RateLimit-Reset in seconds from now, or an epoch instant); else undefined. */
/** Whose rate-limit bucket a request draws on: its credential as sent (none is a bucket too). */
function bucketKey(opts: SendOptions): string {
  return opts.authorization ?? (opts.token === null ? '' : `Bearer ${opts.token}`);
}

function emptyBucketWaitMs(headers: Readonly<Record<string, string>>): number | undefined {
  const remaining = Number(headers['x-ratelimit-remaining']);
  if (headers['x-ratelimit-remaining'] === undefined || !(remaining <= 0)) return undefined;
  const reset = Number(headers['x-ratelimit-reset']);
  const waitMs =
    !Number.isFinite(reset) || headers['x-ratelimit-reset']?.trim() === ''
      ? 1000
      : reset > 1e9
        ? reset * 1000 - Date.now()
        : reset * 1000;
  return Math.max(waitMs, 0);
}

/** The run was stopped (SIGTERM, Ctrl-C): what was in flight ends now, as the kit's own doing. */
function stopped(signal: AbortSignal, what?: string): KitError {
  const reason =
    signal.reason instanceof Error
      ? signal.reason.message
      : typeof signal.reason === 'string'
        ? signal.reason
        : 'the run was stopped';
  return new KitError(`${what ? `${what}: ` : ''}${reason}`);
}

/** The top-level id of an answer: a string, or a number as the path of its delete carries it. */
function idOf(json: unknown): string | undefined {
  const id = (json as { id?: unknown } | null | undefined)?.id;
  if (typeof id === 'string' && id !== '') return id;
  return typeof id === 'number' && Number.isFinite(id) ? String(id) : undefined;
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

/**
 * Lists in a long body keep their first LONGEST_LIST items, in the exchange's text and so in its
 * parse. The document's longest page is 100 items, so a longer list already breaks its schema,
 * which the schema check still sees. Cut in the bytes, before decoding and parsing: a hostile
 * answer of a million `{}` within the byte cap would otherwise make a 3 MB string and ~50 MiB of
 * objects for every answer.
 */
export const LONGEST_LIST = 2000;

/**
 * The JSON body with every list cut after LONGEST_LIST items (a body that is not JSON stays one).
 * Bytes, not characters: what delimits JSON is ASCII, and no byte of a UTF-8 sequence for another
 * character is a quote, a backslash, a bracket or a comma.
 */
export function withoutLongListTails(body: Uint8Array): Uint8Array {
  const counts: number[] = []; // items so far of each open list; -1 for an object
  const parts: Uint8Array[] = [];
  let from = 0;
  let skipDepth = -1; // the depth of the list whose tail is being skipped
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === 0x22) {
      // a string: jump to its closing quote
      for (i++; i < body.length && body[i] !== 0x22; i++) if (body[i] === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      counts.push(c === 0x5b ? 1 : -1);
    } else if (c === 0x5d || c === 0x7d) {
      if (skipDepth === counts.length) {
        from = i;
        skipDepth = -1;
      }
      counts.pop();
    } else if (c === 0x2c && skipDepth < 0 && counts.length > 0 && counts[counts.length - 1]! >= 1) {
      const depth = counts.length;
      if (++counts[depth - 1]! > LONGEST_LIST) {
        parts.push(body.subarray(from, i));
        skipDepth = depth;
      }
    }
  }
  if (parts.length === 0) return body;
  parts.push(body.subarray(from));
  return Buffer.concat(parts);
}

/**
 * One request's signal: aborted with a TimeoutError after `timeoutMs`, or with the stop signal's
 * reason; done() clears both. (AbortSignal.timeout with AbortSignal.any cost three times as much a
 * request, and left a 10 s timer behind each.)
 */
function abortOnTimeoutOrStop(timeoutMs: number, stop: AbortSignal | undefined): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    timeoutMs,
  );
  timer.unref(); // as AbortSignal.timeout's: a request in flight holds the process, not its timer
  const onStop = () => controller.abort(stop?.reason);
  if (stop?.aborted) onStop();
  else stop?.addEventListener('abort', onStop, { once: true });
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      stop?.removeEventListener('abort', onStop);
    },
  };
}

/** No HTTP answer at all, named by its cause (TargetUnavailable, so the breaker counts it). */
function transportError(error: unknown, what: string, timeoutMs: number): KitError {
  if (error instanceof KitError) return error;
  const unavailable = (message: string) => new TargetUnavailable(message, 'no-answer');
  const e = error as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  if (
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return unavailable(`${what}: no complete answer within ${timeoutMs} ms (timeout)`);
  }
  if (code === 'ECONNREFUSED') return unavailable(`${what}: connection refused by the target`);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return unavailable(`${what}: the target closed the connection (${code})`);
  if (code?.startsWith('HPE_')) return unavailable(`${what}: the target's answer is not valid HTTP (${code})`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return unavailable(`${what}: the target's host name does not resolve`);
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
