import { isUuid } from '../ids.js';
import { invalid } from './errors.js';

/** A request body or query after the http layer mapped profile names to canonical ones. */
export type Input = Readonly<Record<string, unknown>>;

export function requireObject(body: unknown, what = 'request body'): Input {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid(`${what} must be a JSON object`);
  return body as Input;
}

/** Characters are Unicode code points (a surrogate pair is one character). */
export function charLength(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export interface StringLimits {
  maxChars?: number;
  maxBytes?: number;
  minChars?: number;
}

export function checkString(value: unknown, field: string, limits: StringLimits = {}): string {
  if (typeof value !== 'string') throw invalid(`${field} must be a string`, field);
  const chars = limits.maxChars !== undefined || limits.minChars !== undefined ? charLength(value) : 0;
  if (limits.minChars !== undefined && chars < limits.minChars)
    throw invalid(`${field} must have at least ${limits.minChars} character(s)`, field);
  if (limits.maxChars !== undefined && chars > limits.maxChars)
    throw invalid(`${field} must have at most ${limits.maxChars} characters (has ${chars})`, field);
  if (limits.maxBytes !== undefined) {
    const bytes = utf8Length(value);
    if (bytes > limits.maxBytes)
      throw invalid(`${field} must have at most ${limits.maxBytes} UTF-8 bytes (has ${bytes})`, field);
  }
  return value;
}

export function checkUuid(value: unknown, field: string): string {
  if (!isUuid(value)) throw invalid(`${field} must be a UUID`, field);
  return value.toLowerCase();
}

export function checkArray(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(`${field} must be an array`, field);
  return value;
}

export function checkBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw invalid(`${field} must be a boolean`, field);
  return value;
}

// RFC 3339 date-time; the offset (Z or ±hh:mm) is mandatory.
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|([+-])(\d{2}):(\d{2}))$/;
const MAX_TIMESTAMP_CHARS = 64;
const NO_OFFSET = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** Milliseconds since the epoch of an RFC 3339 timestamp with an offset; sub-millisecond digits are truncated. */
export function parseTimestamp(value: unknown, field: string): number {
  if (typeof value !== 'string') throw invalid(`${field} must be a date-time string`, field);
  // No date-time is this long (the longest form, nanoseconds and an offset, has 35 characters):
  // refused before any pattern scans megabytes of digits.
  if (value.length > MAX_TIMESTAMP_CHARS)
    throw invalid(`${field} is not a valid date-time (longer than ${MAX_TIMESTAMP_CHARS} characters)`, field);
  const m = TIMESTAMP.exec(value);
  if (!m) {
    if (NO_OFFSET.test(value)) throw invalid(`${field} must carry a timezone offset (Z or such as +01:00)`, field);
    throw invalid(`${field} must be an ISO 8601 date-time with an offset, such as 2025-04-11T04:47:14.457Z`, field);
  }
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  const millis = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  const offsetMinutes = m[9] ? (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])) : 0;
  if (
    month! < 1 ||
    month! > 12 ||
    day! < 1 ||
    day! > daysInMonth(year!, month!) ||
    hour! > 23 ||
    minute! > 59 ||
    second! > 59 ||
    (m[10] !== undefined && (Number(m[10]) > 23 || Number(m[11]) > 59))
  ) {
    throw invalid(`${field} is not a valid date-time`, field);
  }
  const ms = utcMillis(year!, month!, day!, hour!, minute!, second!, millis) - offsetMinutes * 60_000;
  // Responses render instants as RFC 3339 in UTC: an offset that moves the instant out of years
  // 0000-9999 (0000-01-01T00:00:00+01:00) would come back in an extended-year form, so it is refused.
  if (ms < FIRST_INSTANT || ms > LAST_INSTANT)
    throw invalid(`${field} is out of range (years 0000 to 9999 in UTC)`, field);
  return ms;
}

/** Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear takes every year as it is. */
function utcMillis(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millis: number,
): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime();
}

const FIRST_INSTANT = utcMillis(0, 1, 1, 0, 0, 0, 0);
const LAST_INSTANT = utcMillis(9999, 12, 31, 23, 59, 59, 999);

/** Proleptic Gregorian calendar, as RFC 3339 uses: year 0000 is a leap year, 1900 is not. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function checkNotFuture(ms: number, now: number, field: string): number {
  if (ms > now) throw invalid(`${field} must not be in the future`, field);
  return ms;
}

// ---- query parameters (strings from the http layer) ----

export function intParam(
  raw: unknown,
  field: string,
  range: { min: number; max?: number; fallback: number; truncateFractions?: boolean },
): number {
  if (raw === undefined) return range.fallback;
  // The fault limits.fractions-truncated reads "2.5" as 2, as a parseInt-based server would.
  const text =
    range.truncateFractions && typeof raw === 'string' && /^-?\d{1,16}\.\d+$/.test(raw) ? raw.split('.')[0]! : raw;
  if (typeof text !== 'string' || !/^-?\d{1,16}$/.test(text)) throw invalid(`${field} must be an integer`, field);
  const n = Number(text);
  if (n < range.min || (range.max !== undefined && n > range.max)) {
    throw invalid(
      range.max === undefined
        ? `${field} must be >= ${range.min}`
        : `${field} must be between ${range.min} and ${range.max}`,
      field,
    );
  }
  return n;
}

export function boolParam(raw: unknown, field: string): boolean {
  if (raw === undefined) return false;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw invalid(`${field} must be true or false`, field);
}

export function enumParam<T extends string>(raw: unknown, field: string, values: readonly T[], fallback: T): T {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !values.includes(raw as T))
    throw invalid(`${field} must be one of ${values.join(', ')}`, field);
  return raw as T;
}
