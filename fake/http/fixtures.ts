import type { FakeConfig } from '../config.js';
import type { ServiceContext } from '../service/context.js';
import { DomainError } from '../service/errors.js';
import {
  addAttachment,
  addAudioRecording,
  createUser,
  deleteUser,
  grant,
  setQuota,
  setRateLimit,
  stats,
} from '../service/fixtures.js';
import type { View } from '../service/views.js';
import type { UserRecord } from '../store/records.js';
import { parseJsonBody } from './parse.js';
import { type RouteMatch, Router } from './router.js';

export interface FixtureRoute {
  method: string;
  path: string;
  run: (params: Record<string, string>, body: unknown) => View;
}

/**
 * The fixture API under the profile's prefix (default /_fixtures), guarded by the admin token.
 * It is the fake's answer to what the document does not show: issuing tokens and sharing.
 */
export class FixtureApi {
  private readonly router: Router<FixtureRoute>;
  /** Paths relative to the prefix. */
  readonly routes: readonly FixtureRoute[];

  constructor(
    private readonly ctx: ServiceContext,
    private readonly config: FakeConfig,
    onRateLimitChange: (user: UserRecord) => void,
  ) {
    this.routes = [
      { method: 'POST', path: '/users', run: (_, body) => createUser(ctx, body) },
      { method: 'DELETE', path: '/users/{user_id}', run: (p) => deleteUser(ctx, p.user_id!) },
      { method: 'PUT', path: '/users/{user_id}/quota', run: (p, body) => setQuota(ctx, p.user_id!, body) },
      {
        method: 'PUT',
        path: '/users/{user_id}/rate-limit',
        run: (p, body) => setRateLimit(ctx, p.user_id!, body, onRateLimitChange),
      },
      { method: 'POST', path: '/grants', run: (_, body) => grant(ctx, body) },
      { method: 'POST', path: '/notes/{note_id}/attachments', run: (p, body) => addAttachment(ctx, p.note_id!, body) },
      { method: 'POST', path: '/notes/{note_id}/audio-recordings', run: (p) => addAudioRecording(ctx, p.note_id!) },
      { method: 'POST', path: '/reset', run: () => this.reset() },
      { method: 'GET', path: '/stats', run: () => stats(ctx) },
      { method: 'GET', path: '/faults', run: () => ({ active: [...config.faults].sort() }) },
    ];
    this.router = new Router(this.routes);
  }

  /** Refuses anything but the admin token (before routing: the fixture API's layout is not public). */
  authorize(authorization: string | undefined): void {
    if (authorization !== `Bearer ${this.config.adminToken}`)
      throw new DomainError('unauthenticated', 'the fixture API needs the admin token');
  }

  /** `path` is relative to the prefix. */
  match(method: string, path: string): RouteMatch<FixtureRoute> {
    return this.router.match(method, path === '' ? '/' : path);
  }

  allowedMethods(path: string): string[] {
    return this.router.allowedMethods(path === '' ? '/' : path);
  }

  run(route: FixtureRoute, params: Record<string, string>, body: Uint8Array | string | undefined): View {
    return route.run(params, parseJsonBody(body, undefined));
  }

  /** Forgets all data, then recreates the users the instance was started with. */
  reset(): View {
    this.ctx.store.clear();
    for (const user of this.config.users)
      createUser(this.ctx, {
        token: user.token,
        ...(user.name ? { name: user.name } : {}),
        ...(user.quota ? { quota: user.quota } : {}),
      });
    return { reset: true };
  }
}
