import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '../service/errors.js';
import type { FakeCore } from './core.js';
import type { FakeResponse } from './types.js';

/**
 * node:http in front of the core. Bodies are read up to the limit and refused with 413 beyond
 * it, by Content-Length before reading or by counting while reading: never buffered unbounded.
 */
export function nodeHandler(core: FakeCore, bodyLimitBytes: number): (req: IncomingMessage, res: ServerResponse) => void {
  const tooLarge = () => core.refuse(new DomainError('payload_too_large', `the body exceeds ${bodyLimitBytes} bytes`));
  return (req, res) => {
    req.on('error', () => res.destroy());
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > bodyLimitBytes) {
      send(res, tooLarge(), true);
      req.resume();
      return;
    }
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      // No body (most GETs): answer at once instead of waiting for the end of an empty stream.
      req.resume();
      send(res, answer(core, req, undefined), false);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > bodyLimitBytes) {
        refused = true;
        chunks.length = 0;
        send(res, tooLarge(), true);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      const body = chunks.length === 0 ? undefined : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      send(res, answer(core, req, body), false);
    });
  };
}

function answer(core: FakeCore, req: IncomingMessage, body: Buffer | undefined): FakeResponse {
  try {
    return core.handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, ...(body ? { body } : {}) });
  } catch (error) {
    // The core never throws; this guards the process against a bug all the same.
    return { status: 500, headers: { 'content-type': 'application/json' }, json: undefined, text: JSON.stringify({ error: { type: 'internal_error', message: String(error) } }) };
  }
}

function send(res: ServerResponse, response: FakeResponse, close: boolean): void {
  if (res.headersSent) return;
  const headers: Record<string, string | number> = response.headers;
  headers['content-length'] = Buffer.byteLength(response.text);
  if (close) headers.connection = 'close';
  res.writeHead(response.status, headers);
  res.end(response.text);
}
