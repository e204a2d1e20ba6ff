import { ManualClock } from '../../fake/clock.js';
import { type FakeOptions, resolveConfig } from '../../fake/config.js';
import type { FakeCore } from '../../fake/http/core.js';
import { createCore } from '../../fake/instance.js';
import { createUser } from '../../fake/service/fixtures.js';
import type { RuleId } from '../../spec/rule-ids.js';

export const T0 = Date.parse('2026-06-01T12:00:00.000Z');
export const iso = (ms: number) => new Date(ms).toISOString();
export const MISSING = '11111111-2222-4333-8444-555555555555';

/** A JSON object as the fake answered it; scenarios read the fields they expect and cast them. */
type Json = Record<string, unknown>;

/**
 * A deterministic fake that records everything a scenario observes, so a clean run and a
 * faulted run of the same scenario can be compared step by step.
 */
export class Session {
  readonly observed: unknown[] = [];
  readonly core: FakeCore;
  readonly clock = new ManualClock(T0);

  constructor(options: FakeOptions) {
    this.core = createCore(resolveConfig({ seed: 11, clock: this.clock, ...options }));
    createUser(this.core.ctx, { token: 'alice-token' });
    createUser(this.core.ctx, { token: 'bob-token-0' });
  }

  call(method: string, url: string, body?: unknown, token = 'alice-token', raw = false): Json {
    const r = this.core.handle({
      method,
      url,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: raw ? String(body) : JSON.stringify(body) }),
    });
    const headers = Object.fromEntries(Object.entries(r.headers).filter(([k]) => k !== 'date'));
    this.observed.push({ step: `${method} ${url}`, status: r.status, headers, text: r.text });
    return (r.json ?? {}) as Json;
  }

  as(token: string) {
    return {
      call: (method: string, url: string, body?: unknown) => this.call(method, url, body, token),
    };
  }

  admin(method: string, path: string, body?: unknown): Json {
    return this.call(method, `/_fixtures${path}`, body, this.core.config.adminToken);
  }

  user(extra: object = {}): string {
    return this.admin('POST', '/users', extra).token as string;
  }

  userId(token: string): string {
    return this.core.ctx.store.usersByToken.get(token)?.id ?? MISSING;
  }

  note(content: string, extra: object = {}, token?: string): string {
    return this.call('POST', '/v2/notes', { content, ...extra }, token).id as string;
  }

  coll(title: string, extra: object = {}, token?: string): string {
    return this.call('POST', '/v2/collections', { title, ...extra }, token).id as string;
  }

  later(ms = 1000): void {
    this.clock.advance(ms);
  }

  record(value: unknown): void {
    this.observed.push(value);
  }
}

export interface Scenario {
  name: string;
  /** The rules this scenario exercises. */
  rules: readonly RuleId[];
  options?: FakeOptions;
  run(s: Session): void;
}
