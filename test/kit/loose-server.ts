import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A partial server of the kind an implementer writes early on, with the faults that make a
 * leftover count wrong: it creates notes and collections, lists and reads them and deletes some,
 * and answers 404 to everything else. How it answers a create and a delete is set by `options`.
 * Its state is the account's truth: what a listing shows afterwards.
 */
export interface LooseOptions {
  /**
   * The id a create answers with, by the number of the create (1, 2, ...): a string that is not a
   * UUID, a number, or none at all (`undefined`). The default cycles `note-N`, N and none.
   */
  idOf?: (kind: 'note' | 'collection', n: number) => string | number | undefined;
  /** Which ids a delete finds (others answer 404 although they exist, as a router whose pattern misses them). */
  deletes?: (id: string) => boolean;
  /** How a create is answered once stored: as the API does, 500, or (every other create) a body cut off mid-way. */
  answer?: 'ok' | '500' | 'cut';
  /** The account's data from before the run, which must survive it. */
  before?: { notes?: readonly string[]; collections?: readonly string[] };
}

export interface Stored {
  id: string;
  kind: 'note' | 'collection';
  title: string;
  content?: string;
  created_at: string;
}

export interface LooseServer {
  readonly url: string;
  /** What the account holds now, by kind: its ids. */
  readonly stored: ReadonlyMap<string, Stored>;
  /** Creates it stored, of each answer kind. */
  readonly creates: number;
  close(): Promise<void>;
}

const defaultId = (kind: 'note' | 'collection', n: number) =>
  n % 3 === 1 ? `${kind}-${n}` : n % 3 === 2 ? 10_000 + n : undefined;

export async function looseServer(options: LooseOptions = {}): Promise<LooseServer> {
  const stored = new Map<string, Stored>();
  let creates = 0;
  let hiddenIds = 0;
  const now = () => new Date().toISOString();
  for (const content of options.before?.notes ?? [])
    stored.set(`before-n${stored.size}`, note(`before-n${stored.size}`, content, now()));
  for (const title of options.before?.collections ?? [])
    stored.set(`before-c${stored.size}`, {
      id: `before-c${stored.size}`,
      kind: 'collection',
      title,
      created_at: now(),
    });

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const notFound = () =>
        send(404, { error: { type: 'not_found', message: `no route ${req.method} ${url.pathname}` } });
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        return send(400, { error: { type: 'invalid_request', message: 'not JSON' } });
      }
      const kindOf = (segment: string | undefined) =>
        segment === 'notes' ? 'note' : segment === 'collections' ? 'collection' : undefined;
      const [, v2, segment, id, extra] = url.pathname.split('/');
      const kind = kindOf(segment);
      if (v2 !== 'v2' || !kind || extra !== undefined) return notFound();
      if (req.method === 'POST' && id === undefined) {
        if (kind === 'note' && typeof body.content !== 'string') return send(400, { error: { type: 'invalid' } });
        if (kind === 'collection' && typeof body.title !== 'string') return send(400, { error: { type: 'invalid' } });
        const n = ++creates;
        const answered = (options.idOf ?? defaultId)(kind, n);
        // An id the answer does not show is still an id in the store.
        const key = answered === undefined ? `hidden-${++hiddenIds}` : String(answered);
        const at = now();
        const item: Stored =
          kind === 'note'
            ? note(key, body.content as string, at)
            : { id: key, kind, title: body.title as string, created_at: at };
        stored.set(key, item);
        if (options.answer === '500') return send(500, { error: { type: 'internal_error' } });
        const json = JSON.stringify({ ...view(item), id: answered, request_id: `r${n}` });
        if (options.answer === 'cut' && n % 2 === 1) {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(json.length) });
          res.write(json.slice(0, Math.floor(json.length / 2)));
          return void setTimeout(() => res.destroy(), 5);
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(json);
      }
      if (req.method === 'GET' && id === undefined) {
        const all = [...stored.values()].filter((s) => s.kind === kind);
        const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 50) || 50);
        const from = Number(url.searchParams.get('page') ?? 0) || 0;
        const page = all.slice(from, from + limit);
        const more = from + limit < all.length;
        const withContent = url.searchParams.get('include_note_content') === 'true';
        return send(200, {
          results: page.map((s) => (withContent ? view(s) : { ...view(s), content: undefined })),
          total: all.length,
          ...(more ? { next_page: String(from + limit) } : kind === 'collection' ? { next_page: null } : {}),
          request_id: `list-${from}`,
        });
      }
      const found = id === undefined ? undefined : stored.get(decodeURIComponent(id));
      if (req.method === 'GET' && found?.kind === kind) return send(200, { ...view(found), request_id: 'read' });
      if (req.method === 'DELETE' && found?.kind === kind && (options.deletes ?? (() => true))(found.id)) {
        stored.delete(found.id);
        return send(200, { request_id: 'deleted' });
      }
      notFound();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stored,
    get creates() {
      return creates;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function note(id: string, content: string, at: string): Stored {
  return { id, kind: 'note', title: content.split('\n')[0] ?? '', content, created_at: at };
}

function view(s: Stored): Record<string, unknown> {
  return s.kind === 'note'
    ? {
        id: s.id,
        title: s.title,
        content: s.content,
        created_at: s.created_at,
        updated_at: s.created_at,
        version: 1,
        collection_ids: [],
      }
    : {
        id: s.id,
        title: s.title,
        description: null,
        created_at: s.created_at,
        updated_at: s.created_at,
        note_count: 0,
      };
}
