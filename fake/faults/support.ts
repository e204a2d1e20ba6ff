import type { OperationId } from '../../spec/operations.js';
import type { Call } from '../http/routes.js';
import type { ServiceContext } from '../service/context.js';
import { DomainError } from '../service/errors.js';
import type { Input } from '../service/validate.js';
import type { View } from '../service/views.js';
import type { NoteRecord } from '../store/records.js';
import type { FaultFactory, Operation, OperationWrapper } from './hooks.js';

/** The call's body as fields (empty when it is not an object: the operation refuses it itself). */
export function fields(call: Call): Input {
  const body = call.body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Input) : {};
}

/**
 * The same call with some body fields replaced (undefined removes a field). A body that is not an
 * object stays as it is, so the reference still refuses it.
 */
export function withFields(call: Call, patch: Record<string, unknown>): Call {
  const raw = call.body;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return call;
  const body: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete body[key];
    else body[key] = value;
  }
  return { ...call, body };
}

/** The same call with some query parameters replaced (canonical names). */
export function withQuery(call: Call, patch: Record<string, unknown>): Call {
  return { ...call, query: { ...call.query, ...patch } };
}

/** The note a path names, if it exists (faults look before or after the reference runs). */
export function pathNote(ctx: ServiceContext, call: Call): NoteRecord | undefined {
  const id = call.params.note_id;
  return id === undefined ? undefined : ctx.store.notes.get(id);
}

/** The note a create answered with. */
export function createdNote(ctx: ServiceContext, view: View): NoteRecord {
  return ctx.store.notes.get(view.id as string)!;
}

/** Runs the operation as if a field of a record had another value, then puts the value back. */
export function pretending<T extends object, K extends keyof T>(
  record: T | undefined,
  key: K,
  value: T[K],
  run: () => View,
): View {
  if (!record) return run();
  const saved = record[key];
  record[key] = value;
  try {
    return run();
  } finally {
    // Only undo what the pretence set: the operation may have changed the field for real.
    if (record[key] === value) record[key] = saved;
  }
}

/** A fault that wraps one operation. */
export const around =
  (op: OperationId, wrap: OperationWrapper): FaultFactory =>
  () => ({ ops: { [op]: wrap } });

/** A fault that rewrites one operation's input before the reference sees it. */
export const before = (op: OperationId, rewrite: (ctx: ServiceContext, call: Call) => Call): FaultFactory =>
  around(op, (next) => (ctx, call) => next(ctx, rewrite(ctx, call)));

/** A fault that changes the state and the answer after the reference ran (view rebuilt by the fault). */
export const after = (op: OperationId, change: (ctx: ServiceContext, call: Call, view: View) => View): FaultFactory =>
  around(op, (next) => (ctx, call) => change(ctx, call, next(ctx, call)));

export type { Operation };

/** One fault made of hooks of different kinds (an operation wrapper and a route change, say). */
export const combined =
  (...factories: FaultFactory[]): FaultFactory =>
  () =>
    Object.assign({}, ...factories.map((create) => create()));

/**
 * A create refused for a bad `field` (a validation error while `when` holds for its value) that
 * stores the resource anyway, without that field: the refusal is right and "creates nothing" is
 * broken, which only a look afterwards can see.
 */
export const storedDespiteRefusal =
  (
    op: 'createNote' | 'createCollection',
    field: string,
    when: (value: unknown, ctx: ServiceContext) => boolean,
  ): FaultFactory =>
  () => ({
    ops: {
      [op]:
        (next: Operation): Operation =>
        (ctx, call) => {
          try {
            return next(ctx, call);
          } catch (error) {
            if (!(error instanceof DomainError) || error.kind !== 'validation' || !when(fields(call)[field], ctx))
              throw error;
            try {
              next(ctx, withFields(call, { [field]: undefined }));
            } catch {
              // refused for another reason too: nothing to store
            }
            throw error;
          }
        },
    },
  });
