import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Api } from '../../kit/core/api.js';
import type { Exchange } from '../../kit/core/client.js';
import type { RuleId } from '../../spec/rule-ids.js';
import type { OkBody } from './bodies.js';
import type { CheckContext } from './check.js';
import { KitError } from './errors.js';
import { expectRefused, setupOk, show } from './expect.js';

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
  return noteStateOf(await api.getNote(id), `read note ${id}`);
}

/** The state of a note from a read already made (no request). */
export function noteStateOf(read: Exchange<'getNote'>, step = 'read the note'): NoteState {
  const note = setupOk(read, step);
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
  return collectionStateOf(await api.getCollection(id), `read collection ${id}`);
}

/** The state of a collection from a read already made (no request). */
export function collectionStateOf(read: Exchange<'getCollection'>, step = 'read the collection') {
  const c = setupOk(read, step);
  return {
    title: c.title,
    description: c.description,
    created_at: Date.parse(c.created_at),
    updated_at: Date.parse(c.updated_at),
    note_count: c.note_count,
  };
}

/** A create that must be refused and make nothing; `what` names it in the verdict. */
export interface RefusedCreate {
  rules: RuleId | readonly RuleId[];
  body: Record<string, unknown>;
  what: string;
}

/**
 * Creates that must each be refused and make nothing. Each body carries a fresh id, so the kit can
 * ask afterwards whether something with that id exists (it must not); each refusal is judged at once. Whether anything was made is asked once for all of them when the
 * caller's whole list fits one page (limit 100, total within it): none of the ids may be listed.
 * Otherwise (an account with more data, a list that fails) each id is read, as for one create.
 */
export async function expectCreatesRefused(
  t: CheckContext,
  kind: 'note' | 'collection',
  attempts: readonly RefusedCreate[],
  api: Api = t.api,
): Promise<void> {
  const sent: Array<RefusedCreate & { id: string }> = [];
  for (const attempt of attempts) {
    const id = randomUUID();
    const x =
      kind === 'note'
        ? await api.createNote({ ...attempt.body, id })
        : await api.createCollection({ ...attempt.body, id });
    await t.verify(attempt.rules, () => expectRefused(x, attempt.what));
    sent.push({ ...attempt, id });
  }
  const listed = sent.length > 1 ? await wholeList(api, kind) : undefined;
  for (const attempt of sent) {
    await t.verify(attempt.rules, async () => {
      const made = `${attempt.what} was refused but the ${kind} ${attempt.id} exists afterwards`;
      if (listed) {
        expect(listed.ids, `${made}: it is listed in ${show(listed.x)}`).not.toContain(attempt.id);
        return;
      }
      const read = kind === 'note' ? await api.getNote(attempt.id) : await api.getCollection(attempt.id);
      expect(read.status, `${made}: ${show(read)}`).not.toBe(200);
    });
  }
}

/** Every note or collection the caller sees, when one page of 100 holds them all; else undefined. */
async function wholeList(api: Api, kind: 'note' | 'collection'): Promise<{ ids: string[]; x: Exchange } | undefined> {
  const x = kind === 'note' ? await api.listNotes({ limit: 100 }) : await api.listCollections({ limit: 100 });
  const page = x.json as { results?: unknown; total?: unknown } | undefined;
  if (x.status !== 200 || !Array.isArray(page?.results) || typeof page.total !== 'number') return undefined;
  const ids = page.results.map((r: { id?: unknown }) => r?.id).filter((id): id is string => typeof id === 'string');
  return ids.length >= page.total && ids.length === page.results.length ? { ids, x } : undefined;
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
