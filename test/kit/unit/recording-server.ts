import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it, with when it arrived (ms, performance.now()). */
export interface Seen {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface RecordingServer {
  readonly url: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

/**
 * A tiny local HTTP server for the client's unit tests: it records every request and answers
 * with `answer(request, index)` (200 {} by default), so tests assert what the client really sent
 * and when, without the fake.
 */
export async function recordingServer(
  answer: (seen: Seen, index: number) => Answer = () => ({ status: 200, body: {} }),
): Promise<RecordingServer> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: Seen = {
        method: req.method ?? '',
        url: new URL(req.url ?? '/', 'http://local'),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      };
      seen.push(request);
      const a = answer(request, seen.length - 1);
      const text = a.body === undefined ? '' : JSON.stringify(a.body);
      res.writeHead(a.status, { ...(text ? { 'content-type': 'application/json' } : {}), ...a.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Milliseconds between consecutive arrivals. */
export function gaps(seen: readonly Seen[]): number[] {
  return seen.slice(1).map((s, i) => s.at - seen[i]!.at);
}
