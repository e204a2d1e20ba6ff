import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/** A route a partial server lacks: its method and a pattern of its path (query left out). */
export type Route = readonly [method: string, path: RegExp];

/**
 * A server that implements only part of the API, as an implementer's early one does: the fake
 * at `upstream` answers, except that the routes `missing` answer 404 as a server without them
 * would. Returns its URL and how to close it.
 */
export async function partialServer(
  upstream: string,
  missing: readonly Route[],
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    void answer(req).then(({ status, headers, body }) => res.writeHead(status, headers).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  async function answer(
    req: IncomingMessage,
  ): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '/').split('?')[0]!;
    if (missing.some(([method, route]) => method === req.method && route.test(path)))
      return {
        status: 404,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"error":{"type":"not_found","message":"no such endpoint"}}'),
      };
    const { host: _host, connection: _connection, ...headers } = req.headers;
    const up = await request(`${upstream}${req.url}`, {
      method: req.method as 'GET',
      headers: headers as Record<string, string>,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = Buffer.from(await up.body.arrayBuffer());
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(up.headers))
      if (value !== undefined && !['connection', 'keep-alive', 'transfer-encoding'].includes(name))
        out[name] = Array.isArray(value) ? value.join(', ') : value;
    return { status: up.statusCode, headers: out, body };
  }

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
