import { randomUUID } from 'node:crypto';
import type { Op } from '../core/model-operations.js';
import { type Observation, statusOf } from './normalise.js';
import type { Side, Step } from './side.js';
import type { NoteState } from './state.js';
import { ackView, bodyOf, noteView } from './views.js';

const DAY = 86_400_000;
type Of<K extends Op['kind']> = Extract<Op, { kind: K }>;

/** A supplied instant, in Z or in -05:00 form: servers must compare instants, not strings. */
function stampText(ms: number, zoned: boolean): string {
  return zoned ? new Date(ms - 5 * 3_600_000).toISOString().replace('Z', '-05:00') : new Date(ms).toISOString();
}

function parsedOr(value: unknown, fallback: number): number {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? fallback : ms;
}

export async function createNote(side: Side, op: Of<'createNote'>): Promise<Step | undefined> {
  const { state, sym } = side;
  const dup = op.id === 'duplicate' ? state.aliveNote(op.dup) : undefined;
  if (op.id === 'duplicate' && !dup) return undefined;
  const id = dup?.uuid ?? (op.id === 'supplied' ? randomUUID() : undefined);
  const content = `${op.heading ? '# ' : ''}Diff ${op.word}\nbody ${op.word}\n${side.marker}`;
  const body: Record<string, unknown> = { content };
  const shown = [id ? `${dup ? 'duplicate of ' : 'id '}${sym.id(id, 'N')}` : 'generated id', sym.content(content)];
  if (id) body.id = id;
  const stamps = new Set<string>();
  for (const key of ['created_at', 'updated_at'] as const) {
    if (op.stamps !== 'both' && op.stamps !== key.slice(0, -3)) continue;
    const ms = state.nextStamp();
    body[key] = stampText(ms, op.zoned);
    stamps.add(sym.stamp(ms));
    shown.push(`${key} ${sym.stamp(ms)}`);
  }
  const into = op.into === null ? undefined : state.coll(op.into);
  if (into) {
    body.collection_ids = [into.c.uuid];
    shown.push(`collection_ids [${side.collName(into.i)}]`);
  }
  const x = await side.api.createNote(body);
  const status = statusOf(x, { exact409: true });
  const line = `CreateNote(${shown.join(', ')})`;
  if (status !== '200') return { line, observed: { status, ...(dup ? await thenRead(side, dup) : {}) } };
  const observed: Observation = { status, ...noteView(x, sym, { version: undefined, updatedKnown: true, stamps }) };
  const b = bodyOf(x);
  if (!dup && typeof b?.id === 'string') {
    const created = parsedOr(b.created_at, Date.now());
    state.notes.push({
      uuid: b.id,
      alive: true,
      trashed: false,
      colls: new Set(into?.c.alive ? [into.i] : []),
      version: typeof b.version === 'number' ? b.version : undefined,
      stale: [],
      original: created,
      createdAt: created,
      serverCreated: op.stamps === 'none',
      windowed: op.stamps === 'updated' || op.stamps === 'both',
      updatedKnown: true,
      stamps,
    });
  }
  return { line: `${line} -> ${observed.id}`, observed };
}

export async function updateNote(side: Side, op: Of<'updateNote'>): Promise<Step | undefined> {
  // A stale version needs an earlier update; a current one is sent to a note that exists (trashed ones included).
  const picked =
    side.state.note(
      op.note,
      op.version === 'stale' ? (n) => n.stale.length > 0 : op.version === 'current' ? (n) => n.alive : undefined,
    ) ?? side.state.note(op.note);
  if (!picked) return undefined;
  const n = picked.n;
  const current = n.version ?? 1;
  // Without an older version yet, a stale update is sent as a current one: it makes the version a later one can send.
  const kind = op.version === 'stale' && n.stale.length === 0 ? 'current' : op.version;
  const version = kind === 'current' ? current : kind === 'stale' ? n.stale[n.stale.length - 1]! : current + op.ahead;
  const content = `Updated ${op.word}\n${side.marker}`;
  const body: Record<string, unknown> = { content, version };
  const shown = [
    side.noteName(picked.i),
    `version ${kind === 'ahead' ? `current+${op.ahead}` : kind}`,
    side.sym.content(content),
  ];
  const stamped = op.stamp && n.windowed;
  if (stamped) {
    const ms = side.state.nextStamp();
    body.updated_at = stampText(ms, false);
    n.stamps.add(side.sym.stamp(ms));
    shown.push(`updated_at ${side.sym.stamp(ms)}`);
  }
  const x = await side.api.updateNote(n.uuid, body);
  const status = statusOf(x);
  const line = `UpdateNote(${shown.join(', ')})`;
  if (status !== '200') return { line, observed: { status } };
  const observed = { status, ...noteView(x, side.sym, { version: n.version, updatedKnown: true, stamps: n.stamps }) };
  const next = bodyOf(x)?.version;
  if (n.version !== undefined) n.stale.push(n.version);
  n.version = typeof next === 'number' ? next : n.version;
  n.windowed = stamped;
  n.updatedKnown = true;
  return { line, observed };
}

export async function setCreatedAt(side: Side, op: Of<'setCreatedAt'>): Promise<Step | undefined> {
  // After a supplied created_at, "originally created" may mean either instant: only 'later' is ambiguous.
  const picked = side.state.note(op.note, (n) => op.when !== 'later' || n.serverCreated);
  if (!picked) return undefined;
  const n = picked.n;
  // 'between' needs an earlier backdate; before one it is a plain backdate.
  const when = op.when === 'between' && n.createdAt >= n.original ? 'earlier' : op.when;
  const value =
    when === 'earlier'
      ? n.original - op.days * DAY
      : when === 'between'
        ? Math.floor((n.createdAt + n.original) / 2)
        : // One precision step later: a store that cuts instants may cut a single millisecond away.
          when === 'later'
          ? n.original + side.precisionMs
          : Date.now() + Math.max(op.days * DAY, side.clockToleranceMs * 2 + 60_000);
  const what = {
    earlier: `${op.days} days before the original`,
    between: 'between the current and the original',
    later: 'one precision step after the original',
    future: 'in the future',
  }[when];
  const label = side.sym.stamp(value);
  const line = `SetCreatedAt(${side.noteName(picked.i)}, ${label} [${what}])`;
  const x = await side.api.setCreatedAt(n.uuid, { created_at: new Date(value).toISOString() });
  const status = statusOf(x);
  if (status !== '200') return { line, observed: { status } };
  n.stamps.add(label);
  // Whether setting created_at moves updated_at, or the version, is not shown (the version is only learned).
  const observed = { status, ...noteView(x, side.sym, { version: undefined, updatedKnown: false, stamps: n.stamps }) };
  const next = bodyOf(x)?.version;
  if (typeof next === 'number') n.version = next;
  n.createdAt = value;
  n.updatedKnown = false;
  return { line, observed };
}

/** Trash and restore: endpoints whose answers are not shown, so only success or refusal counts. */
async function trashOrRestore(side: Side, index: number, trash: boolean): Promise<Step | undefined> {
  // Trashing a trashed note or restoring an active one is not documented.
  const picked = side.state.note(index, (n) => !n.alive || n.trashed !== trash);
  if (!picked) return undefined;
  const line = `${trash ? 'TrashNote' : 'RestoreNote'}(${side.noteName(picked.i)})`;
  const x = trash ? await side.api.trashNote(picked.n.uuid) : await side.api.restoreNote(picked.n.uuid);
  const status = statusOf(x, { anySuccess: true });
  if (status === '2xx') {
    picked.n.trashed = trash;
    picked.n.updatedKnown = false;
    // Whether trash or restore moves the version is not shown: the read after it only learns it.
    picked.n.version = undefined;
  }
  return { line, observed: { status, ...(await thenRead(side, picked.n)) } };
}

export const trashNote = (side: Side, index: number) => trashOrRestore(side, index, true);
export const restoreNote = (side: Side, index: number) => trashOrRestore(side, index, false);

export async function deleteNote(side: Side, index: number): Promise<Step | undefined> {
  const picked = side.state.note(index);
  if (!picked) return undefined;
  const line = `DeleteNote(${side.noteName(picked.i)})`;
  const x = await side.api.deleteNote(picked.n.uuid);
  const status = statusOf(x);
  if (status !== '200') return { line, observed: { status } };
  picked.n.alive = false;
  picked.n.colls.clear();
  return { line, observed: { status, ...ackView(x) } };
}

/** GET of a note the sequence made, normalised; it also learns the version the side reports. */
export async function observeNote(side: Side, n: NoteState): Promise<Observation> {
  const x = await side.api.getNote(n.uuid);
  const status = statusOf(x);
  if (status !== '200') return { status };
  const observed = { status, ...noteView(x, side.sym, n) };
  const next = bodyOf(x)?.version;
  if (typeof next === 'number') n.version = next;
  return observed;
}

/** The read after a change, so that the step shows its effect (or that a refusal changed nothing). */
export async function thenRead(side: Side, n: NoteState): Promise<Observation> {
  return n.alive ? { then_read: await observeNote(side, n) } : {};
}

export async function readNote(side: Side, index: number): Promise<Step | undefined> {
  const picked = side.state.note(index);
  if (!picked) return undefined;
  return { line: `ReadNote(${side.noteName(picked.i)})`, observed: await observeNote(side, picked.n) };
}
