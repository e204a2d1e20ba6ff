import type { FaultName } from '../faults/catalogue.js';
import type { ServiceContext } from './context.js';
import { invalid } from './errors.js';
import { type Input, parseTimestamp } from './validate.js';

export interface TimestampRules {
  /** null is allowed and means absent (collection create). */
  nullable?: boolean;
  /** Refuse instants later than now (default true). */
  notFuture?: boolean;
  /** Faults that break this field's offset-required and not-in-the-future rules. */
  offsetFault?: FaultName;
  futureFault?: FaultName;
}

const LOCAL = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)(?:Z|[+-]\d{2}:\d{2})?$/;

/** A request timestamp field: absent, or an instant with an offset that is not in the future. */
export function timestampField(ctx: ServiceContext, input: Input, field: string, rules: TimestampRules = {}): number | undefined {
  const value = input[field];
  if (value === undefined || (value === null && rules.nullable)) return undefined;
  let ms: number;
  if (typeof value === 'string' && ctx.broken('conventions.timestamps.offset-ignored')) {
    // The broken server reads the wall-clock part and ignores the offset.
    const m = LOCAL.exec(value);
    ms = m ? parseTimestamp(`${m[1]}Z`, field) : parseTimestamp(value, field);
  } else if (typeof value === 'string' && rules.offsetFault && ctx.broken(rules.offsetFault) && LOCAL.test(value) && !/(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    ms = parseTimestamp(`${value}Z`, field);
  } else {
    ms = parseTimestamp(value, field);
  }
  if (rules.notFuture !== false && !(rules.futureFault && ctx.broken(rules.futureFault))) {
    const now = ctx.clock.now();
    const future = ctx.broken('conventions.timestamps.compared-as-strings') && typeof value === 'string'
      ? value > new Date(now).toISOString()
      : ms > now;
    if (future) throw invalid(`${field} must not be in the future`);
  }
  return ms;
}
