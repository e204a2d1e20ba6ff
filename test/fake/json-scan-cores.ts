import { ManualClock } from '../../fake/clock.js';
import { resolveConfig } from '../../fake/config.js';
import { FakeCore } from '../../fake/http/core.js';
import { parseJsonBody } from '../../fake/http/parse.js';
import type { FakeResponse } from '../../fake/http/types.js';
import { createUser } from '../../fake/service/fixtures.js';
import { T0 } from './helpers.js';

/** The fake's answers with the body scan (json-scan.ts) and with JSON.parse as before, to compare. */

/** A core with this branch's parsing, and one with JSON.parse as before (the reference otherwise). */
export function cores(profile: string) {
  const make = (old: boolean) => {
    const core = new FakeCore(
      resolveConfig({ seed: 7, clock: new ManualClock(T0), profile }),
      old ? [() => ({ http: { parseBody: () => parseJsonBody } })] : [],
    );
    createUser(core.ctx, { token: 'alice-token' });
    return core;
  };
  return { now: make(false), before: make(true) };
}

export function answer(core: FakeCore, method: string, url: string, body: string): Omit<FakeResponse, 'json'> {
  const { status, headers, text } = core.handle({
    method,
    url,
    headers: { authorization: 'Bearer alice-token', 'content-type': 'application/json' },
    body,
  });
  const kept = Object.fromEntries(Object.entries(headers).filter(([k]) => !/request-id|date/i.test(k)));
  return { status, headers: kept, text };
}

/** A note create body of about `chars` characters: content, then fields named `name(i)` holding 1. */
export function fields(chars: number, name: (i: number) => string): string {
  const parts = ['{"content":"x"'];
  for (let i = 0, size = 15; size < chars; i++) {
    parts.push(`,"${name(i)}":1`);
    size += parts[parts.length - 1]!.length;
  }
  return `${parts.join('')}}`;
}
