import { randomUUID } from 'node:crypto';
import {
  createdAtSet,
  learnVersion,
  noteCreated,
  noteDeleted,
  noteTrashed,
  noteUpdated,
} from '../core/behaviour/effects.js';
import { backdatable, backdateInstant, staleVersions, trashDetermined } from '../core/behaviour/outcomes.js';
import type { KnownNote } from '../core/behaviour/state.js';
import type { Exchange } from '../core/client.js';
import type { Op } from '../core/model-operations.js';
import { type Observation, statusOf } from './normalise.js';
import type { Side, Step } from './side.js';
import { ackView, bodyOf, type NoteExpectation, noteView } from './views.js';

type Of<K extends Op['kind']> = Extract<Op, { kind: K }>;

/** A supplied instant, in Z or in -05:00 form: servers must compare instants, not strings. */
function stampText(ms: number, zoned: boolean): string {
  return zoned ? new Date(ms - 5 * 3_600_000).toISOString().replace('Z', '-05:00') : new Date(ms).toISOString();
}

/** { [key]: the instant } when `value` is a timestamp, else nothing. */
export function instant<K extends string>(key: K, value: unknown): Partial<Record<K, number>> {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? {} : ({ [key]: ms } as Record<K, number>);
}

/** What the side's state expects of an answer about note `n`. */
export function expectation(side: Side, n: KnownNote, version = n.version?.value): NoteExpectation {
  return { version, updatedKnown: n.updatedAt !== undefined, stamps: side.state.stampsOf(n.id) };
}

function versionIn(x: Exchange): number | undefined {
  const v = bodyOf(x)?.version;
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

export async function createNote(side: Side, op: Of<'createNote'>): Promise<Step | undefined> {
  const { state, sym } = side;
  const dup = op.id === 'duplicate' ? state.aliveNote(op.dup) : undefined;
  if (op.id === 'duplicate' && !dup) return undefined;
  const id = dup?.id ?? (op.id === 'supplied' ? randomUUID() : undefined);
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
    body.collection_ids = [into.c.id];
    shown.push(`collection_ids [${side.collName(into.i)}]`);
  }
  const x = await side.api.createNote(body);
  const status = statusOf(x, { exact409: true });
  const line = `CreateNote(${shown.join(', ')})`;
  if (status !== '200') return { line, observed: { status, ...(dup ? await thenRead(side, dup) : {}) } };
  const observed: Observation = { status, ...noteView(x, sym, { version: undefined, updatedKnown: true, stamps }) };
  const b = bodyOf(x);
  if (!dup && typeof b?.id === 'string') {
    const version = versionIn(x);
    const n = noteCreated(
      state.world,
      {
        id: b.id,
        owner: 'primary',
        content,
        ...(typeof b.title === 'string' ? { title: b.title } : {}),
        ...(version === undefined ? {} : { version }),
        ...instant('createdAt', b.created_at),
        ...instant('updatedAt', b.updated_at),
        suppliedCreated: 'created_at' in body,
        suppliedUpdated: 'updated_at' in body,
        // "ids not mapping to accessible collections are ignored": a deleted one links nothing.
        links: into && !into.c.deleted ? [into.c.id] : [],
        named: into ? [into.c.id] : [],
      },
      x,
    );
    state.notes.push(n.id);
    for (const label of stamps) state.stampsOf(n.id).add(label);
    state.setWindowed(n.id, op.stamps === 'updated' || op.stamps === 'both');
  }
  return { line: `${line} -> ${observed.id}`, observed };
}

export async function updateNote(side: Side, op: Of<'updateNote'>): Promise<Step | undefined> {
  // A stale version needs an earlier update; a current one is sent to a note that exists (trashed ones included).
  const picked =
    side.state.note(
      op.note,
      op.version === 'stale'
        ? (n) => staleVersions(n, 'update').length > 0
        : op.version === 'current'
          ? (n) => !n.deleted
          : undefined,
    ) ?? side.state.note(op.note);
  if (!picked) return undefined;
  const n = picked.n;
  const current = n.version?.value ?? n.unsettledVersion ?? 1;
  const stale = staleVersions(n, 'update');
  // Without an older version yet, a stale update is sent as a current one: it makes the version a later one can send.
  const kind = op.version === 'stale' && stale.length === 0 ? 'current' : op.version;
  const version = kind === 'current' ? current : kind === 'stale' ? stale[stale.length - 1]! : current + op.ahead;
  const content = `Updated ${op.word}\n${side.marker}`;
  const body: Record<string, unknown> = { content, version };
  const shown = [
    side.noteName(picked.i),
    `version ${kind === 'ahead' ? `current+${op.ahead}` : kind}`,
    side.sym.content(content),
  ];
  const stamps = side.state.stampsOf(n.id);
  const stamped = op.stamp && side.state.isWindowed(n.id);
  if (stamped) {
    const ms = side.state.nextStamp();
    body.updated_at = stampText(ms, false);
    stamps.add(side.sym.stamp(ms));
    shown.push(`updated_at ${side.sym.stamp(ms)}`);
  }
  const x = await side.api.updateNote(n.id, body);
  const status = statusOf(x);
  const line = `UpdateNote(${shown.join(', ')})`;
  if (status !== '200') return { line, observed: { status } };
  // The answered version must differ from the one sent (the current one).
  const observed = { status, ...noteView(x, side.sym, { version, updatedKnown: true, stamps }) };
  const b = bodyOf(x);
  const next = versionIn(x);
  noteUpdated(
    n,
    {
      content,
      ...(typeof b?.title === 'string' ? { title: b.title } : {}),
      // An answer without a version leaves the one sent as the last seen.
      version: next ?? version,
      ...instant('updatedAt', b?.updated_at),
      suppliedUpdated: stamped,
    },
    x,
  );
  side.state.setWindowed(n.id, stamped);
  return { line, observed };
}

export async function setCreatedAt(side: Side, op: Of<'setCreatedAt'>): Promise<Step | undefined> {
  // After a supplied created_at, "originally created" may mean either instant: only 'later' is ambiguous.
  const picked = side.state.note(op.note, (n) => backdatable(n, op.when));
  if (!picked) return undefined;
  const n = picked.n;
  const clock = { now: Date.now(), toleranceMs: side.clockToleranceMs, precisionMs: side.precisionMs };
  const { value, when } = backdateInstant(n, op, clock);
  const what = {
    earlier: `${op.days} days before the original`,
    between: 'between the current and the original',
    equal: 'the original',
    later: 'one precision step after the original',
    future: 'in the future',
  }[when];
  // The original creation is the server's own instant, not one the sequence supplied: it gets no
  // label (a label would name a server time of the same precision step, an update's say, on one side only).
  const label = when === 'equal' ? undefined : side.sym.stamp(value);
  const line = `SetCreatedAt(${side.noteName(picked.i)}, ${label ? `${label} ` : ''}[${what}])`;
  const x = await side.api.setCreatedAt(n.id, { created_at: new Date(value).toISOString() });
  const status = statusOf(x);
  if (status !== '200') return { line, observed: { status } };
  if (label) side.state.stampsOf(n.id).add(label);
  // Metadata only: the version stays (notes.set-created-at.version-unchanged); whether updated_at moves is not shown.
  createdAtSet(n, value, x);
  const observed = { status, ...noteView(x, side.sym, expectation(side, n)) };
  return { line, observed };
}

/** Trash and restore: endpoints whose answers are not shown, so only success or refusal counts. */
async function trashOrRestore(side: Side, index: number, trash: boolean): Promise<Step | undefined> {
  // Trashing a trashed note or restoring an active one is not documented.
  const picked = side.state.note(index, (n) => n.deleted !== undefined || trashDetermined(n, trash));
  if (!picked) return undefined;
  const line = `${trash ? 'TrashNote' : 'RestoreNote'}(${side.noteName(picked.i)})`;
  const x = trash ? await side.api.trashNote(picked.n.id) : await side.api.restoreNote(picked.n.id);
  const status = statusOf(x, { anySuccess: true });
  // Whether trash or restore moves the version is not shown: the read after it only learns it.
  if (status === '2xx') noteTrashed(side.state.world, picked.n, trash, x);
  return { line, observed: { status, ...(await thenRead(side, picked.n)) } };
}

export const trashNote = (side: Side, index: number) => trashOrRestore(side, index, true);
export const restoreNote = (side: Side, index: number) => trashOrRestore(side, index, false);

export async function deleteNote(side: Side, index: number): Promise<Step | undefined> {
  const picked = side.state.note(index);
  if (!picked) return undefined;
  const line = `DeleteNote(${side.noteName(picked.i)})`;
  const x = await side.api.deleteNote(picked.n.id);
  const status = statusOf(x);
  if (status !== '200') return { line, observed: { status } };
  noteDeleted(side.state.world, picked.n, x);
  return { line, observed: { status, ...ackView(x) } };
}

/** GET of a note the sequence made, normalised; it also learns the version the side reports. */
export async function observeNote(side: Side, n: KnownNote): Promise<Observation> {
  const x = await side.api.getNote(n.id);
  const status = statusOf(x);
  if (status !== '200') return { status };
  const observed = { status, ...noteView(x, side.sym, expectation(side, n)) };
  learnVersion(n, bodyOf(x)?.version, x);
  return observed;
}

/** The read after a change, so that the step shows its effect (or that a refusal changed nothing). */
export async function thenRead(side: Side, n: KnownNote): Promise<Observation> {
  return n.deleted ? {} : { then_read: await observeNote(side, n) };
}

export async function readNote(side: Side, index: number): Promise<Step | undefined> {
  const picked = side.state.note(index);
  if (!picked) return undefined;
  return { line: `ReadNote(${side.noteName(picked.i)})`, observed: await observeNote(side, picked.n) };
}
