import type { ServiceContext } from './context.js';
import { invalid } from './errors.js';
import type { TimestampField } from './policy.js';
import { type Input, parseTimestamp } from './validate.js';

const LOCAL = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)(?:Z|[+-]\d{2}:\d{2})?$/;
const HAS_OFFSET = /(Z|[+-]\d{2}:\d{2})$/;

/**
 * A request timestamp field: absent, or an instant judged by the policy of `rule` (an offset is
 * required and the instant must not be in the future, wherever the document says so).
 */
export function timestampField(
  ctx: ServiceContext,
  input: Input,
  field: string,
  rule: TimestampField,
  options: { nullable?: boolean } = {},
): number | undefined {
  const value = input[field];
  if (value === undefined || (value === null && options.nullable)) return undefined;
  const policy = ctx.policy.timestamps[rule];
  let text = value;
  if (typeof value === 'string') {
    const wallClock = LOCAL.exec(value);
    // Seam: a server that reads the wall-clock part and drops the offset.
    if (wallClock && ctx.broken('conventions.timestamps.offset-ignored')) text = `${wallClock[1]}Z`;
    else if (wallClock && !policy.offsetRequired && !HAS_OFFSET.test(value)) text = `${value}Z`;
  }
  const ms = parseTimestamp(text, field);
  if (policy.notFuture) {
    const now = ctx.clock.now();
    // Seam: a server that compares timestamp strings, not instants.
    const future =
      ctx.broken('conventions.timestamps.compared-as-strings') && typeof value === 'string'
        ? value > new Date(now).toISOString()
        : ms > now;
    if (future) throw invalid(`${field} must not be in the future`);
  }
  return ms;
}
