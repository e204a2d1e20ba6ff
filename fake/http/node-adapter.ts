import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeCore, Served } from './core.js';
import type { RequestLogEntry } from './request-log.js';
import type { FakeRequest, FakeResponse } from './types.js';

export interface NodeHandlerOptions {
  bodyLimitBytes: number;
  /** From the request's headers to the end of its body; past it the client gets 408 and a closed connection. */
  bodyTimeoutMs: number;
  /** Called once per answered request (the --log flag). */
  log?: (entry: RequestLogEntry) => void;
}

/**
 * node:http in front of the core. Bodies are read up to the limit and refused with 413 beyond
 * it, by Content-Length before reading or by counting while reading: never buffered unbounded;
 * a body that does not arrive within the deadline is refused with 408.
 */
export function nodeHandler(
  core: FakeCore,
  options: NodeHandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { bodyLimitBytes, bodyTimeoutMs, log } = options;
  return (req, res) => {
    const started = performance.now();
    const request: FakeRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers };
    const reply = (served: Served, close: boolean) => {
      if (res.headersSent) return;
      send(res, served.response, close);
      log?.({
        method: request.method,
        url: request.url,
        status: served.response.status,
        ms: performance.now() - started,
        ...(served.user ? { user: served.user.name } : {}),
      });
    };
    const refuse = (kind: 'payload_too_large' | 'request_timeout', message: string) => {
      reply({ response: core.decorate(request, core.refuse(kind, message)) }, true);
      // The rest of the body is not wanted: close once the refusal is on its way.
      res.once('finish', () => setImmediate(() => req.destroy()));
    };
    req.on('error', () => res.destroy());
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > bodyLimitBytes) {
      refuse('payload_too_large', `the body exceeds ${bodyLimitBytes} bytes`);
      return;
    }
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      // No body (most GETs): answer at once instead of waiting for the end of an empty stream.
      req.resume();
      reply(answer(core, request), false);
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
        refuse('payload_too_large', `the body exceeds ${bodyLimitBytes} bytes`);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(deadline);
      if (refused) return;
      const body = chunks.length === 0 ? undefined : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      reply(answer(core, body ? { ...request, body } : request), false);
    });
  };
}

function answer(core: FakeCore, request: FakeRequest): Served {
  try {
    return core.serve(request);
  } catch (error) {
    // The core never throws; this guards the process against a bug all the same.
    const text = JSON.stringify({ error: { type: 'internal_error', message: String(error) } });
    return { response: { status: 500, headers: { 'content-type': 'application/json' }, json: undefined, text } };
  }
}

function send(res: ServerResponse, response: FakeResponse, close: boolean): void {
  const headers: Record<string, string | number> = { ...response.headers };
  // HEAD keeps the GET's Content-Length (set by the core); node sends no body for HEAD either way.
  headers['content-length'] ??= Buffer.byteLength(response.text);
  if (close) headers.connection = 'close';
  res.writeHead(response.status, headers);
  res.end(response.text);
}
