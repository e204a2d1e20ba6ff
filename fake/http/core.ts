import type { FakeConfig } from '../config.js';
import { isUuid } from '../ids.js';
import { settleCaptures } from '../service/capture.js';
import type { FakeSettings, ServiceContext } from '../service/context.js';
import { DomainError } from '../service/errors.js';
import { type BucketReading, COMPLEXITY_COST, LeakyBuckets } from '../service/rate-limit.js';
import type { View } from '../service/views.js';
import type { UserRecord } from '../store/records.js';
import { Store } from '../store/store.js';
import { variantFactories } from '../variants/index.js';
import { createErrorMapper, type ErrorMapper, type HttpRefusalKind, referenceRefusals } from './error-map.js';
import { FixtureApi } from './fixtures.js';
import { type HookFactory, type InstalledHooks, installHooks } from './hooks.js';
import { nameDirectory } from './name-hints.js';
import { header, parseJsonBody } from './parse.js';
import type { HttpStages, Reply } from './pipeline.js';
import { type RouteMatch, Router } from './router.js';
import { buildRoutes, type Call, type Route } from './routes.js';
import type { FakeRequest, FakeResponse } from './types.js';
import { type RequestNames, WireNames } from './wire-names.js';

const JSON_TYPE = 'application/json; charset=utf-8';
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
  /** The kind of refusal the answer is (`validation`, `not_found`, `payload_too_large`...); absent on a success. */
  refusal?: string;
  /** The operation id of the route, when the request matched one. */
  op?: string;
  /** A refusal's message as the client reads it, and the canonical field it is about, if known. */
  detail?: { message: string; field?: string };
  /** Wire names the request used for names the document does not show (`filter_by_collection_ids`). */
  notShown?: readonly string[];
  /** Fields whose null was read as absent (null_fields: absent). */
  nulled?: readonly string[];
}

/** The response header that tells a client which of its names were dropped (unknown_fields: ignore). */
export const IGNORED_FIELDS_HEADER = 'X-Ignored-Fields';

/**
 * The transport-free core: a request in, a response out, synchronously. Every rule of the API
 * lives in service/, which this layer calls with canonical inputs; here a request goes through a
 * small pipeline: route, authenticate, rate limit, path parameters, body, the operation, then the
 * reply (a success or a refusal) through the response stage, serialised. The stages, the route
 * table, the operations and the store are plain reference functions that hooks given at
 * construction may wrap (fake/http/hooks.ts): the valid variants always, faults when asked.
 */
export class FakeCore {
  readonly ctx: ServiceContext;
  private readonly router: Router<Route>;
  /** The route table in effect (documented paths plus the profile's endpoints and names). */
  readonly routes: readonly Route[];
  private readonly hooks: InstalledHooks;
  private readonly stages: HttpStages;
  private readonly mapError: ErrorMapper;
  private readonly namesByRoute = new Map<Route, WireNames>();
  private readonly names: ReturnType<typeof nameDirectory>;
  private readonly buckets = new Map<string, LeakyBuckets>();
  /** The fixture API; its routes are relative to config.fixturesPrefix. */
  readonly fixtures: FixtureApi;
  private readonly rateHeaderFields: ReadonlyArray<{ wire: string; name: string; read: (r: BucketReading) => number }>;
  private requestCounter = 0;

  /** `extensions`: hooks wrapped around the reference and its variants (the faults of fake/instance.ts). */
  constructor(
    readonly config: FakeConfig,
    extensions: readonly HookFactory[] = [],
  ) {
    // The valid variants first, closest to the reference: a fault breaks whichever choice is served.
    const hooks = installHooks([...variantFactories(config), ...extensions]);
    this.hooks = hooks;
    const settings: FakeSettings = {
      titleDerivation: config.titleDerivation,
      newestFirst: config.newestFirst,
      formatTime: timeFormatter(config),
      snapshotTtlMs: config.snapshotTtlMs,
      defaultQuota: config.defaultQuota,
      defaultRateLimit: config.defaultRateLimit,
    };
    const store = new Store();
    hooks.wrapStore(store);
    this.ctx = {
      store,
      clock: config.clock,
      ids: config.ids,
      settings: hooks.settings(settings),
      policy: hooks.policy,
      broken: hooks.broken,
    };
    this.routes = hooks
      .routes(buildRoutes(config.names, config.endpoints))
      .map((r) => ({ ...r, run: hooks.wrapOperation(r.op, r.run) }));
    this.router = new Router(this.routes);
    this.names = nameDirectory(this.routes);
    this.stages = hooks.stages({
      authenticate: (authorization) => this.authenticate(authorization),
      pathParams: canonicalPathParams,
      parseBody: parseJsonBody,
      ...referenceRefusals(config.profile),
    });
    this.mapError = createErrorMapper(this.stages, config.profile);
    this.fixtures = new FixtureApi(this.ctx, config, (user) => this.buckets.delete(user.id));
    this.rateHeaderFields = config.rateHeaders.names.flatMap((name) => {
      const read = headerReader(name);
      return read ? [{ wire: name.toLowerCase(), name, read }] : [];
    });
  }

  /** The response headers a browser client may read: the rate-limit names, Retry-After, X-Ignored-Fields. */
  exposedHeaders(): string[] {
    return [
      ...this.rateHeaderFields.map((f) => f.name),
      ...(this.config.rateHeaders.retryAfter ? ['Retry-After'] : []),
      ...(this.config.unknownFields === 'ignore' ? [IGNORED_FIELDS_HEADER] : []),
    ];
  }

  /** Every method served at a path (HEAD wherever GET is), fixture paths included; empty for none. */
  allowedMethods(path: string): string[] {
    const prefix = this.config.fixturesPrefix;
    if (path === prefix || path.startsWith(`${prefix}/`))
      return this.fixtures.allowedMethods(path.slice(prefix.length));
    return this.router.allowedMethods(path);
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
    if (method === 'HEAD') served.response = withoutBody(served.response);
    return served;
  }

  private dispatch(request: FakeRequest, method: string, path: string, search: string): Served {
    const fixturePath =
      path === this.config.fixturesPrefix || path.startsWith(`${this.config.fixturesPrefix}/`)
        ? path.slice(this.config.fixturesPrefix.length)
        : undefined;
    if (fixturePath !== undefined) return { response: this.fixture(request, method, fixturePath) };
    // Captures accepted earlier are filed before anything else is served (the operation is asynchronous).
    if (this.ctx.store.captures.length > 0) settleCaptures(this.ctx);
    let op = 'unknown';
    let reading: BucketReading | undefined;
    let names: RequestNames | undefined;
    let user: UserRecord | undefined;
    try {
      const found = this.router.match(method, path);
      if (found.kind !== 'matched') return this.answered(op, this.routeMiss(found, path));
      const { route } = found;
      op = route.op;
      user = this.stages.authenticate(header(request.headers, 'authorization'), method, op);
      reading = this.bucketFor(user).take(COMPLEXITY_COST[op] ?? 1, this.ctx.clock.now());
      if (!reading.allowed)
        throw new DomainError('rate_limited', `rate limit exceeded; retry after ${reading.retryAfter} s`);
      const params = this.stages.pathParams(op, found.params);
      names = this.wireNames(route).request();
      const query = names.query(search);
      const body = route.body
        ? names.body(this.stages.parseBody(request.body, header(request.headers, 'content-type')))
        : undefined;
      names.settle();
      const view = route.run(this.ctx, { user, params, query, body } satisfies Call);
      const served = this.answered(op, this.success(view, op, reading));
      served.user = user;
      return withIgnored(served, names);
    } catch (error) {
      let served: Served;
      if (error instanceof DomainError) {
        served = this.answered(op, this.failure(error, op, reading, names));
        const message = names ? names.message(error) : error.message;
        served.detail = error.field ? { message, field: error.field } : { message };
      } else served = { response: this.internalError(error), refusal: 'internal_error' };
      if (user) served.user = user;
      return withIgnored(served, names);
    }
  }

  /**
   * The last stage: the reply through the response hooks of its operation, then serialised, with
   * the kind of refusal it is (for the request log and the client report).
   */
  private answered(op: string, reply: Reply): Served {
    const final = this.hooks.respond(op)(reply, { op, ctx: this.ctx });
    // Built field by field, not by spreads: this runs for every answer.
    const served: Served = { response: serialise(final) };
    if (op !== 'unknown') served.op = op;
    if (final.refusal) served.refusal = final.refusal;
    return served;
  }

  /** The fixture API: admin token first, then its own routes (not an API operation: no response hooks). */
  private fixture(request: FakeRequest, method: string, path: string): FakeResponse {
    try {
      this.fixtures.authorize(header(request.headers, 'authorization'));
      const found = this.fixtures.match(method, path);
      if (found.kind !== 'matched') return serialise(this.routeMiss(found, path));
      return serialise(this.success(this.fixtures.run(found.route, found.params, request.body), 'fixture', undefined));
    } catch (error) {
      if (error instanceof DomainError) return serialise(this.failure(error, 'fixture', undefined, undefined));
      return this.internalError(error);
    }
  }

  /** 404, 405 with Allow, or 400 for a path parameter that is not valid percent-encoding. */
  private routeMiss(found: Exclude<RouteMatch<unknown>, { kind: 'matched' }>, path: string): Reply {
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
        const allow = this.config.cors ? [...found.allowed, 'OPTIONS'] : found.allowed;
        const reply = this.transportRefusal(
          'method_not_allowed',
          `this method is not allowed here; use ${allow.join(', ')}`,
        );
        reply.headers.allow = allow.join(', ');
        return reply;
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

  private authenticate(authorization: string | undefined): UserRecord {
    const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    const user = token === undefined ? undefined : this.ctx.store.usersByToken.get(token);
    if (user) return user;
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

  private success(view: View, op: string, reading: BucketReading | undefined): Reply {
    const headers: Record<string, string> = { 'content-type': JSON_TYPE };
    this.rateHeaders(headers, op, reading);
    const body: View = { ...view, request_id: this.requestId() };
    if (this.config.presentation.extra_fields && op !== 'fixture') addExtraFields(body);
    return { status: 200, headers, body };
  }

  private failure(
    error: DomainError,
    op: string,
    reading: BucketReading | undefined,
    names: RequestNames | undefined,
  ): Reply {
    const { status, body } = this.mapError.domain(error, names ? names.message(error) : error.message);
    const headers: Record<string, string> = { 'content-type': JSON_TYPE };
    this.rateHeaders(headers, op, reading);
    if (error.kind === 'rate_limited' && reading && this.config.rateHeaders.retryAfter)
      headers['retry-after'] = String(reading.retryAfter);
    return { status, headers, body, refusal: error.kind };
  }

  private transportRefusal(kind: HttpRefusalKind, message: string): Reply {
    const { status, body } = this.mapError.http(kind, message);
    return { status, headers: { 'content-type': JSON_TYPE }, body, refusal: kind };
  }

  /** A transport refusal: the server's 413 (oversized body), 408 (slow body), 503 (busy). */
  refuse(kind: HttpRefusalKind, message: string): FakeResponse {
    return serialise(this.transportRefusal(kind, message));
  }

  /** A request the server could not read as one (a body that does not match its Content-Length). */
  invalid(message: string): FakeResponse {
    return serialise(this.failure(new DomainError('validation', message), 'unknown', undefined, undefined));
  }

  private internalError(error: unknown): FakeResponse {
    // Only reached through faults that simulate crashes, or a bug; either way the client gets a clear 500.
    const body = {
      error: { type: 'internal_error', message: `internal error: ${(error as Error)?.message ?? String(error)}` },
    };
    return serialise({ status: 500, headers: { 'content-type': JSON_TYPE }, body });
  }

  private rateHeaders(headers: Record<string, string>, op: string, reading: BucketReading | undefined): void {
    if (!reading || !this.config.rateHeaders.operations.has(op)) return;
    for (const field of this.rateHeaderFields) headers[field.wire] = String(field.read(reading));
  }

  private requestId(): string {
    if (this.config.presentation.request_ids === 'prefixed')
      return `req_${(++this.requestCounter).toString(36).padStart(8, '0')}`;
    return this.ctx.ids.uuid();
  }
}

/** Path parameters that name a resource are UUIDs, compared in lower case. */
function canonicalPathParams(_op: string, params: Record<string, string>): Record<string, string> {
  for (const name in params) {
    if (!UUID_PARAMS.has(name)) continue;
    const value = params[name]!;
    if (!isUuid(value)) throw new DomainError('validation', `${name} must be a UUID`);
    params[name] = value.toLowerCase();
  }
  return params;
}

function serialise(reply: Reply): FakeResponse {
  if (reply.text !== undefined)
    return { status: reply.status, headers: reply.headers, json: undefined, text: reply.text };
  return { status: reply.status, headers: reply.headers, json: reply.body, text: JSON.stringify(reply.body) };
}

/**
 * The names unknown_fields: ignore dropped, on the answer (header) and for the request log; the
 * names the document does not show and the nulls read as absent, for the client report.
 */
function withIgnored(served: Served, names: RequestNames | undefined): Served {
  if (!names) return served;
  const notShown = names.notShownUsed();
  if (notShown.length > 0) served.notShown = notShown;
  if (names.nulled.length > 0) served.nulled = names.nulled;
  if (!names.dropped) return served;
  const ignored = names.ignored;
  served.response.headers[IGNORED_FIELDS_HEADER.toLowerCase()] = ignored.join(', ');
  served.ignored = ignored;
  return served;
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
function timeFormatter(config: FakeConfig): (ms: number) => string {
  const format: (ms: number) => string =
    config.presentation.timestamps === 'offset_micros'
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
