import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AnswerLimits, AnswerWriter } from './answer-writer.js';
import type { FakeCore, Served } from './core.js';
import { type RequestLogEntry, redactUrl } from './request-log.js';
import type { FakeRequest, FakeResponse } from './types.js';

export interface NodeHandlerOptions {
  bodyLimitBytes: number;
  /** From the request's headers to the end of its body; past it the client gets 408 and a closed connection. */
  bodyTimeoutMs: number;
  /** How answers reach clients that read slowly or not at all. */
  answers?: AnswerLimits;
  /** The core's serve(), or a wrapper around it (--state journals each change). */
  serve?: (request: FakeRequest) => Served;
  /** Called once per answered request (the --log flag). */
  log?: (entry: RequestLogEntry) => void;
}

export const DEFAULT_ANSWER_LIMITS: AnswerLimits = {
  stallMs: 10_000,
  evictAfterMs: 3_000,
  budgetBytes: 48 * 1024 * 1024,
};

/**
 * node:http in front of the core. Bodies are read up to the limit and refused with 413 beyond
 * it, by Content-Length before reading or by counting while reading: never buffered unbounded;
 * a body that does not arrive within the deadline is refused with 408. Answers go out with
 * backpressure (answer-writer.ts).
 */
export function nodeHandler(
  core: FakeCore,
  options: NodeHandlerOptions,
): ((req: IncomingMessage, res: ServerResponse) => void) & { writer: AnswerWriter } {
  const { bodyLimitBytes, bodyTimeoutMs, log } = options;
  const serve = options.serve ?? ((request: FakeRequest) => core.serve(request));
  const writer = new AnswerWriter(options.answers ?? DEFAULT_ANSWER_LIMITS);
  const isToken = (value: string) => core.ctx.store.usersByToken.has(value) || value === core.config.adminToken;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const request: FakeRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers };
    // Built only when a big answer is involved: the hot path of small answers pays nothing for it.
    const key = () => `${request.method} ${request.url} ${req.headers.authorization ?? ''}`;
    const busy = (): Served => {
      const response = core.decorate(
        request,
        core.refuse('server_busy', 'the fake holds its most for answers clients are not reading; retry shortly'),
      );
      response.headers['retry-after'] = '1';
      return { response, refusal: 'server_busy' };
    };
    const reply = (served: Served, close: boolean) => {
      if (res.headersSent) return;
      let bytes = Buffer.byteLength(served.response.text);
      if (!writer.admit(bytes, key)) {
        served = busy();
        bytes = Buffer.byteLength(served.response.text);
      }
      const response = served.response;
      send(res, writer, response, bytes, close);
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
    const refuse = (kind: 'payload_too_large' | 'request_timeout', message: string) => {
      reply({ response: core.decorate(request, core.refuse(kind, message)), refusal: kind }, true);
      // The rest of the body is not wanted: close once the refusal is on its way.
      res.once('finish', () => setImmediate(() => req.destroy()));
    };
    req.on('error', () => res.destroy());
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > bodyLimitBytes) {
      refuse('payload_too_large', tooLarge(bodyLimitBytes));
      return;
    }
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      // No body (most GETs): answer at once instead of waiting for the end of an empty stream.
      req.resume();
      reply(writer.mayServe(key) ? answer(serve, request) : busy(), false);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const deadline = setTimeout(() => {
      refused = true;
      chunks.length = 0;
      refuse('request_timeout', `the body did not arrive within ${bodyTimeoutMs} ms`);
    }, bodyTimeoutMs);
    deadline.unref();
    res.once('close', () => clearTimeout(deadline));
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > bodyLimitBytes) {
        refused = true;
        chunks.length = 0;
        clearTimeout(deadline);
        refuse('payload_too_large', tooLarge(bodyLimitBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(deadline);
      if (refused) return;
      const body = chunks.length === 0 ? undefined : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      reply(writer.mayServe(key) ? answer(serve, body ? { ...request, body } : request) : busy(), false);
    });
  };
  return Object.assign(handler, { writer });
}

/** The 413's message: the cap in bytes, and that no valid request comes near it. */
const tooLarge = (cap: number) =>
  `the body has more than ${cap} bytes (${(cap / 1024 / 1024).toFixed(1)} MiB), the fake's cap; ` +
  'the largest valid request of this API is under it in any JSON spelling';

/** The log fields of what the core served: the refusal's kind and the names it dropped. */
function refusalOf(served: Served, isToken: (value: string) => boolean): Pick<RequestLogEntry, 'refusal' | 'ignored'> {
  const ignored = served.ignored?.map((n) =>
    isToken(n.replace(/ \((query|body)\)$/, '')) ? `*** ${n.slice(n.lastIndexOf('('))}` : n,
  );
  return {
    ...(served.refusal ? { refusal: served.refusal } : {}),
    ...(ignored && ignored.length > 0 ? { ignored } : {}),
  };
}

function answer(serve: (request: FakeRequest) => Served, request: FakeRequest): Served {
  try {
    return serve(request);
  } catch (error) {
    // The core never throws; this guards the process against a bug all the same.
    const text = JSON.stringify({ error: { type: 'internal_error', message: String(error) } });
    return { response: { status: 500, headers: { 'content-type': 'application/json' }, json: undefined, text } };
  }
}

function send(res: ServerResponse, writer: AnswerWriter, response: FakeResponse, bytes: number, close: boolean): void {
  const headers: Record<string, string | number> = { ...response.headers };
  // HEAD keeps the GET's Content-Length (set by the core); node sends no body for HEAD either way.
  headers['content-length'] ??= bytes;
  if (close) headers.connection = 'close';
  res.writeHead(response.status, headers);
  writer.write(res, response.text, bytes);
}
