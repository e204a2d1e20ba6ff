import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Api } from './api.js';
import type { OkBody } from './bodies.js';
import type { CheckContext } from './check.js';
import type { Exchange } from './client.js';
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
 * A create that must be refused and make nothing: the body carries a fresh id, so the kit can
 * ask afterwards whether a note with that id exists (it must not).
 */
export async function expectNoteCreateRefused(
  t: CheckContext,
  rules: string | readonly string[],
  body: Record<string, unknown>,
  what: string,
  api: Api = t.api,
): Promise<void> {
  const id = randomUUID();
  const x = await api.createNote({ ...body, id });
  await t.verify(rules, async () => {
    expectRefused(x, what);
    const read = await api.getNote(id);
    expect(read.status, `${what} was refused but the note ${id} exists afterwards: ${show(read)}`).not.toBe(200);
  });
}

export async function expectCollectionCreateRefused(
  t: CheckContext,
  rules: string | readonly string[],
  body: Record<string, unknown>,
  what: string,
): Promise<void> {
  const id = randomUUID();
  const x = await t.api.createCollection({ ...body, id });
  await t.verify(rules, async () => {
    expectRefused(x, what);
    const read = await t.api.getCollection(id);
    expect(read.status, `${what} was refused but the collection ${id} exists afterwards: ${show(read)}`).not.toBe(200);
  });
}

/** An instant safely in the future whatever the clocks: a day plus the tolerance ahead. */
export function futureIso(t: CheckContext, aheadMs = 86_400_000): string {
  return new Date(Date.now() + Math.max(aheadMs, t.ctx.clockToleranceMs * 2 + 1000)).toISOString();
}

/** An instant safely in the past on any clock within the tolerance. */
export function pastIso(t: CheckContext, agoMs = 3_600_000): string {
  return new Date(Date.now() - Math.max(agoMs, t.ctx.clockToleranceMs * 2 + 1000)).toISOString();
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
