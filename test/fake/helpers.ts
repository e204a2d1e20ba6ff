import { expect } from 'vitest';
import { ManualClock } from '../../fake/clock.js';
import { type FakeOptions, resolveConfig } from '../../fake/config.js';
import type { FakeCore } from '../../fake/http/core.js';
import type { FakeResponse } from '../../fake/http/types.js';
import { createCore } from '../../fake/instance.js';
import type { ServiceContext } from '../../fake/service/context.js';
import { DomainError, type DomainErrorKind } from '../../fake/service/errors.js';
import { createUser } from '../../fake/service/fixtures.js';
import type { UserRecord } from '../../fake/store/records.js';

export const T0 = Date.parse('2026-06-01T12:00:00.000Z');
export const iso = (ms: number) => new Date(ms).toISOString();

export interface Harness {
  ctx: ServiceContext;
  core: FakeCore;
  clock: ManualClock;
  alice: UserRecord;
  bob: UserRecord;
  /** An HTTP-shaped call through the transport-free core, as alice unless a token is given. */
  call(method: string, url: string, body?: unknown, token?: string): FakeResponse;
}

/** A deterministic fake (seeded ids, manual clock) with two users, for service-level tests. */
export function harness(options: FakeOptions = {}): Harness {
  const clock = new ManualClock(T0);
  const core = createCore(resolveConfig({ seed: 7, clock, ...options }));
  const ctx = core.ctx;
  const user = (token: string) => {
    createUser(ctx, { token });
    return ctx.store.usersByToken.get(token)!;
  };
  const alice = user('alice-token');
  const bob = user('bob-token-0');
  return {
    ctx,
    core,
    clock,
    alice,
    bob,
    call(method, url, body, token = 'alice-token') {
      return core.handle({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
    },
  };
}

/** Runs fn, expecting a DomainError of the given kind; returns its message. */
export function refused(kind: DomainErrorKind, fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind, (error as Error).message).toBe(kind);
    return (error as Error).message;
  }
  throw new Error(`expected a ${kind} refusal`);
}
