import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../fake/index.js';

/**
 * What four public clients of the hosted service sent when they were run against the fake
 * (README.md in this folder says how), replayed request by request against a fresh fake with no
 * flags and with --profile hosted. Each answer is checked for what the client reads from it, and
 * every filter the client sent is checked to have been applied (a dropped filter answers 200 too).
 */

interface Recorded {
  op: string;
  method: string;
  path: string;
  query?: Array<[string, string]>;
  content_type?: string;
  body?: unknown;
  /** Made by hand before the client ran (the collection it was pointed at, two notes to page over). */
  setup?: boolean;
  /** The status with no flags, and under --profile hosted where it differs. */
  status: number;
  hosted?: number;
  /** The rule of the catalogue the request breaks, where the client itself breaks the document. */
  breaks?: string;
  /** Placeholders the answer defines: name -> JSON pointer (`/id`, `/next_page`). */
  bind?: Record<string, string>;
}
interface Client {
  client: string;
  commit: string;
  how: string;
  requests: Recorded[];
}

const here = new URL('./', import.meta.url);
const CLIENTS: Client[] = readdirSync(here)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, here), 'utf8')) as Client);
const TOKEN = 'client-token-0001';
type Json = Record<string, unknown>;

/** What the clients read from each answer (their formatters and types): a missing field breaks them. */
const NOTE = ['id', 'title', 'created_at', 'updated_at', 'collection_ids'];
const COLLECTION = ['id', 'title', 'description', 'created_at', 'updated_at'];
const READS: Record<string, { top: string[]; item?: string[] }> = {
  createNote: { top: NOTE },
  getNote: { top: [...NOTE, 'content'] },
  listNotes: { top: ['results', 'total'], item: [...NOTE, 'snippet'] },
  searchNotes: { top: ['results', 'total'], item: [...NOTE, 'snippet'] },
  deleteNote: { top: ['request_id'] },
  createCollection: { top: COLLECTION },
  getCollection: { top: COLLECTION },
  listCollections: { top: ['results', 'total'], item: ['id', 'title'] },
  searchCollections: { top: ['results', 'total'], item: ['id', 'title'] },
  deleteCollection: { top: ['request_id'] },
  captureNote: { top: ['request_id'] },
};

/** Every spelling of a filter the four send, by what it filters on. */
const COLLECTION_FILTER = ['collection_id', 'collection_ids', 'filter_by_collection_ids'];
const CONTAINS: Record<string, RegExp> = {
  open_tasks: /- \[ \]/,
  tasks: /- \[[ xX]\]/,
  images: /!\[[^\]]*\]\(/,
  files: /(?<!!)\[[^\]]*\]\([^)]*\.(?:pdf|txt|docx?)\)/,
};
const INCLUDE_CONTENT = ['include_note_content', 'include_content'];

let fake: Fake | undefined;
afterEach(() => fake?.close());

async function replay(client: Client, profile: 'plain' | 'hosted') {
  fake = await createFake({ users: [TOKEN], ...(profile === 'hosted' ? { profile: 'hosted' } : {}) });
  const bound = new Map<string, string>();
  const fill = (text: string) =>
    text.replace(/\{\{(\w+:\d+)\}\}/g, (_, name: string) => {
      const value = bound.get(name);
      if (value === undefined) throw new Error(`${name} was never bound: an earlier answer lacked it`);
      return value;
    });
  for (const [i, r] of client.requests.entries()) {
    const query = (r.query ?? []).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(fill(v))}`);
    const url = `${fake.url}${fill(r.path)}${query.length > 0 ? `?${query.join('&')}` : ''}`;
    const body = r.body === undefined ? undefined : fill(JSON.stringify(r.body));
    const contentType = r.content_type ?? (body === undefined ? undefined : 'application/json');
    const answer = await fetch(url, {
      method: r.method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(contentType ? { 'content-type': contentType } : {}) },
      ...(body === undefined ? {} : { body }),
    });
    const json = (await answer.json()) as Json;
    const where = `${client.client} request ${i} (${r.method} ${r.path}), ${profile}: ${JSON.stringify(json).slice(0, 300)}`;
    const expected = profile === 'hosted' ? (r.hosted ?? r.status) : r.status;
    expect(answer.status, where).toBe(expected);
    if (answer.status !== 200) continue;
    for (const [name, pointer] of Object.entries(r.bind ?? {})) {
      const value = json[pointer.slice(1)];
      if (typeof value === 'string') bound.set(name, value);
    }
    checkReads(r, json, where);
    await checkFilters(r, json, where, fill);
  }
  // The client report names each rule the client breaks, with what it sent.
  const report = fake.clientReport();
  const broken = new Set(report.findings.filter((f) => f.kind === 'broke').map((f) => f.rule));
  for (const r of client.requests)
    if (r.breaks)
      expect([...broken], `${client.client}, ${profile}: the client report names ${r.breaks}`).toContain(r.breaks);
  // Every request counted (the checks above read notes too).
  expect(report.requests).toBeGreaterThanOrEqual(client.requests.length);
}

function checkReads(r: Recorded, json: Json, where: string) {
  const reads = READS[r.op]!;
  for (const field of reads.top) expect(json, `${where}: ${field}`).toHaveProperty(field);
  for (const item of (json.results as Json[] | undefined) ?? [])
    for (const field of reads.item ?? []) expect(item, `${where}: results[].${field}`).toHaveProperty(field);
}

/** Each filter the request sent holds for every result; content was sent back when asked for. */
async function checkFilters(r: Recorded, json: Json, where: string, fill: (t: string) => string) {
  if (r.op !== 'listNotes' && r.op !== 'searchNotes') return;
  const sent = new Map<string, unknown>([
    ...(r.query ?? []).map(([k, v]) => [k, fill(v)] as [string, unknown]),
    ...Object.entries((r.body ?? {}) as Json).map(
      ([k, v]) => [k, JSON.parse(fill(JSON.stringify(v)))] as [string, unknown],
    ),
  ]);
  const config = (sent.get('config') ?? {}) as Json;
  const wantsContent = INCLUDE_CONTENT.some(
    (n) => sent.get(n) === 'true' || sent.get(n) === true || config[n] === true,
  );
  const collections = COLLECTION_FILTER.flatMap((n) => (sent.has(n) ? [sent.get(n)].flat() : [])) as string[];
  const contains = Object.keys(CONTAINS).filter((k) =>
    [`contains_${k}`, `filter_by_contains_${k}`].some((n) => sent.get(n) === 'true' || sent.get(n) === true),
  );
  for (const item of json.results as Json[]) {
    if (wantsContent) expect(item, `${where}: content asked for`).toHaveProperty('content');
    const note = (await (
      await fetch(`${fake!.url}/v2/notes/${item.id}`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as { content: string; collection_ids: string[] };
    if (collections.length > 0)
      expect(
        collections.some((c) => note.collection_ids.includes(c)),
        `${where}: ${item.id} outside the collection filter`,
      ).toBe(true);
    // The document combines the contains filters with OR.
    if (contains.length > 0)
      expect(
        contains.some((k) => CONTAINS[k]!.test(note.content)),
        `${where}: ${item.id} matches none of ${contains}`,
      ).toBe(true);
  }
}

describe('four public clients, replayed as they sent their requests', () => {
  it('records every client with its requests, and a rule for every request refused', () => {
    expect(CLIENTS.map((c) => c.client).sort()).toEqual([
      'Schmouly/mem-mcp-server',
      'hskksk/mem-ai-mcp-cli',
      'jqlts1/mem-ai-skill',
      'metorial/metorial',
    ]);
    for (const c of CLIENTS)
      for (const r of c.requests)
        if (r.status !== 200 || (r.hosted ?? 200) !== 200)
          expect(r.breaks, `${c.client} ${r.method} ${r.path}: why refused`).toMatch(/^[a-z]+\.[a-z-]+\.[a-z0-9.-]+$/);
  });
  for (const client of CLIENTS) {
    it(`${client.client}: every request with no flags`, () => replay(client, 'plain'));
    it(`${client.client}: every request under --profile hosted`, () => replay(client, 'hosted'));
  }
});
