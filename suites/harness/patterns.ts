import { randomUUID } from 'node:crypto';
import type { Api } from '../../kit/core/api.js';
import type { Exchange } from '../../kit/core/client.js';
import type { OkBody } from './bodies.js';
import type { CheckContext } from './check.js';
import { KitError } from './errors.js';
import { setupOk, show } from './expect.js';

/** What "changes nothing" compares for a note. */
export interface NoteState {
  content: unknown;
  title: unknown;
  version: unknown;
  created_at: number;
  updated_at: number;
  trashed_at: unknown;
  collection_ids: string[];
}

export async function noteState(api: Api, id: string): Promise<NoteState> {
  const note = setupOk(await api.getNote(id), `read note ${id}`);
  return {
    content: note.content,
    title: note.title,
    version: note.version,
    created_at: Date.parse(note.created_at),
    updated_at: Date.parse(note.updated_at),
    trashed_at: note.trashed_at,
    collection_ids: [...((note.collection_ids as string[] | undefined) ?? [])].sort(),
  };
}

export async function collectionState(api: Api, id: string) {
  const c = setupOk(await api.getCollection(id), `read collection ${id}`);
  return {
    title: c.title,
    description: c.description,
    created_at: Date.parse(c.created_at),
    updated_at: Date.parse(c.updated_at),
    note_count: c.note_count,
  };
}

/**
 * Creates the document refuses, each under a fresh id, then what shows whether one made something
 * after all: one list read for the batch when the caller's list fits one page of 100 (the oracle
 * fails the refusal's rule for a page item under a refused create's id, kit/core/oracle/note-pages.ts
 * refusedCreate), a read of each id otherwise (test/kit/refused-creates.test.ts). A read per id
 * was a third of the requests of these checks (the cost of a run, docs/running.md "Cost").
 */
export async function refusedCreates(
  api: Api,
  kind: 'note' | 'collection',
  bodies: ReadonlyArray<Record<string, unknown>>,
): Promise<void> {
  const ids: string[] = [];
  for (const body of bodies) {
    const id = randomUUID();
    if (kind === 'note') await api.createNote({ ...body, id });
    else await api.createCollection({ ...body, id });
    ids.push(id);
  }
  if (ids.length > 1 && (await listedWhole(api, kind))) return;
  for (const id of ids) await (kind === 'note' ? api.getNote(id) : api.getCollection(id));
}

/** Whether one page of 100 of the caller's notes or collections holds them all (and so every refused id, if made). */
async function listedWhole(api: Api, kind: 'note' | 'collection'): Promise<boolean> {
  const x = kind === 'note' ? await api.listNotes({ limit: 100 }) : await api.listCollections({ limit: 100 });
  const page = x.json as { results?: unknown; total?: unknown; next_page?: unknown } | undefined;
  if (x.status !== 200 || !Array.isArray(page?.results) || typeof page.total !== 'number') return false;
  const more = page.next_page !== undefined && page.next_page !== null;
  return !more && page.results.length >= page.total;
}

/**
 * Whether every check of the full tier runs: no --only, --as-of or leave-one-out switch, nothing left
 * out by a capped run's plan. The other checks then read and create notes and collections that
 * exist, the positive control the oracle asks of each operation before a refusal may pass
 * (kit/oracle-verdicts.ts), so a check need not make one of its own (the cost of a run).
 */
export function everyCheckRuns(t: CheckContext): boolean {
  const { ctx } = t;
  return (
    ctx.tier === 'full' &&
    ctx.only.length === 0 &&
    ctx.asOf === undefined &&
    (ctx.switchedOff ?? []).length === 0 &&
    Object.keys(ctx.capPlan ?? {}).length === 0 &&
    // The note-cost measurement charges each check what it costs alone (kit/note-costs.ts).
    ctx.shareResources !== false
  );
}

/** An instant safely in the future whatever the clocks: a day plus the tolerance ahead. */
export function futureIso(t: CheckContext, aheadMs = 86_400_000): string {
  return new Date(Date.now() + Math.max(aheadMs, t.ctx.clockToleranceMs * 2 + 1000)).toISOString();
}

/** An instant safely in the past on any clock within the tolerance. */
export function pastIso(t: CheckContext, agoMs = 3_600_000): string {
  return new Date(Date.now() - Math.max(agoMs, t.ctx.clockToleranceMs * 2 + 1000)).toISOString();
}

/**
 * A past instant (ms) not before `floorMs`, for an updated_at the document bounds neither way: the
 * floor itself when it is recent (an instant the server wrote, so not in its future where stored
 * times are its clock truncated, as the fake's are; a store that rounds up could be half its
 * precision ahead), else an instant in the past on any clock within the tolerance. `floorMs + 1`
 * was up to a millisecond ahead of the server's clock right after the write that set it, and
 * `now - 1 s` ahead of a server whose clock is behind by more than a second (refused as "in the
 * future" by a correct server).
 */
export function pastNotBefore(t: CheckContext, floorMs: number | undefined): number {
  return Math.max(floorMs ?? 0, Date.now() - (t.ctx.clockToleranceMs * 2 + 1000));
}

/** The JSON body of an exchange the check depends on, or a KitError. */
export function body<Op extends string>(x: Exchange<Op>, step: string): OkBody<Op> {
  return setupOk(x, step);
}

export function ids(x: Exchange, step: string): string[] {
  const results = body(x, step).results;
  if (!Array.isArray(results)) throw new KitError(`${step}: the response has no results array: ${show(x)}`);
  return results.map((r: { id: string }) => r.id);
}
