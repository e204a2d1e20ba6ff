import type { FakeConfig } from '../config.js';
import type { FaultName } from '../faults/catalogue.js';
import { installed } from '../faults/registry.js';
import { applyResponseFaults, EMPTY_BODY_FAULTS } from '../faults/response-faults.js';
import { isUuid } from '../ids.js';
import { settleCaptures } from '../service/capture.js';
import type { FakeSettings, ServiceContext } from '../service/context.js';
import { DomainError } from '../service/errors.js';
import { type BucketReading, COMPLEXITY_COST, LeakyBuckets } from '../service/rate-limit.js';
import type { View } from '../service/views.js';
import type { UserRecord } from '../store/records.js';
import { Store } from '../store/store.js';
import { installVariants } from '../variants/index.js';
import { Cors } from './cors.js';
import { createErrorMapper, type ErrorMapper, type HttpRefusalKind } from './error-map.js';
import { FixtureApi } from './fixtures.js';
import { nameDirectory } from './name-hints.js';
import { header, parseJsonBody } from './parse.js';
import { type RouteMatch, Router } from './router.js';
import { buildRoutes, type Call, type Route } from './routes.js';
import type { FakeRequest, FakeResponse } from './types.js';
import { type RequestNames, WireNames } from './wire-names.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const ANONYMOUS: UserRecord = {
  id: '00000000-0000-4000-8000-000000000000',
  token: '',
  name: 'anonymous',
  quota: undefined,
  rateLimit: undefined,
};
const UUID_PARAMS = new Set(['note_id', 'collection_id', 'source_collection_id', 'attachment_id', 'user_id']);

export interface Served {
  response: FakeResponse;
  /** The authenticated user, when the request got that far. */
  user?: UserRecord;
  /**
   * Names the request sent that the route does not know and unknown_fields: ignore dropped, as
   * `cursor (query)` or `config.extra (body)`; also sent as the X-Ignored-Fields header.
   */
  ignored?: readonly string[];
}

/** The response header that tells a client which of its names were dropped (unknown_fields: ignore). */
export const IGNORED_FIELDS_HEADER = 'X-Ignored-Fields';

/**
 * The transport-free core: a request in, a response out, synchronously. Routing, parsing,
 * authentication, rate limiting and serialising live here; every rule of the API lives in
 * service/, which this layer calls with canonical inputs.
 */
export class FakeCore {
  readonly ctx: ServiceContext;
  private readonly router: Router<Route>;
  /** The route table in effect (documented paths plus the profile's endpoints and names). */
  readonly routes: readonly Route[];
  private readonly mapError: ErrorMapper;
  private readonly cors: Cors | undefined;
  private readonly namesByRoute = new Map<Route, WireNames>();
  private readonly names: ReturnType<typeof nameDirectory>;
  private readonly buckets = new Map<string, LeakyBuckets>();
  /** The fixture API; its routes are relative to config.fixturesPrefix. */
  readonly fixtures: FixtureApi;
  private readonly rateHeaderFields: ReadonlyArray<{ wire: string; name: string; read: (r: BucketReading) => number }>;
  private requestCounter = 0;

  constructor(readonly config: FakeConfig) {
    const faults = config.faults;
    const broken = (f: FaultName) => faults.has(f);
    const settings: FakeSettings = {
      titleDerivation: config.titleDerivation,
      newestFirst: config.newestFirst,
      formatTime: timeFormatter(config, broken('conventions.timestamps.no-offset-in-responses')),
      snapshotTtlMs: config.snapshotTtlMs,
      defaultQuota: config.defaultQuota,
      defaultRateLimit: config.defaultRateLimit,
    };
    const faultHooks = installed(faults);
    // Valid choices other than the reference's, inside the faults: a fault breaks whichever choice is served.
    const variants = installVariants(config);
    const store = new Store();
    variants.wrapStore(store);
    faultHooks.wrapStore(store);
    this.ctx = {
      store,
      clock: config.clock,
      ids: config.ids,
      settings: faultHooks.settings(settings),
      policy: faultHooks.policy,
      broken,
    };
    this.routes = buildRoutes(config.names, config.endpoints, broken).map((r) => ({
      ...r,
      run: faultHooks.wrapOperation(r.op, variants.wrapOperation(r.op, r.run)),
    }));
    this.router = new Router(this.routes);
    this.names = nameDirectory(this.routes);
    this.mapError = createErrorMapper(config.profile, broken);
    this.fixtures = new FixtureApi(this.ctx, config, (user) => this.buckets.delete(user.id));
    this.rateHeaderFields = config.rateHeaders.names.flatMap((name) => {
      const read = headerReader(name);
      const wire =
        name === 'X-RateLimit-Remaining' && broken('headers.rate-limit.names-differ') ? 'X-RateLimit-Left' : name;
      return read ? [{ wire: wire.toLowerCase(), name: wire, read }] : [];
    });
    if (config.cors) {
      const exposed = this.rateHeaderFields.map((f) => f.name);
      const retry = config.rateHeaders.retryAfter ? ['Retry-After'] : [];
      this.cors = new Cors([
        ...exposed,
        ...retry,
        ...(config.unknownFields === 'ignore' ? [IGNORED_FIELDS_HEADER] : []),
      ]);
    }
  }

  handle(request: FakeRequest): FakeResponse {
    return this.serve(request).response;
  }

  /** The response, and who sent the request when authentication succeeded (for the request log). */
  serve(request: FakeRequest): Served {
    const method = request.method.toUpperCase();
    const q = request.url.indexOf('?');
    const path = q === -1 ? request.url : request.url.slice(0, q);
    const search = q === -1 ? '' : request.url.slice(q + 1);
    const served = this.dispatch(request, method, path, search);
    this.cors?.decorate(request, served.response.headers);
    if (method === 'HEAD') served.response = withoutBody(served.response);
    return served;
  }

  private dispatch(request: FakeRequest, method: string, path: string, search: string): Served {
    const fixturePath =
      path === this.config.fixturesPrefix || path.startsWith(`${this.config.fixturesPrefix}/`)
        ? path.slice(this.config.fixturesPrefix.length)
        : undefined;
    if (method === 'OPTIONS' && this.cors) {
      const allowed =
        fixturePath === undefined ? this.router.allowedMethods(path) : this.fixtures.allowedMethods(fixturePath);
      if (allowed.length > 0) return { response: this.cors.preflight(request, allowed) };
    }
    if (fixturePath !== undefined) return { response: this.fixture(request, method, fixturePath) };
    // Captures accepted earlier are filed before anything else is served (the operation is asynchronous).
    if (this.ctx.store.captures.length > 0) settleCaptures(this.ctx);
    let op = 'unknown';
    let reading: BucketReading | undefined;
    let names: RequestNames | undefined;
    let user: UserRecord | undefined;
    try {
      const found = this.router.match(method, path);
      if (found.kind !== 'matched') return { response: this.routeMiss(found, path) };
      const { route, params } = found;
      op = route.op;
      user = this.authenticate(header(request.headers, 'authorization'), method, op);
      reading = this.bucketFor(user).take(COMPLEXITY_COST[op] ?? 1, this.ctx.clock.now());
      if (!reading.allowed)
        throw new DomainError('rate_limited', `rate limit exceeded; retry after ${reading.retryAfter} s`);
      this.checkParams(op, params);
      names = this.wireNames(route).request();
      const query = names.query(search);
      const body = route.body ? names.body(this.parseBody(request)) : undefined;
      names.settle();
      const view = route.run(this.ctx, { user, params, query, body } satisfies Call);
      return withIgnored({ response: this.success(view, op, reading), user }, names);
    } catch (error) {
      const response =
        error instanceof DomainError ? this.failure(error, op, reading, names) : this.internalError(error);
      return withIgnored({ response, ...(user ? { user } : {}) }, names);
    }
  }

  /** The fixture API: admin token first, then its own routes. */
  private fixture(request: FakeRequest, method: string, path: string): FakeResponse {
    try {
      this.fixtures.authorize(header(request.headers, 'authorization'));
      const found = this.fixtures.match(method, path);
      if (found.kind !== 'matched') return this.routeMiss(found, path);
      return this.success(this.fixtures.run(found.route, found.params, request.body), 'fixture', undefined);
    } catch (error) {
      if (error instanceof DomainError) return this.failure(error, 'fixture', undefined, undefined);
      return this.internalError(error);
    }
  }

  /** 404, 405 with Allow, or 400 for a path parameter that is not valid percent-encoding. */
  private routeMiss(found: Exclude<RouteMatch<unknown>, { kind: 'matched' }>, path: string): FakeResponse {
    switch (found.kind) {
      case 'not_found':
        return this.failure(new DomainError('not_found', `no endpoint at ${path}`), 'unknown', undefined, undefined);
      case 'malformed_parameter':
        return this.failure(
          new DomainError('validation', `path parameter ${found.parameter} is not valid percent-encoding`),
          'unknown',
          undefined,
          undefined,
        );
      case 'method_not_allowed': {
        const allow = this.cors ? [...found.allowed, 'OPTIONS'] : found.allowed;
        const response = this.refuse('method_not_allowed', `this method is not allowed here; use ${allow.join(', ')}`);
        response.headers.allow = allow.join(', ');
        return response;
      }
    }
  }

  private wireNames(route: Route): WireNames {
    let names = this.namesByRoute.get(route);
    if (!names) {
      names = new WireNames(route, this.config.unknownFields, this.config.nullFields, this.names);
      this.namesByRoute.set(route, names);
    }
    return names;
  }

  private parseBody(request: FakeRequest): unknown {
    try {
      return parseJsonBody(request.body, header(request.headers, 'content-type'));
    } catch (error) {
      if (
        this.ctx.broken('errors.bad-input.crashes-on-malformed-json') &&
        /not valid JSON/.test((error as Error).message)
      ) {
        throw new Error('unexpected token in JSON');
      }
      throw error;
    }
  }

  private authenticate(authorization: string | undefined, method: string, op: string): UserRecord {
    const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    const user = token === undefined ? undefined : this.ctx.store.usersByToken.get(token);
    if (user) return user;
    if (token === undefined && method === 'GET' && this.ctx.broken('auth.bearer.missing-allowed-on-get'))
      return ANONYMOUS;
    if (token === undefined && op === 'captureNote' && this.ctx.broken('notes.capture.bearer-optional'))
      return ANONYMOUS;
    if (token !== undefined && this.ctx.broken('auth.bearer.any-token-accepted')) return ANONYMOUS;
    throw new DomainError(
      'unauthenticated',
      token === undefined ? 'send Authorization: Bearer <token>' : 'the bearer token is not valid',
    );
  }

  private bucketFor(user: UserRecord): LeakyBuckets {
    let bucket = this.buckets.get(user.id);
    if (!bucket)
      this.buckets.set(
        user.id,
        (bucket = new LeakyBuckets(user.rateLimit ?? this.config.defaultRateLimit, this.ctx.clock.now())),
      );
    return bucket;
  }

  private checkParams(op: string, params: Record<string, string>): void {
    for (const name in params) {
      const value = params[name]!;
      if (!UUID_PARAMS.has(name) || isUuid(value)) continue;
      const crash =
        (name === 'note_id' && this.ctx.broken('notes.read.invalid-id-500') && op === 'getNote') ||
        (name === 'collection_id' && this.ctx.broken('collections.read.invalid-id-500') && op === 'getCollection');
      if (crash) throw new Error(`cannot parse ${name}`);
      throw new DomainError('validation', `${name} must be a UUID`);
    }
    for (const key in params) if (UUID_PARAMS.has(key)) params[key] = params[key]!.toLowerCase();
  }

  private success(view: View, op: string, reading: BucketReading | undefined): FakeResponse {
    const headers: Record<string, string> = { 'content-type': JSON_TYPE };
    this.rateHeaders(headers, op, reading);
    const emptyFault = EMPTY_BODY_FAULTS[op];
    if (emptyFault && this.ctx.broken(emptyFault)) return respond(200, headers, {});
    if (op === 'addNoteToCollection' && this.ctx.broken('conventions.json.text-bodies')) {
      return {
        status: 200,
        headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
        json: undefined,
        text: 'OK',
      };
    }
    const body: View = { ...view, request_id: this.requestId() };
    if (this.config.presentation.extra_fields && op !== 'fixture') addExtraFields(body);
    const status = applyResponseFaults(this.ctx, op, body, this.config.faults) ?? 200;
    if (this.ctx.broken('conventions.json.content-type-text')) headers['content-type'] = 'text/plain; charset=utf-8';
    return respond(status, headers, body);
  }

  private failure(
    error: DomainError,
    op: string,
    reading: BucketReading | undefined,
    names: RequestNames | undefined,
  ): FakeResponse {
    const { status, body } = this.mapError.domain(error, names ? names.message(error) : error.message);
    const headers: Record<string, string> = { 'content-type': JSON_TYPE };
    this.rateHeaders(headers, op, reading);
    if (
      error.kind === 'rate_limited' &&
      reading &&
      this.config.rateHeaders.retryAfter &&
      !this.ctx.broken('headers.rate-limit.no-retry-after')
    ) {
      headers['retry-after'] = String(reading.retryAfter);
    }
    return respond(status, headers, body);
  }

  /** A transport refusal: 405 here, and the node adapter's 413 (oversized body) and 408 (slow body). */
  refuse(kind: HttpRefusalKind, message: string): FakeResponse {
    const { status, body } = this.mapError.http(kind, message);
    return respond(status, { 'content-type': JSON_TYPE }, body);
  }

  /** Adds the CORS headers to a response made outside serve() (the node adapter's refusals). */
  decorate(request: FakeRequest, response: FakeResponse): FakeResponse {
    this.cors?.decorate(request, response.headers);
    return response;
  }

  private internalError(error: unknown): FakeResponse {
    // Only reached through faults that simulate crashes, or a bug; either way the client gets a clear 500.
    const body = {
      error: { type: 'internal_error', message: `internal error: ${(error as Error)?.message ?? String(error)}` },
    };
    return respond(500, { 'content-type': JSON_TYPE }, body);
  }

  private rateHeaders(headers: Record<string, string>, op: string, reading: BucketReading | undefined): void {
    if (!reading || !this.config.rateHeaders.operations.has(op) || this.ctx.broken('headers.rate-limit.missing'))
      return;
    for (const field of this.rateHeaderFields) headers[field.wire] = String(field.read(reading));
  }

  private requestId(): string {
    if (this.ctx.broken('conventions.request-id.repeated')) return 'req-0000';
    if (this.config.presentation.request_ids === 'prefixed')
      return `req_${(++this.requestCounter).toString(36).padStart(8, '0')}`;
    return this.ctx.ids.uuid();
  }
}

/** The names unknown_fields: ignore dropped, on the answer (header) and for the request log. */
function withIgnored(served: Served, names: RequestNames | undefined): Served {
  const ignored = names?.ignored ?? [];
  if (ignored.length === 0) return served;
  served.response.headers[IGNORED_FIELDS_HEADER.toLowerCase()] = ignored.join(', ');
  return { ...served, ignored };
}

/** HEAD: the GET's status and headers (Content-Length included), no body. */
function withoutBody(response: FakeResponse): FakeResponse {
  return {
    ...response,
    headers: { ...response.headers, 'content-length': String(Buffer.byteLength(response.text)) },
    json: undefined,
    text: '',
  };
}

function respond(status: number, headers: Record<string, string>, json: unknown): FakeResponse {
  return { status, headers, json, text: JSON.stringify(json) };
}

/** How to read a declared header name's value from the buckets (unknown suffixes are not sent). */
function headerReader(name: string): ((r: BucketReading) => number) | undefined {
  const lower = name.toLowerCase();
  const requests = lower.startsWith('x-ratelimit-');
  const suffix = lower.slice(requests ? 'x-ratelimit-'.length : 'x-complexity-'.length);
  switch (suffix) {
    case 'limit':
      return requests ? (r) => r.limit : (r) => r.complexityLimit;
    case 'remaining':
      return requests ? (r) => r.remaining : (r) => r.complexityRemaining;
    case 'reset':
      return requests ? (r) => r.reset : (r) => r.complexityReset;
    case 'used':
      return requests ? (r) => r.limit - r.remaining : (r) => r.complexityLimit - r.complexityRemaining;
    case 'cost':
      return requests ? () => 1 : (r) => r.cost;
    default:
      return undefined;
  }
}

function addExtraFields(body: View): void {
  body.server_version = 'notes-fake/divergent';
  if (Array.isArray(body.results))
    for (const item of body.results as View[]) item.etag = `W/"${String(item.id ?? '').slice(0, 8)}"`;
}

const TWO_HOURS = 2 * 3_600_000;
function timeFormatter(config: FakeConfig, noOffset: boolean): (ms: number) => string {
  const format: (ms: number) => string = noOffset
    ? (ms) => new Date(ms).toISOString().slice(0, 23)
    : config.presentation.timestamps === 'offset_micros'
      ? (ms) => `${new Date(ms + TWO_HOURS).toISOString().slice(0, 23)}000+02:00`
      : (ms) => new Date(ms).toISOString();
  // Reads render the same few instants over and over; Date#toISOString is a hot spot.
  const cache = new Map<number, string>();
  return (ms) => {
    let text = cache.get(ms);
    if (text === undefined) {
      if (cache.size >= 50_000) cache.clear();
      cache.set(ms, (text = format(ms)));
    }
    return text;
  };
}
