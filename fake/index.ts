import { ClientLog, type ClientReportData } from './client-report/observe.js';
import { type FakeConfig, type FakeOptions, resolveConfig } from './config.js';
import { DurableState } from './data/durable-state.js';
import { type DataSummary, seedData } from './data/start.js';
import type { AnswerLimits } from './http/answer-writer.js';
import type { FakeCore, Served } from './http/core.js';
import type { RequestLogEntry } from './http/request-log.js';
import { redactName, redactUrl } from './http/request-log.js';
import { DEFAULT_ANSWER_LIMITS, type FakeServer, listen } from './http/server.js';
import type { FakeRequest, FakeResponse } from './http/types.js';
import { createCore } from './instance.js';
import * as fixtureOps from './service/fixtures.js';
import type { View } from './service/views.js';
import type { Store } from './store/store.js';

export type { ClientFinding, ClientReportData } from './client-report/observe.js';
export { anchoredClock, type Clock, ManualClock, systemClock } from './clock.js';
export type { FakeOptions, FakeUserOption } from './config.js';
export { DataFileError } from './data/errors.js';
export type { SeedData } from './data/seed-file.js';
export type { DataSummary } from './data/start.js';
export { FAULT_NAMES, FAULTS, type FaultName } from './faults/catalogue.js';
export { formatLogLine, type RequestLogEntry } from './http/request-log.js';
export type { FakeRequest, FakeResponse } from './http/types.js';

/** In-process access to the fixture API (no admin token needed). */
export interface FakeFixtures {
  createUser(input?: { token?: string; name?: string; quota?: { limit: number; plan?: string } }): {
    user_id: string;
    token: string;
  };
  deleteUser(userId: string): void;
  grant(input: {
    resource: 'note' | 'collection';
    id: string;
    user_id?: string;
    token?: string;
    level: 'access' | 'contribute' | 'edit' | 'own';
  }): void;
  setQuota(userId: string, quota: { limit: number; plan?: string; used?: number } | null): void;
  addAttachment(noteId: string, input: Record<string, unknown>): View;
  addAudioRecording(noteId: string): View;
  reset(): void;
  stats(): View;
}

export interface Fake {
  /** Base URL when listening (http://127.0.0.1:PORT), else undefined. */
  readonly url: string | undefined;
  /**
   * Tokens of the users the fake was started with; without `users`, those restored from the state
   * file, or the two users created to own `data` or `generate`d notes.
   */
  readonly tokens: readonly string[];
  /** What the data options loaded at start. */
  readonly data: DataSummary;
  readonly adminToken: string;
  readonly config: FakeConfig;
  readonly fixtures: FakeFixtures;
  /** The live state, for tests that check what a client left behind; read it, never write it. */
  readonly store: Store;
  /** Every endpoint with the query and body names it accepts (wire names: the profile's where it chose). */
  readonly endpoints: readonly EndpointSummary[];
  /** Answers a request in-process, without HTTP. */
  handle(request: FakeRequest): FakeResponse;
  /** What the clients' requests so far broke or relied on beyond the document (fake/client-report/). */
  clientReport(): ClientReportData;
  close(): Promise<void>;
}

export interface EndpointSummary {
  method: string;
  path: string;
  query: readonly string[];
  body: readonly string[];
}

export interface CreateFakeOptions extends FakeOptions {
  /** Listen on 127.0.0.1 (default true); false gives an in-process fake with handle() only. */
  listen?: boolean;
  port?: number;
  host?: string;
  /** Called once per request answered over HTTP (the CLI's --log prints formatLogLine(entry)). */
  log?: (entry: RequestLogEntry) => void;
  /** Backpressure on answers: how long a client may read nothing, and the bytes held for all (http/server.ts). */
  answers?: Partial<AnswerLimits>;
  /**
   * Renders the client report for GET /__fake/client-report?format=json|md|html (the CLI passes the
   * kit's reporters); without it the endpoint answers the report's data as JSON.
   */
  renderClientReport?: (data: ClientReportData, format: ClientReportFormat) => string;
  /** The most state `state` keeps, in bytes of JSON (default 256 MiB, see fake/data/state.ts): past it writes get 507. */
  stateCapBytes?: number;
  /** Where `state` reports a failed or recovered save, one line each (default: standard error). */
  report?: (line: string) => void;
}

/** Starts a reference fake; by default it listens on an ephemeral port of 127.0.0.1. */
export async function createFake(options: CreateFakeOptions = {}): Promise<Fake> {
  const config = resolveConfig(options);
  const core = createCore(config);
  const report = options.report ?? ((line: string) => process.stderr.write(`notes-conformance fake: ${line}\n`));
  const opened =
    config.stateFile === undefined
      ? undefined
      : DurableState.open(core.ctx, config.stateFile, {
          report,
          ...(options.stateCapBytes ? { capBytes: options.stateCapBytes } : {}),
        });
  const durable = opened?.durable;
  try {
    return await startFake(options, config, core, opened?.restored ?? false, durable, report);
  } catch (error) {
    durable?.close();
    throw error;
  }
}

async function startFake(
  options: CreateFakeOptions,
  config: FakeConfig,
  core: FakeCore,
  restored: boolean,
  durable: DurableState | undefined,
  report: (line: string) => void,
): Promise<Fake> {
  const byToken = core.ctx.store.usersByToken;
  let tokens = config.users.map(
    (u) =>
      byToken.get(u.token)?.token ??
      (fixtureOps.createUser(core.ctx, {
        token: u.token,
        ...(u.name ? { name: u.name } : {}),
        ...(u.quota ? { quota: u.quota } : {}),
      }).token as string),
  );
  if (tokens.length === 0 && restored) tokens = [...byToken.keys()];
  let data: DataSummary = { restored, collections: 0, notes: 0 };
  if (!restored && (config.data !== undefined || config.generate > 0)) {
    // Seeded data needs an owner: without users, the two that a plain start would have made.
    if (tokens.length === 0)
      tokens = ['user-1', 'user-2'].map((name) => fixtureOps.createUser(core.ctx, { name }).token as string);
    data = await seedData(core.ctx, config, byToken.get(tokens[0]!)!);
  }
  durable?.start();
  const served = durable ? durableServe(core, durable) : (request: FakeRequest) => core.serve(request);
  const said = config.unknownFields === 'ignore' ? sayIgnored(core, served, report) : served;
  const isToken = (value: string) => core.ctx.store.usersByToken.has(value) || value === config.adminToken;
  const clients = new ClientLog(
    core.routes,
    config.profile.name,
    () => config.clock.now(),
    (url) => redactUrl(url, isToken),
  );
  const serve = observed(clients, said, options.renderClientReport);
  let server: FakeServer | undefined;
  if (options.listen !== false)
    server = await listen(core, {
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 0,
      serve,
      answers: { ...DEFAULT_ANSWER_LIMITS, ...options.answers },
      bodyLimitBytes: config.bodyLimitBytes,
      timeouts: config.timeouts,
      ...(options.log ? { log: options.log } : {}),
    });
  const ctx = core.ctx;
  // In-process fixture calls change state outside any request: journal them like one.
  const saved = <T>(result: T, ...ids: string[]): T => {
    const failure = durable?.touched(ids);
    if (failure) throw new Error(failure);
    return result;
  };
  const fixtures: FakeFixtures = {
    createUser: (input = {}) => saved(fixtureOps.createUser(ctx, input) as { user_id: string; token: string }),
    deleteUser: (userId) => saved(void fixtureOps.deleteUser(ctx, userId)),
    grant: (input) => saved(void fixtureOps.grant(ctx, input)),
    setQuota: (userId, quota) => saved(void fixtureOps.setQuota(ctx, userId, quota)),
    addAttachment: (noteId, input) => saved(fixtureOps.addAttachment(ctx, noteId, input), noteId),
    addAudioRecording: (noteId) => saved(fixtureOps.addAudioRecording(ctx, noteId), noteId),
    reset: () =>
      void serve({
        method: 'POST',
        url: `${config.fixturesPrefix}/reset`,
        headers: { authorization: `Bearer ${config.adminToken}` },
      }),
    stats: () => fixtureOps.stats(ctx),
  };
  return {
    url: server?.url,
    tokens,
    data,
    adminToken: config.adminToken,
    config,
    fixtures,
    store: ctx.store,
    endpoints: core.routes.map((r) => ({
      method: r.method,
      path: r.path,
      query: Object.keys(r.query),
      // An object field shows its own fields: config{include_content,include_snippet}.
      body: Object.keys(r.body ?? {}).map((wire) => {
        const inner = r.inner?.[r.body![wire]!];
        return inner ? `${wire}{${Object.keys(inner).join(',')}}` : wire;
      }),
    })),
    handle: (request) => serve(request).response,
    clientReport: () => clients.data(),
    close: async () => {
      // Every socket ends now, whatever it is doing (a slow body, an answer nobody reads, a keep-alive wait).
      await server?.close();
      // After the last request: the final save folds the journal into the state file.
      durable?.close();
    },
  };
}

export type ClientReportFormat = 'json' | 'md' | 'html';
const CLIENT_REPORT_PATH = '/__fake/client-report';
const REPORT_TYPES: Record<ClientReportFormat, string> = {
  json: 'application/json; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

/** Every request into the client report; GET /__fake/client-report answers it (no token: it holds none). */
function observed(
  clients: ClientLog,
  serve: (request: FakeRequest) => Served,
  render: CreateFakeOptions['renderClientReport'],
): (request: FakeRequest) => Served {
  return (request) => {
    // '/_' first: the fixture API and this page; a check of one character on every other request.
    if (
      request.url.charCodeAt(1) === 0x5f &&
      (request.url === CLIENT_REPORT_PATH || request.url.startsWith(`${CLIENT_REPORT_PATH}?`))
    ) {
      const asked = new URLSearchParams(request.url.slice(CLIENT_REPORT_PATH.length)).get('format') ?? 'json';
      const format: ClientReportFormat = asked === 'md' || asked === 'html' ? asked : 'json';
      const data = clients.data();
      const text = render ? render(data, format) : JSON.stringify(data, null, 2);
      const type = REPORT_TYPES[render ? format : 'json'];
      return { response: { status: 200, headers: { 'content-type': type }, json: undefined, text } };
    }
    const served = serve(request);
    clients.observe(request, served);
    return served;
  };
}

const SAID_NAMES = 1_000;

/**
 * Under unknown_fields: ignore, each name dropped is said once on the report line (standard error
 * by default), per endpoint: a client that misspells a filter gets unfiltered results with a 200,
 * and this line is what tells its developer.
 */
function sayIgnored(
  core: FakeCore,
  serve: (request: FakeRequest) => Served,
  report: (line: string) => void,
): (request: FakeRequest) => Served {
  const said = new Set<string>();
  const isToken = (value: string) => core.ctx.store.usersByToken.has(value) || value === core.config.adminToken;
  return (request) => {
    const served = serve(request);
    for (const name of served.ignored ?? []) {
      const key = `${served.op} ${name}`;
      if (said.has(key) || said.size > SAID_NAMES) continue;
      said.add(key);
      // A bound on what is remembered, said once: past it, --log still names each one.
      if (said.size > SAID_NAMES) {
        report(`more than ${SAID_NAMES} names ignored: the next ones are not said here; --log names each`);
        continue;
      }
      const route = core.routes.find((r) => r.op === served.op);
      const shown = redactName(name, isToken);
      report(
        `ignored ${shown} on ${route ? `${route.method} ${route.path}` : served.op}: not a name of this endpoint ` +
          '(unknown_fields: ignore); the request was answered as if it were not sent',
      );
    }
    return served;
  };
}

/**
 * The core with --state around it: a write is refused (503) while the state cannot be saved, and
 * every change is in the journal before its answer leaves; one that cannot be journaled is not
 * answered as a success.
 */
function durableServe(core: FakeCore, durable: DurableState): (request: FakeRequest) => Served {
  const prefix = core.config.fixturesPrefix;
  return (request) => {
    const q = request.url.indexOf('?');
    const path = q === -1 ? request.url : request.url.slice(0, q);
    const refusal = durable.refusal(request.method, path);
    if (refusal) return { response: core.refuse(refusal.kind, refusal.message), refusal: refusal.kind };
    const served = core.serve(request);
    const fixture = path === prefix || path.startsWith(`${prefix}/`);
    const failure = durable.afterRequest(request.method, path, served.response.status, fixture);
    if (!failure) return served;
    const message = `${failure}; this change is held in memory only and writes are refused from now on`;
    return {
      ...served,
      response: core.refuse('state_not_saved', message),
      refusal: 'state_not_saved',
    };
  };
}
