import { resolveConfig } from './config.js';
import type { FakeCore } from './http/core.js';
import type { FakeResponse } from './http/types.js';
import { createCore } from './instance.js';
import * as fixtureOps from './service/fixtures.js';

/**
 * A warm-up of V8's compiler, run once per process before the CLI's fake (or any createFake with
 * `warmUp: true`) answers its first request. It changes no answer: it sends a small workload to a
 * fake of its own (its own store, users and ids, which no client can reach); what it leaves behind
 * is compiled code, the caches of pure functions (folded-terms.ts's case tables) and that small
 * fake, kept (see keptForCompiledCode). Why: a cold process runs the text paths' hot
 * loops (query folding, term tables, posting walks, norms) in the interpreter until V8 has
 * compiled them, and its compiler threads count as server time too: the first search of a 4 MiB
 * query of every corpus term cost about twice the later ones (bench/worst-cases.js, README). The
 * work is the same as any client's first requests, done before the port is offered; its time is
 * measured by bench/worst-cases.js ("start-up").
 */
let warmed = false;
/**
 * The warm-up's fake, kept for the life of the process (about 200 notes): compiled code may hold
 * its objects (the closures a search passes down), and V8 throws such code away when they are
 * collected ("weak objects" in --trace-deopt: takeBm25 was, and the first 4 MiB search of every
 * term then compiled it again, on the request's time).
 */
export let keptForCompiledCode: FakeCore | undefined;

/** Whether this process has run the warm-up. */
export function isWarm(): boolean {
  return warmed;
}

/** Runs the warm-up unless this process already has. */
export function warmUpOnce(): void {
  if (warmed) return;
  warmed = true;
  const core = createCore(resolveConfig({ users: [] }));
  keptForCompiledCode = core;
  const owner = fixtureOps.createUser(core.ctx, { token: 'warm-up-owner-token' }).token as string;
  const reader = fixtureOps.createUser(core.ctx, { token: 'warm-up-reader-token' }).token as string;
  const call = (token: string, method: string, url: string, body?: unknown) =>
    core.serve({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      // A string is sent as it is (a malformed body, a refused key).
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    }).response;
  warmUp(core, owner, reader, call);
}

type Call = (token: string, method: string, url: string, body?: unknown) => FakeResponse;

/** A deterministic generator (the workload is the same at every start). */
function generator(seed: number) {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOTES = 200;
const VOCABULARY = 300;
const ROUNDS = 10;

function warmUp(core: FakeCore, owner: string, reader: string, call: Call): void {
  const rand = generator(7);
  const vocab = Array.from({ length: VOCABULARY }, (_, i) => `w${i.toString(36)}x`);
  const odd = ['İstanbul', 'ẞtraße', 'ΟΔΟΣ', 'Σίσυφος', 'café', 'naïve', '𝒳y', '中文'];
  const words = (n: number) =>
    Array.from({ length: n }, () =>
      rand() < 0.03 ? odd[Math.floor(rand() * odd.length)] : vocab[Math.floor(vocab.length * rand() ** 3)],
    ).join(' ');
  const idOf = (answer: { json?: unknown }) => (answer.json as { id?: string } | undefined)?.id;
  const collection = idOf(call(owner, 'POST', '/v2/collections', { title: 'Warm', description: words(200) }));
  for (let i = 0; i < 20; i++)
    call(owner, 'POST', '/v2/collections', { title: `Warm ${i}`, description: words(100 + i * 20) });
  const notes: string[] = [];
  for (let i = 0; i < NOTES; i++) {
    const marks = ['- [ ] task', '- [x] done', '![i](http://e.com/a.png)', '[f](http://e.com/a.pdf)', ''];
    const body: Record<string, unknown> = {
      content: `${i % 7 === 0 ? '# ' : ''}${words(3)}\n${words(27)}\n${marks[i % marks.length]}`,
    };
    if (i % 50 === 0 && collection) body.collection_ids = [collection];
    if (i % 60 === 0) body.collection_titles = ['warm 3', 'WARM 4', 'none'];
    const id = idOf(call(owner, 'POST', '/v2/notes', body));
    if (id) notes.push(id);
  }
  // Long texts: counted by a TermTable when indexed, and a subject holding every term.
  const all = `${vocab.join(' ')} `;
  const everything = idOf(call(owner, 'POST', '/v2/notes', { content: `everything\n${all.repeat(12)}` }));
  // A second owner's notes, of terms the first one's hold: the index's add for a term the index
  // already holds under another owner (its term filter counts it again), first met when a second
  // user wrote, threw add back to the interpreter (--trace-deopt), and the next large note compiled
  // it again in the background (120 to 140 ms of compiler time, counted in the requests that ran
  // meanwhile: the first related notes of the all-terms note).
  for (let i = 0; i < 3; i++) call(reader, 'POST', '/v2/notes', { content: `${words(3)}\n${words(27)}` });
  if (collection)
    fixtureOps.grant(core.ctx, { resource: 'collection', id: collection, token: reader, level: 'access' });
  const longQuery = all.repeat(20);
  // Many small calls rather than a few big ones: V8 compiles a function after enough runs of its
  // loops, and a small corpus keeps each call cheap.
  for (let round = 0; round < ROUNDS; round++) {
    const token = round % 4 === 3 ? reader : owner;
    // A write first: related notes then recompute the norms of the caller's notes.
    call(owner, 'POST', '/v2/notes', { content: `touch ${round}` });
    call(token, 'POST', '/v2/notes/search?limit=50', { query: round % 4 === 0 ? longQuery : all });
    call(token, 'POST', '/v2/notes/search', { query: `${words(4)} zzunknown` });
    if (round % 4 === 1) {
      call(token, 'POST', '/v2/notes/search', { query: 'İ'.repeat(2_000) });
      call(token, 'POST', '/v2/notes/search', { query: `${'ẞ'.repeat(64)} σ Σ ΟΔΟΣ `.repeat(50) });
      call(token, 'POST', '/v2/notes/search', {
        query: words(3),
        contains_tasks: true,
        created_after: '2000-01-01T00:00:00Z',
        ...(collection ? { collections: [collection] } : {}),
      });
      call(token, 'POST', '/v2/collections/search', { query: all.repeat(2) });
    }
    // Bodies the scanner reads without building (fake/http/json-scan.ts): unknown fields, nested
    // containers, arrays of objects; all refused or dropped.
    if (round % 2 === 0) {
      const pad = `${'['.repeat(2_000)}${']'.repeat(2_000)}`;
      call(token, 'POST', '/v2/notes/search', { query: 'x', collections: Array(5_000).fill({}) });
      call(token, 'POST', '/v2/notes/search', { query: 'x', collections: Array(5_000).fill(1) });
      call(token, 'POST', '/v2/notes', JSON.parse(`{"pad":${pad},"content":${JSON.stringify(all)}}`));
      call(token, 'POST', '/v2/notes', {
        content: 'x',
        ...Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])),
      });
      // Small containers side by side (skipped in runs) and items too deep for a run; array-index keys.
      call(
        token,
        'POST',
        '/v2/notes',
        `{"content":"x","pad":[${'[1],{"a":1},'.repeat(2_000)}[[[1]]],${'[[[1]]],'.repeat(2_000)}1]}`,
      );
      call(
        token,
        'POST',
        '/v2/notes',
        `{"content":"x",${Array.from({ length: 2_000 }, (_, i) => `"${2_000 - i}":1`).join(',')}}`,
      );
      // Handed back to JSON.parse: a refused key after many {}, and a body missing its last bracket.
      call(token, 'POST', '/v2/notes/search', `{"query":"x","pad":[${'{},'.repeat(5_000)}{"__proto__":1}]}`);
      call(token, 'POST', '/v2/notes', `{"content":"x","pad":${pad.slice(1)}}`);
      call(token, 'POST', '/v2/notes', `{"content":"x","pad":[${'[1],'.repeat(5_000)}[[1]]}`);
    }
    call(token, 'GET', `/v2/notes/${notes[round % notes.length]}/related-notes?limit=20`);
    if (everything) call(token, 'GET', `/v2/notes/${everything}/related-notes?limit=20`);
    if (round % 4 === 2) {
      const page = call(token, 'GET', '/v2/notes?limit=100&contains_tasks=true&contains_images=true');
      const next = (page.json as { next_page?: string } | undefined)?.next_page;
      if (next) call(token, 'GET', `/v2/notes?limit=100&contains_tasks=true&contains_images=true&page=${next}`);
      call(token, 'GET', '/v2/notes?order_by=created_at&limit=20');
    }
  }
  // Related notes right after a write, until related, its norms pass and its vector are compiled:
  // ten calls left them (and normsOf) to be compiled (on-stack, from the interpreter) by the first real call,
  // which cost the note holding every term of 100,000 notes about 60 ms more.
  for (let i = 0; i < RELATED_ROUNDS; i++) {
    call(owner, 'POST', '/v2/notes', { content: `touch again ${i}` });
    call(owner, 'GET', `/v2/notes/${notes[(i * 7) % notes.length]}/related-notes?limit=20`);
    if (everything) call(owner, 'GET', `/v2/notes/${everything}/related-notes?limit=20`);
  }
  // Searches of every term until the scoring and the taking of its hits are compiled: the ten
  // above left both to the first real call of that size, which compiled them on the spot (--trace-opt:
  // scoreBm25 and takeBm25 marked during the request; the 4 MiB all-terms query of 100,000 notes
  // cost about 40 ms more the first time, most of it compiler threads).
  for (let i = 0; i < SEARCH_ROUNDS; i++) call(owner, 'POST', '/v2/notes/search?limit=50', { query: all });
}

const RELATED_ROUNDS = 20;
const SEARCH_ROUNDS = 20;
