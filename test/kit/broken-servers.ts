import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';

/** A deliberately broken target on 127.0.0.1; close() also drops the sockets it holds open. */
export interface BrokenServer {
  readonly url: string;
  /** Requests (or connections, for the raw TCP ones) it received. */
  readonly hits: number;
  close(): Promise<void>;
}

/** What another origin received: whether any of it carried credentials. */
export interface Witness extends BrokenServer {
  readonly received: ReadonlyArray<{ method: string; url: string; headers: Record<string, unknown>; body: string }>;
}

async function listen(server: Server, sockets: Set<Socket>, count: () => number): Promise<BrokenServer> {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get hits() {
      return count();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A raw TCP server: `onSocket` decides what (if anything) the client ever gets. */
function tcp(onSocket: (socket: Socket) => void): Promise<BrokenServer> {
  let hits = 0;
  const server = createNetServer((socket) => {
    hits++;
    onSocket(socket);
  });
  return listen(server, new Set(), () => hits);
}

function http(handler: (req: IncomingMessage, res: ServerResponse, hit: number) => void): Promise<BrokenServer> {
  let hits = 0;
  const server = createHttpServer((req, res) => {
    hits++;
    req.resume();
    handler(req, res, hits);
  });
  return listen(server, new Set(), () => hits);
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/** Accepts the connection and never writes a byte. */
export const silent = () => tcp(() => {});

/** Drops every connection as soon as it is made. */
export const hangsUp = () => tcp((socket) => socket.destroy());

/** A web page where the API should be: 200 text/html to everything. */
export const html = () =>
  http((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><body><h1>Welcome</h1></body></html>');
  });

/** A proxy in front of nothing: 502 with its HTML error page to everything. */
export const proxyPage = () =>
  http((_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end(
      '<html>\n<head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center>\n</body>\n</html>\n',
    );
  });

/** A single sign-on gate: every path redirects to its own login page (same origin), which is HTML. */
export const loginRedirect = () =>
  http((req, res) => {
    if (req.url?.startsWith('/login')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<!doctype html><form action="/login"><input name="user"></form>');
    }
    res.writeHead(302, { location: `/login?next=${encodeURIComponent(req.url ?? '/')}` });
    res.end();
  });

/** 500 to everything, with a JSON error body (so "is it JSON" alone cannot tell it apart). */
export const failing = () => http((_req, res) => json(res, 500, { error: 'internal_error' }));

/** 302 for reads and 307 for writes, to the same path on `to` (another origin). */
export const redirecting = (to: string) =>
  http((req, res) => {
    res.writeHead(req.method === 'GET' ? 302 : 307, { location: `${to}${req.url ?? '/'}` });
    res.end();
  });

/** 429 forever, asking for a short wait each time (so the kit honours it, and must still stop). */
export const rateLimiting = () =>
  http((_req, res) =>
    json(
      res,
      429,
      { error: 'rate_limited' },
      {
        'retry-after': '1',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': '1',
      },
    ),
  );

/** Sends the headers of a JSON 200 at once, then the body one byte every `everyMs` (far slower than any timeout). */
export const trickling = (everyMs = 250) =>
  http((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const body = JSON.stringify({ notes: [], total: 0, request_id: 'slow', padding: 'x'.repeat(400) });
    let at = 0;
    const timer = setInterval(() => {
      if (res.destroyed || at >= body.length) {
        clearInterval(timer);
        if (!res.destroyed) res.end();
        return;
      }
      res.write(body[at++]);
    }, everyMs);
    res.on('close', () => clearInterval(timer));
  });

/** Answers the first request (the kit's start-up probe) like the API, then never answers again: a target dying mid-run. */
export const diesAfterFirst = () =>
  http((_req, res, hit) => {
    if (hit === 1) json(res, 200, { notes: [], total: 0, request_id: 'r1' });
    // Later requests are left hanging; close() drops their sockets.
  });

/** Another origin that records everything it receives (the kit must never reach it with credentials). */
export async function witness(): Promise<Witness> {
  const received: Array<{ method: string; url: string; headers: Record<string, unknown>; body: string }> = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: { ...req.headers },
        body: Buffer.concat(chunks).toString('utf8'),
      });
      json(res, 200, { notes: [], total: 0, request_id: 'other-origin' });
    });
  });
  const base = await listen(server, new Set(), () => received.length);
  return Object.assign(base, { received });
}

/**
 * 429 forever asking for 59 s each time: under the kit's 60 s cap once, never again after it.
 * `probe`: the first request (the kit's start-up probe) is answered like the API, as a target whose
 * limit runs out once the run has begun.
 */
export async function rateLimitingLong(seconds = 59, probe = false): Promise<BrokenServer & { times: number[] }> {
  const times: number[] = [];
  const server = await http((_req, res, hit) => {
    times.push(Date.now());
    if (probe && hit === 1) return json(res, 200, { results: [], total: 0, request_id: 'r1' });
    json(res, 429, { error: 'rate_limited' }, { 'retry-after': String(seconds) });
  });
  return Object.assign(server, { times });
}

/**
 * The other form of a rate limit that never lifts: the first answer (the start-up probe) is a
 * list that empties the bucket, with a reset an hour away; every later answer is 429 saying the
 * same, without Retry-After.
 */
export const emptyBucketForever = () =>
  http((_req, res, hit) => {
    const headers = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3600' };
    if (hit === 1) json(res, 200, { notes: [], total: 0, request_id: 'r1' }, headers);
    else json(res, 429, { error: { type: 'rate_limited', message: 'try again in an hour' } }, headers);
  });

/**
 * A list of a million notes, streamed (about 60 MB; the server never holds it whole): after the
 * start-up probe, every request gets it.
 */
export const millionItems = (count = 1_000_000) =>
  http((_req, res, hit) => {
    if (hit === 1) return json(res, 200, { notes: [], total: 0, request_id: 'r1' });
    res.writeHead(200, { 'content-type': 'application/json' });
    const item = '{"id":"00000000-0000-4000-8000-000000000000","title":"t","created_at":"2024-01-01T00:00:00Z"}';
    let sent = 0;
    res.write('{"request_id":"big","total":1000000,"notes":[');
    const pump = () => {
      while (sent < count && !res.destroyed) {
        const n = Math.min(10_000, count - sent);
        const chunk = (sent === 0 ? '' : ',') + new Array(n).fill(item).join(',');
        sent += n;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end(']}');
    };
    res.on('error', () => {});
    pump();
  });

/**
 * After the start-up probe, every answer is a list of `count` empty objects: about 3 MB for a
 * million, well within the kit's byte cap, and each parses into a million objects.
 */
export const millionEmptyObjects = (count = 1_000_000) =>
  http((_req, res, hit) => {
    if (hit === 1) return json(res, 200, { notes: [], total: 0, request_id: 'r1' });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"request_id":"big","total":${count},"notes":[${new Array(count).fill('{}').join(',')}]}`);
  });

/**
 * Reflects the request's Authorization header everywhere the API has text: list items' content
 * and titles, created notes and collections, error messages, request ids and a response header.
 * It answers like the API closely enough for the kit to judge (and fail) it.
 */
export const reflecting = () =>
  http((req, res) => {
    const auth = String(req.headers.authorization ?? 'none');
    const token = auth.replace(/^Bearer\s+/i, '');
    const headers = { 'x-echo-authorization': auth, 'x-request-id': token };
    const note = {
      id: '6f1c2a0e-0000-4000-8000-000000000001',
      title: `title ${token}`,
      content: `content ${auth}`,
      version: 1,
      created_at: '2024-01-01T00:00:00.000Z',
      updated_at: '2024-01-01T00:00:00.000Z',
      collection_ids: [token],
    };
    if (req.method === 'GET' && req.url?.startsWith('/v2/notes'))
      return json(res, 200, { notes: [note], total: 1, request_id: token, next_cursor: token }, headers);
    if (req.method === 'POST' && req.url?.startsWith('/v2/notes'))
      return json(res, 200, { ...note, request_id: token }, headers);
    if (req.url?.startsWith('/v2/collections'))
      return json(
        res,
        200,
        { id: token, title: token, request_id: token, collections: [{ id: token, title: auth }] },
        headers,
      );
    json(
      res,
      400,
      { error: { type: 'invalid_request', message: `bad request for ${auth}`, request_id: token } },
      headers,
    );
  });

/** How a server may hand a value back: each a function of the value, as it appears in the body's text or a header. */
export const REFLECTIONS: Readonly<Record<string, (value: string) => string>> = {
  // PHP's json_encode escapes every slash: the body's text holds tok\/Robust+01==.
  'JSON-escaped': (v) => JSON.stringify(v).slice(1, -1).replace(/\//g, '\\/'),
  'percent-encoded': (v) => encodeURIComponent(v),
  'percent-encoded, lower-case hex': (v) => encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
  base64: (v) => Buffer.from(v).toString('base64'),
  'base64 inside Basic credentials': (v) => Buffer.from(`user:${v}`).toString('base64'),
  'base64url inside a cursor': (v) => Buffer.from(`{"after":"${v}"}`).toString('base64url'),
  'upper-case': (v) => v.toUpperCase(),
  'lower-case': (v) => v.toLowerCase(),
  'split across lines': (v) => `${v.slice(0, 6)}\n${v.slice(6)}`,
  'split across lines, indented': (v) => `${v.slice(0, 4)}\r\n    ${v.slice(4)}`,
  'split by zero-width spaces': (v) => [...v].join('\u200b'),
  'split by zero-width joiners and word joiners': (v) => [...v].join('\u200d\u2060'),
  'split by soft hyphens': (v) => [...v].join('\u00ad'),
  'split by byte order marks and non-joiners': (v) => [...v].join('\ufeff\u200c'),
  // The server's JSON encoder writes this one as an escape, \u2063 (see reflectingEncoded).
  'split by invisible separators, JSON-escaped': (v) => [...v].join('\u2063'),
};

/** Where a reader does not see it: line breaks and their indent, zero-width and format characters, as they are or escaped. */
export function withoutInvisible(text: string): string {
  return text
    .replace(/\r?\n\s*|\\r\\n\s*|\\n/g, '')
    .replace(/[\p{Cf}\p{Default_Ignorable_Code_Point}]|\\u(?:00ad|200[b-d]|206[0-3]|feff)/giu, '');
}

/**
 * Reflects the request's token, and a public `marker` beside it, in every form of REFLECTIONS:
 * each form in a field of every answer (titles, content, request ids, error messages) and in a
 * response header. The marker shows each form did reach the kit's output; the token must not.
 */
export const reflectingEncoded = (marker: string) =>
  http((req, res) => {
    const token = String(req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const forms = Object.values(REFLECTIONS);
    const both = (f: (v: string) => string) => `${f(token)} ${f(marker)}`;
    const text = forms.map(both).join(' | ');
    // A header carries Latin-1 only: the forms made of other characters are in the bodies alone.
    const headers = Object.fromEntries(
      forms
        .map((f, i) => [`x-echo-${i}`, both(f).replace(/[\r\n]+\s*/g, ' ')] as const)
        .filter(([, value]) => /^[\x20-\x7e\xa0-\xff]*$/.test(value)),
    );
    const note = {
      id: '6f1c2a0e-0000-4000-8000-000000000001',
      title: text,
      content: text,
      version: 1,
      created_at: '2024-01-01T00:00:00.000Z',
      updated_at: '2024-01-01T00:00:00.000Z',
      collection_ids: [],
    };
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      // The body's text as PHP writes it: every slash escaped (and U+2063 as an escape, as ASCII-only encoders do).
      res.end(
        JSON.stringify(body)
          .replace(/\//g, '\\/')
          .replace(/\u2063/g, '\\u2063'),
      );
    };
    if (req.method === 'GET' && req.url?.startsWith('/v2/notes'))
      return send(200, { notes: [note], total: 1, request_id: text, next_page: text });
    if (req.method === 'POST' && req.url?.startsWith('/v2/notes')) return send(200, { ...note, request_id: text });
    send(400, { error: { type: 'invalid_request', message: `bad request: ${text}`, request_id: text } });
  });

/** Answers the start-up probe like the API, then trickles every later answer one byte every `everyMs`. */
export const tricklesAfterFirst = (everyMs = 500) =>
  http((_req, res, hit) => {
    if (hit === 1) return json(res, 200, { notes: [], total: 0, request_id: 'r1' });
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      res.write(' ');
    }, everyMs);
    res.on('close', () => clearInterval(timer));
  });
