import { expect } from 'vitest';
import type { Exchange } from '../../kit/core/client.js';
import { sameAtPrecision } from '../../kit/core/timing.js';
import { instantOf } from '../../spec/patterns.js';
import type { RefusalKind } from '../../spec/profile.js';
import type { OkBody } from './bodies.js';
import { KitError, NonConformance, setupFailed } from './errors.js';

/** A one-line description of an exchange for assertion messages. */
export function show(x: Exchange): string {
  const body = x.text.length > 300 ? `${x.text.slice(0, 300)}…` : x.text;
  return `${x.method} ${x.path} answered ${x.status} ${body}`;
}

export function setupOk<Op extends string>(x: Exchange<Op>, step: string): OkBody<Op> {
  if (x.status < 200 || x.status > 299 || x.json === null || typeof x.json !== 'object')
    throw setupFailed(step, x.status, x.json ?? x.text);
  return x.json as OkBody<Op>;
}

/** A refusal: the document says the request is refused, and (almost always) not with which status. */
export function expectRefused(x: Exchange, what: string): void {
  expect(x.status >= 400 && x.status < 500, `${what} should be refused with a 4xx: ${show(x)}`).toBe(true);
}

/** For profile rules: the status the profile declares for this kind of refusal. */
export function expectDeclaredStatus(x: Exchange, kind: RefusalKind, declared: number, what: string): void {
  expect(x.status, `${what}: the profile declares ${declared} for ${kind}: ${show(x)}`).toBe(declared);
}

/** Milliseconds of a response timestamp; compare instants, never strings. */
export function instant(value: unknown, what: string): number {
  // The value came from the target: a missing or malformed timestamp is its failure, not the kit's.
  if (typeof value !== 'string')
    throw new NonConformance(`${what} is not a timestamp string (${JSON.stringify(value)})`);
  const ms = instantOf(value);
  if (ms === undefined) throw new NonConformance(`${what} is not an ISO 8601 timestamp with an offset (${value})`);
  return ms;
}

/** A response timestamp the check builds on (not the one it judges): a bad one means it cannot judge. */
export function setupInstant(value: unknown, what: string): number {
  try {
    return instant(value, what);
  } catch (error) {
    throw new KitError(`setup: ${(error as Error).message}`);
  }
}

/**
 * The target answered the instant it was sent, as a store of `precisionMs` keeps it (the check's
 * t.precisionMs: the instant itself, or cut to that step; see timing.ts sameAtPrecision).
 */
export function expectSameInstant(actual: unknown, expected: string | number, what: string, precisionMs = 1): void {
  const want = typeof expected === 'number' ? expected : Date.parse(expected);
  const got = typeof actual === 'string' ? Date.parse(actual) : typeof actual === 'number' ? actual : NaN;
  const kept = precisionMs > 1 ? ` (kept to ${precisionMs} ms)` : '';
  const message = `${what}: expected the instant ${new Date(want).toISOString()}${kept}, got ${JSON.stringify(actual)}`;
  if (precisionMs > 1 && sameAtPrecision(got, want, precisionMs)) return;
  expect(got, message).toBe(want);
}
