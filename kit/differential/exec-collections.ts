import { randomUUID } from 'node:crypto';
import type { Op } from '../core/model-operations.js';
import { thenRead } from './exec-notes.js';
import { type Observation, statusOf } from './normalise.js';
import type { Side, Step } from './side.js';
import type { NoteState } from './state.js';
import { ackView, bodyOf, collectionView, listView } from './views.js';

export async function createCollection(
  side: Side,
  op: Extract<Op, { kind: 'createCollection' }>,
): Promise<Step | undefined> {
  const { state, sym } = side;
  const dup = op.id === 'duplicate' ? state.aliveColl(op.dup) : undefined;
  if (op.id === 'duplicate' && !dup) return undefined;
  const id = dup?.uuid ?? (op.id === 'supplied' ? randomUUID() : undefined);
  const body: Record<string, unknown> = { title: `Diff ${op.word} (${side.marker})` };
  const shown = [id ? `${dup ? 'duplicate of ' : 'id '}${sym.id(id, 'C')}` : 'generated id', JSON.stringify(op.word)];
  if (id) body.id = id;
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
  if (!dup && typeof b?.id === 'string') state.colls.push({ uuid: b.id, alive: true, updatedKnown: true, stamps });
  return { line: `${line} -> ${observed.id}`, observed };
}

export async function deleteCollection(side: Side, index: number): Promise<Step | undefined> {
  const picked = side.state.coll(index);
  if (!picked) return undefined;
  const line = `DeleteCollection(${side.collName(picked.i)})`;
  const x = await side.api.deleteCollection(picked.c.uuid);
  const status = statusOf(x);
  if (status !== '200') return { line, observed: { status } };
  picked.c.alive = false;
  side.state.unlinkCollection(picked.i);
  return { line, observed: { status, ...ackView(x) } };
}

export async function readCollection(side: Side, index: number): Promise<Step | undefined> {
  const picked = side.state.coll(index);
  if (!picked) return undefined;
  const line = `ReadCollection(${side.collName(picked.i)})`;
  const x = await side.api.getCollection(picked.c.uuid);
  const status = statusOf(x);
  if (status !== '200') return { line, observed: { status } };
  return {
    line,
    observed: { status, ...collectionView(x, side.sym, picked.c, side.state.members(picked.i).anyTrashed) },
  };
}

export async function listCollection(side: Side, index: number): Promise<Step | undefined> {
  const picked = side.state.coll(index);
  // Filtering by a collection that does not exist is not documented (empty list or refusal).
  if (!picked?.c.alive) return undefined;
  const line = `ListNotes(collection ${side.collName(picked.i)})`;
  const x = await side.api.listNotes({ collection: picked.c.uuid });
  const status = statusOf(x);
  if (status !== '200') return { line, observed: { status } };
  return { line, observed: { status, ...listView(x, side.sym, side.state, picked.i) } };
}

/**
 * Membership with a deleted note or collection is a documented refusal; with a trashed note,
 * or a link that already exists (add) or does not (move, remove), it is not documented: the
 * operations pick among the notes and collections for which the outcome is determined.
 */
const linkable = (n: NoteState) => !n.alive || !n.trashed;
const linked = (n: NoteState) => !n.alive || (!n.trashed && n.colls.size > 0);

export async function addNote(side: Side, noteIndex: number, collIndex: number): Promise<Step | undefined> {
  const note = side.state.note(noteIndex, linkable);
  const coll = note && side.state.coll(collIndex, (c, i) => !c.alive || !note.n.colls.has(i));
  if (!note || !coll) return undefined;
  const line = `AddNote(${side.noteName(note.i)} -> ${side.collName(coll.i)})`;
  const x = await side.api.addToCollection(coll.c.uuid, note.n.uuid);
  const status = statusOf(x);
  if (status !== '200') return { line, observed: { status, ...(await thenRead(side, note.n)) } };
  note.n.colls.add(coll.i);
  note.n.updatedKnown = coll.c.updatedKnown = false;
  return { line, observed: { status, ...ackView(x), ...(await readLearningVersion(side, note.n)) } };
}

export async function moveNote(
  side: Side,
  noteIndex: number,
  fromIndex: number,
  toIndex: number,
): Promise<Step | undefined> {
  const note = side.state.note(noteIndex, linked);
  const from = note && side.state.coll(fromIndex, (c, i) => !c.alive || !note.n.alive || note.n.colls.has(i));
  // A move onto its own source, or onto a collection that holds the note already, is not documented either.
  const to = from && side.state.coll(toIndex, (c, i) => i !== from.i && (!c.alive || !note.n.colls.has(i)));
  if (!note || !from || !to) return undefined;
  const line = `MoveNote(${side.noteName(note.i)}: ${side.collName(from.i)} -> ${side.collName(to.i)})`;
  const x = await side.api.moveNote(from.c.uuid, note.n.uuid, { target_collection_id: to.c.uuid });
  const status = statusOf(x);
  if (status !== '200') return { line, observed: { status, ...(await thenRead(side, note.n)) } };
  note.n.colls.add(to.i);
  note.n.colls.delete(from.i);
  note.n.updatedKnown = from.c.updatedKnown = to.c.updatedKnown = false;
  return { line, observed: { status, ...ackView(x), ...(await readLearningVersion(side, note.n)) } };
}

export async function removeNote(side: Side, noteIndex: number, collIndex: number): Promise<Step | undefined> {
  const note = side.state.note(noteIndex, linked);
  const coll = note && side.state.coll(collIndex, (c, i) => !c.alive || !note.n.alive || note.n.colls.has(i));
  if (!note || !coll) return undefined;
  const line = `RemoveNote(${side.noteName(note.i)} from ${side.collName(coll.i)})`;
  const x = await side.api.removeFromCollection(coll.c.uuid, note.n.uuid);
  // The remove endpoint's answer is not shown: success or refusal only.
  const status = statusOf(x, { anySuccess: true });
  if (status === '2xx') {
    note.n.colls.delete(coll.i);
    note.n.updatedKnown = coll.c.updatedKnown = false;
    return { line, observed: { status, ...(await readLearningVersion(side, note.n)) } };
  }
  return { line, observed: { status, ...(await thenRead(side, note.n)) } };
}

/**
 * The read after a membership change. Whether adding, moving or removing a note changes its version
 * is not shown: the read only learns the version (compared as any integer). A version it replaced is
 * not added to the stale ones: those come from updates, so that both sides send a "stale" update alike.
 */
async function readLearningVersion(side: Side, n: NoteState): Promise<Observation> {
  const before = n.version;
  n.version = undefined;
  const observed = await thenRead(side, n);
  if (n.version === undefined) n.version = before;
  return observed;
}
