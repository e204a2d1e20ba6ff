/**
 * The document's two value patterns, once for the whole kit (test/spec/patterns.test.ts fails on a
 * second copy): "identifiers are UUID strings"; "Timestamps are ISO 8601 date-time strings. A
 * timestamp supplied in a request must carry a timezone offset (`Z` or such as `+01:00`)". A date-time
 * is the extended format (hyphens and colons), so its offset is `Z` or `+hh:mm`: `+0100` mixes the
 * basic format into an extended one, which ISO 8601 does not allow (RFC 3339 neither). Seconds and a
 * fraction of any length are optional; `T` and `Z` in either case (RFC 3339 allows lowercase).
 */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** UUIDs inside a text (a path, a message). */
export const UUID_IN_TEXT = new RegExp(UUID.source.slice(1, -1), 'gi');

/** Groups: year, month, day, hours, minutes, seconds, fraction digits, the designator. */
export const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * A date-time with no timezone designator at all (a space for the `T` too, as RFC 3339 lets
 * applications write it): what "must carry a timezone offset" refuses.
 */
export const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** A DATE_TIME read: its instant, whether its day exists in its month, and what it was written with. */
export interface DateTime {
  readonly ms: number;
  readonly realDate: boolean;
  readonly designator: string;
  /** Digits of the fraction of a second written (0 when none). */
  readonly fractionDigits: number;
}

/**
 * Reads already made: an oracle reads the same few thousand timestamps again on every view of a
 * note, and the regular expression and two date parses were a tenth of its time. Bounded.
 */
const READ = new Map<string, DateTime | undefined>();

export function readDateTime(value: unknown): DateTime | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.length > 64) return parseDateTime(value); // not a key worth keeping (a hostile answer's)
  if (READ.has(value)) return READ.get(value);
  if (READ.size >= 20_000) READ.clear();
  const read = parseDateTime(value);
  READ.set(value, read);
  return read;
}

function parseDateTime(value: string): DateTime | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, , , , fraction, designator] = m;
  const month = Number(mo);
  const days = month >= 1 && month <= 12 ? new Date(Date.UTC(Number(y), month, 0)).getUTCDate() : 0;
  const ms = Date.parse(value);
  const realDate = Number(d) >= 1 && Number(d) <= days;
  // Month 13 does not parse at all: still a date-time, of a day that does not exist.
  if (Number.isNaN(ms) && realDate) return undefined;
  return {
    ms,
    realDate,
    designator: designator!,
    fractionDigits: fraction?.length ?? 0,
  };
}

/** The instant of a date-time of a real day, or undefined for anything else (the shape rules judge that). */
export function instantOf(value: unknown): number | undefined {
  const t = readDateTime(value);
  return t?.realDate ? t.ms : undefined;
}
