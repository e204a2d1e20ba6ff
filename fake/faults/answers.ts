import type { OperationId } from '../../spec/operations.js';
import type { View } from '../service/views.js';
import type { Exchange, FaultFactory, Reply, ResponseWrapper } from './hooks.js';

/**
 * A fault that changes the answers of some operations (operation ids; '*' for every one) after
 * the reference made them and before they are serialised.
 */
export const answers =
  (
    ops: readonly (OperationId | '*')[],
    change: (reply: Reply, exchange: Exchange) => Reply | undefined,
  ): FaultFactory =>
  () => {
    const wrap: ResponseWrapper = (next) => (reply, exchange) => {
      const out = next(reply, exchange);
      return change(out, exchange) ?? out;
    };
    return { responses: Object.fromEntries(ops.map((op) => [op, wrap])) };
  };

/** The same, for successes only, editing the JSON body in place. */
export const successBodies = (
  ops: readonly (OperationId | '*')[],
  edit: (body: View, exchange: Exchange) => void,
): FaultFactory =>
  answers(ops, (reply, exchange) => {
    if (reply.refusal === undefined && isObject(reply.body)) edit(reply.body, exchange);
    return undefined;
  });

/** A success answered with another status. */
export const successStatus = (ops: readonly OperationId[], status: number): FaultFactory =>
  answers(ops, (reply) => (reply.refusal === undefined ? { ...reply, status } : undefined));

/** A success answered {} without request_id. */
export const emptySuccess = (op: OperationId): FaultFactory =>
  answers([op], (reply) => (reply.refusal === undefined ? { ...reply, body: {} } : undefined));

/** Some headers of every answer removed or renamed (lower-case names; undefined removes). */
export const headersChanged = (renames: Readonly<Record<string, string | undefined>>): FaultFactory =>
  answers(['*'], (reply) => {
    for (const [name, to] of Object.entries(renames)) {
      const value = reply.headers[name];
      if (value === undefined) continue;
      delete reply.headers[name];
      if (to !== undefined) reply.headers[to] = value;
    }
    return undefined;
  });

export const drop = (field: string) => (view: View) => {
  delete view[field];
};
export const eachItem = (fn: (item: View) => void) => (view: View) => {
  for (const item of view.results as View[]) fn(item);
};

function isObject(value: unknown): value is View {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
