import { randomUUID } from 'node:crypto';
import {
  collectionCreated,
  collectionDeleted,
  type MembershipOp,
  membershipChanged,
} from '../core/behaviour/effects.js';
import type { KnownCollection, KnownNote } from '../core/behaviour/state.js';
import type { Exchange } from '../core/client.js';
import type { Op } from '../core/model-operations.js';
import { instant, thenRead } from './exec-notes.js';
import { type Observation, statusOf } from './normalise.js';
import type { Side, Step } from './side.js';
import { ackView, bodyOf, collectionView, listView } from './views.js';

/** What the side's state expects of an answer about collection `c`. */
function expectation(side: Side, c: KnownCollection) {
  return { updatedKnown: c.updatedAt !== undefined, stamps: side.state.stampsOf(c.id) };
}

export async function createCollection(
  side: Side,
  op: Extract<Op, { kind: 'createCollection' }>,
): Promise<Step | undefined> {
  const { state, sym } = side;
  const dup = op.id === 'duplicate' ? state.aliveColl(op.dup) : undefined;
  if (op.id === 'duplicate' && !dup) return undefined;
  const id = dup?.id ?? (op.id === 'supplied' ? randomUUID() : undefined);
  const body: Record<string, unknown> = { title: `Diff ${op.word} (${side.marker})` };
  const shown = [id ? `${dup ? 'duplicate of ' : 'id '}${sym.id(id, 'C')}` : 'generated id', JSON.stringify(op.word)];
  if (id) body.id = id;
  if (op.described) {
    body.description = `About ${op.word}`;
    shown.push('described');
  }
  const stamps = new Set<string>();
  for (const key of ['created_at', 'updated_at'] as const) {
    if (op.stamps !== 'both' && op.stamps !== key.slice(0, -3)) continue;
    const ms = state.nextStamp();
    body[key] = new Date(ms).toISOString();
    stamps.add(sym.stamp(ms));
    shown.push(`${key} ${sym.stamp(ms)}`);
  }
  const x = await side.api.createCollection(body);
  const status = statusOf(x, { exact409: true });
  const line = `CreateCollection(${shown.join(', ')})`;
  if (status !== '200') return { line, observed: { status } };
  const observed: Observation = { status, ...collectionView(x, sym, { updatedKnown: true, stamps }, false) };
  const b = bodyOf(x);
  if (!dup && typeof b?.id === 'string') {
    const c = collectionCreated(
      state.world,
      {
        id: b.id,
        owner: 'primary',
        title: body.title as string,
        description: op.described ? (body.description as string) : null,
        ...instant('createdAt', b.created_at),
        ...instant('updatedAt', b.updated_at),
        suppliedCreated: 'created_at' in body,
        suppliedUpdated: 'updated_at' in body,
      },
      x,
    );
    state.colls.push(c.id);
    for (const label of stamps) state.stampsOf(c.id).add(label);
  }
  return { line: `${line} -> ${observed.id}`, observed };
}

export async function deleteCollection(side: Side, index: number): Promise<Step | undefined> {
  const picked = side.state.coll(index);
  if (!picked) return undefined;
  const line = `DeleteCollection(${side.collName(picked.i)})`;
  const x = await side.api.deleteCollection(picked.c.id);
  const status = statusOf(x);
  if (status !== '200') return { line, observed: { status } };
  collectionDeleted(side.state.world, picked.c, x);
  return { line, observed: { status, ...ackView(x) } };
}

export async function readCollection(side: Side, index: number): Promise<Step | undefined> {
  const picked = side.state.coll(index);
  if (!picked) return undefined;
  const line = `ReadCollection(${side.collName(picked.i)})`;
  const x = await side.api.getCollection(picked.c.id);
  const status = statusOf(x);
  if (status !== '200') return { line, observed: { status } };
  const { anyTrashed } = side.state.members(picked.i);
  return { line, observed: { status, ...collectionView(x, side.sym, expectation(side, picked.c), anyTrashed) } };
}

export async function listCollection(side: Side, index: number): Promise<Step | undefined> {
  const picked = side.state.coll(index);
  // Filtering by a collection that does not exist is not documented (empty list or refusal).
  if (!picked || picked.c.deleted) return undefined;
  const line = `ListNotes(collection ${side.collName(picked.i)})`;
  const x = await side.api.listNotes({ collection: picked.c.id });
  const status = statusOf(x);
  if (status !== '200') return { line, observed: { status } };
  return { line, observed: { status, ...listView(x, side.sym, side.state, picked.i) } };
}

/**
 * Membership with a deleted note or collection is a documented refusal; with a trashed note,
 * or a link that already exists (add) or does not (move, remove), it is not documented: the
 * operations pick among the notes and collections for which the outcome is determined.
 */
const trashed = (n: KnownNote) => n.trashed?.value === true;
const linkable = (n: KnownNote) => n.deleted !== undefined || !trashed(n);
const linked = (n: KnownNote) => n.deleted !== undefined || (!trashed(n) && (n.links?.size ?? 0) > 0);
const holds = (n: KnownNote, c: KnownCollection) => n.links?.has(c.id) === true;

/** The interpreter's effect of an accepted membership change (kit/core/behaviour/effects.ts). */
function apply(
  side: Side,
  op: MembershipOp,
  n: KnownNote,
  from: KnownCollection,
  to: KnownCollection | undefined,
  x: Exchange,
) {
  membershipChanged(side.state.world, op, 'primary', n, from, to, x);
}

export async function addNote(side: Side, noteIndex: number, collIndex: number): Promise<Step | undefined> {
  const note = side.state.note(noteIndex, linkable);
  const coll = note && side.state.coll(collIndex, (c) => c.deleted !== undefined || !holds(note.n, c));
  if (!note || !coll) return undefined;
  const line = `AddNote(${side.noteName(note.i)} -> ${side.collName(coll.i)})`;
  const x = await side.api.addToCollection(coll.c.id, note.n.id);
  const status = statusOf(x);
  if (status !== '200') return { line, observed: { status, ...(await thenRead(side, note.n)) } };
  apply(side, 'addNoteToCollection', note.n, coll.c, undefined, x);
  return { line, observed: { status, ...ackView(x), ...(await thenRead(side, note.n)) } };
}

export async function moveNote(
  side: Side,
  noteIndex: number,
  fromIndex: number,
  toIndex: number,
): Promise<Step | undefined> {
  const note = side.state.note(noteIndex, linked);
  const from =
    note && side.state.coll(fromIndex, (c) => c.deleted !== undefined || !!note.n.deleted || holds(note.n, c));
  // A move onto its own source, or onto a collection that holds the note already, is not documented either.
  const to = from && side.state.coll(toIndex, (c, i) => i !== from.i && (c.deleted !== undefined || !holds(note.n, c)));
  if (!note || !from || !to) return undefined;
  const line = `MoveNote(${side.noteName(note.i)}: ${side.collName(from.i)} -> ${side.collName(to.i)})`;
  const x = await side.api.moveNote(from.c.id, note.n.id, { target_collection_id: to.c.id });
  const status = statusOf(x);
  if (status !== '200') return { line, observed: { status, ...(await thenRead(side, note.n)) } };
  apply(side, 'moveNote', note.n, from.c, to.c, x);
  return { line, observed: { status, ...ackView(x), ...(await thenRead(side, note.n)) } };
}

export async function removeNote(side: Side, noteIndex: number, collIndex: number): Promise<Step | undefined> {
  const note = side.state.note(noteIndex, linked);
  const coll =
    note && side.state.coll(collIndex, (c) => c.deleted !== undefined || !!note.n.deleted || holds(note.n, c));
  if (!note || !coll) return undefined;
  const line = `RemoveNote(${side.noteName(note.i)} from ${side.collName(coll.i)})`;
  const x = await side.api.removeFromCollection(coll.c.id, note.n.id);
  // The remove endpoint's answer is not shown: success or refusal only.
  const status = statusOf(x, { anySuccess: true });
  if (status === '2xx') apply(side, 'removeNoteFromCollection', note.n, coll.c, undefined, x);
  // Whether adding, moving or removing a note changes its version is not shown: the effect leaves
  // it unknown, and the read after it only learns it (a version it replaced is not one an update
  // made stale, so both sides send a "stale" update alike).
  return { line, observed: { status, ...(await thenRead(side, note.n)) } };
}
