import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import cors from '@fastify/cors';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { ConnectionTimeouts } from '../config.js';
import { type AnswerLimits, AnswerWriter } from './answer-writer.js';
import type { FakeCore, Served } from './core.js';
import { type RequestLogEntry, redactName, redactUrl } from './request-log.js';
import type { FakeRequest } from './types.js';

export interface ServerOptions {
  host: string;
  port: number;
  /** The largest body read; Fastify answers a bigger one 413 before or while reading it. */
  bodyLimitBytes: number;
  timeouts: ConnectionTimeouts;
  /** How answers reach clients that read slowly or not at all. */
  answers: AnswerLimits;
  /** The core's serve(), or a wrapper around it (--state journals each change). */
  serve: (request: FakeRequest) => Served;
  /** Called once per answered request (the --log flag). */
  log?: (entry: RequestLogEntry) => void;
}

export interface FakeServer {
  readonly url: string;
  /** Holds big answers with backpressure (for tests and benchmarks that watch its bytes). */
  readonly writer: AnswerWriter;
  /** Ends every connection at once, whatever it is doing: a stop never waits on a client. */
  close(): Promise<void>;
}

export const DEFAULT_ANSWER_LIMITS: AnswerLimits = {
  stallMs: 10_000,
  evictAfterMs: 3_000,
  budgetBytes: 48 * 1024 * 1024,
};

const ROUTED = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * Fastify in front of the core: the body limit (413), the raw body handed to the core's parse
 * stage (secure-json-parse, http/parse.ts, so in-process and HTTP requests are parsed alike),
 * @fastify/cors for browser apps developed against the fake (every origin echoed: a local fake has
 * no origin to protect; the headers a client reads exposed; a preflight lists its path's methods), and lifecycle hooks for the body deadline (408). Every request is
 * routed by the core (find-my-way, http/router.ts), so 404 and 405 are the core's answers.
 * Answers go out through the answer writer (backpressure and a memory budget Fastify has no
 * equivalent of), on the hijacked reply.
 */
export async function listen(core: FakeCore, options: ServerOptions): Promise<FakeServer> {
  const { timeouts, log, serve } = options;
  const writer = new AnswerWriter(options.answers);
  const sockets = new Set<Socket>();
  const deadlines = new WeakMap<FastifyRequest, NodeJS.Timeout>();
  const startedAt = new WeakMap<FastifyRequest, number>();
  const started = (req: FastifyRequest) => startedAt.get(req) ?? performance.now();
  const isToken = (value: string) => core.ctx.store.usersByToken.has(value) || value === core.config.adminToken;
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimitBytes,
    exposeHeadRoutes: false,
    forceCloseConnections: true,
    keepAliveTimeout: timeouts.idleMs,
    // node's own whole-request deadline backs the body deadline hook up.
    requestTimeout: timeouts.headersMs + timeouts.bodyMs,
    serverFactory: (handler) => {
      const server = createServer(
        {
          keepAliveTimeout: timeouts.idleMs,
          headersTimeout: timeouts.headersMs,
          requestTimeout: timeouts.headersMs + timeouts.bodyMs,
          connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
        },
        handler,
      );
      // Our own set, not only node's closeAllConnections: a socket node has not handed to the
      // HTTP parser yet is in it too.
      server.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      });
      return server;
    },
    // A URL find-my-way cannot decode is the core's to answer (404, or 400 for a path parameter).
    frameworkErrors: (_error, request, reply) => answer(request, reply, undefined, true),
  });

  /** Writes what the core served, with the headers hooks set on the reply (CORS), and logs it. */
  const send = (request: FakeRequest, reply: FastifyReply, served: Served, started: number, close: boolean) => {
    const res = reply.raw;
    if (res.headersSent) return;
    let bytes = Buffer.byteLength(served.response.text);
    if (!writer.admit(bytes, () => keyOf(request))) {
      served = busy(core);
      bytes = Buffer.byteLength(served.response.text);
    }
    const response = served.response;
    // The headers hooks set (CORS), under the core's own.
    const headers = Object.assign(reply.getHeaders(), response.headers) as Record<string, string | number | string[]>;
    // HEAD keeps the GET's Content-Length (set by the core); node sends no body for HEAD either way.
    headers['content-length'] ??= bytes;
    if (close) headers.connection = 'close';
    res.writeHead(response.status, headers);
    writer.write(res, response.text, bytes);
    if (close) res.once('finish', () => setImmediate(() => reply.request.raw.destroy()));
    log?.({
      at: new Date(core.ctx.clock.now()).toISOString(),
      method: request.method,
      url: redactUrl(request.url, isToken),
      status: response.status,
      ms: performance.now() - started,
      ...(served.user ? { user: served.user.name, userId: served.user.id } : {}),
      ...refusalOf(served, isToken),
    });
  };

  const answer = (req: FastifyRequest, reply: FastifyReply, body: Buffer | undefined, close = false) => {
    clearTimeout(deadlines.get(req));
    reply.hijack();
    const request: FakeRequest = { method: req.raw.method ?? 'GET', url: req.raw.url ?? '/', headers: req.headers };
    if (body !== undefined && body.length > 0) request.body = body;
    const served = writer.mayServe(() => keyOf(request)) ? guarded(serve, request) : busy(core);
    send(request, reply, served, started(req), close);
  };

  const refuse = (
    req: FastifyRequest,
    reply: FastifyReply,
    kind: 'payload_too_large' | 'request_timeout',
    message: string,
  ) => {
    clearTimeout(deadlines.get(req));
    reply.hijack();
    const request: FakeRequest = { method: req.raw.method ?? 'GET', url: req.raw.url ?? '/', headers: req.headers };
    // The rest of the body is not wanted: the connection closes once the refusal is on its way.
    send(request, reply, { response: core.refuse(kind, message), refusal: kind }, started(req), true);
  };

  app.addHook('onRequest', (req, reply, done) => {
    startedAt.set(req, performance.now());
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
      const timer = setTimeout(
        () => refuse(req, reply, 'request_timeout', `the body did not arrive within ${timeouts.bodyMs} ms`),
        timeouts.bodyMs,
      );
      timer.unref();
      deadlines.set(req, timer);
      reply.raw.once('close', () => clearTimeout(timer));
    }
    done();
  });
  if (core.config.cors) {
    // A preflight for a path the fake does not serve is no preflight: the core answers it (404).
    app.addHook('onRequest', (req, reply, done) => {
      if (req.method === 'OPTIONS' && core.allowedMethods(pathOf(req)).length === 0)
        return answer(req, reply, undefined);
      done();
    });
    const exposed = core.exposedHeaders();
    // Static options, so answers pay nothing per request for them; a preflight's methods are its path's (onSend).
    await app.register(cors, {
      origin: true,
      strictPreflight: false,
      maxAge: PREFLIGHT_MAX_AGE_S,
      ...(exposed.length > 0 ? { exposedHeaders: exposed } : {}),
    });
    app.addHook('onSend', (req, reply, payload, done) => {
      if (req.method === 'OPTIONS') {
        reply.header('access-control-allow-methods', [...core.allowedMethods(pathOf(req)), 'OPTIONS'].join(', '));
        log?.({
          at: new Date(core.ctx.clock.now()).toISOString(),
          method: 'OPTIONS',
          url: redactUrl(req.raw.url ?? '/', isToken),
          status: reply.statusCode,
          ms: performance.now() - started(req),
        });
      }
      done(null, payload);
    });
  }

  // Bodies of any type reach the core as bytes: its parse stage refuses what is not JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.setErrorHandler((error: { code?: string; statusCode?: number; message: string }, req, reply) => {
    if (reply.raw.headersSent) return;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413)
      return refuse(req, reply, 'payload_too_large', tooLarge(options.bodyLimitBytes));
    // A body Fastify could not read (a Content-Length it does not match, an aborted upload).
    clearTimeout(deadlines.get(req));
    reply.hijack();
    const request: FakeRequest = { method: req.raw.method ?? 'GET', url: req.raw.url ?? '/', headers: req.headers };
    const type = req.headers['content-type'];
    const response = core.invalid(
      error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? `unsupported content type ${type?.split(';')[0]}; send application/json`
        : `the body could not be read: ${error.message}`,
    );
    send(request, reply, { response, refusal: 'validation' }, started(req), true);
  });
  const handler = (req: FastifyRequest, reply: FastifyReply) => answer(req, reply, req.body as Buffer | undefined);
  app.route({ method: core.config.cors ? [...ROUTED] : [...ROUTED, 'OPTIONS'], url: '*', handler });
  app.setNotFoundHandler(handler);

  await app.listen({ port: options.port, host: options.host });
  const address = (app.server as Server).address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    writer,
    close: async () => {
      const closed = app.close();
      app.server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

const pathOf = (req: FastifyRequest) => req.url.split('?', 1)[0]!;

/** The 413's message: the cap in bytes, and that no valid request comes near it. */
const tooLarge = (cap: number) =>
  `the body has more than ${cap} bytes (${(cap / 1024 / 1024).toFixed(1)} MiB), the fake's cap; ` +
  'a valid request of this API is under it in any usual JSON spelling';

/** Built only when a big answer is involved: the hot path of small answers pays nothing for it. */
const keyOf = (request: FakeRequest) =>
  `${request.method} ${request.url} ${(request.headers?.authorization as string | undefined) ?? ''}`;

function busy(core: FakeCore): Served {
  const response = core.refuse(
    'server_busy',
    'the fake holds its most for answers clients are not reading; retry shortly',
  );
  response.headers['retry-after'] = '1';
  return { response, refusal: 'server_busy' };
}

/** The log fields of what the core served: the refusal's kind and the names it dropped. */
function refusalOf(served: Served, isToken: (value: string) => boolean): Pick<RequestLogEntry, 'refusal' | 'ignored'> {
  const ignored = served.ignored?.map((n) => redactName(n, isToken));
  return {
    ...(served.refusal ? { refusal: served.refusal } : {}),
    ...(ignored && ignored.length > 0 ? { ignored } : {}),
  };
}

function guarded(serve: (request: FakeRequest) => Served, request: FakeRequest): Served {
  try {
    return serve(request);
  } catch (error) {
    // The core never throws; this guards the process against a bug all the same.
    const text = JSON.stringify({ error: { type: 'internal_error', message: String(error) } });
    return { response: { status: 500, headers: { 'content-type': 'application/json' }, json: undefined, text } };
  }
}
