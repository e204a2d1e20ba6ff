import { KitError } from '../../spec/verdicts.js';
import type { TargetClient } from './client.js';
import type { ExchangeObserver } from './observer.js';
import { tracked } from './signals.js';

export interface FixtureUser {
  user_id: string;
  token: string;
}

export type GrantLevel = 'access' | 'contribute' | 'edit' | 'own';

/**
 * The kit's fixture protocol (what the reference fake serves under /_fixtures): users with
 * tokens, grants at a permission level, quotas, attachments and rate limits. A target offers
 * it by declaring capabilities.fixtures in its profile; checks that need it skip otherwise.
 */
export class FixturesClient {
  constructor(
    private readonly client: TargetClient,
    private readonly prefix: string,
    private readonly adminToken: string,
    /** Told when a fixture call changes a resource in a way the document does not describe (the oracle). */
    private readonly observer?: Pick<ExchangeObserver, 'touchedByFixture' | 'granted' | 'quotaSet' | 'attachmentAdded'>,
  ) {}

  private async call(method: string, path: string, json?: unknown): Promise<Record<string, unknown>> {
    const exchange = await tracked(() =>
      this.client.send({
        method,
        path: `${this.prefix}${path}`,
        json,
        token: null,
        authorization: `Bearer ${this.adminToken}`,
      }),
    );
    if (exchange.status !== 200)
      throw new KitError(`fixture API ${method} ${path} answered ${exchange.status}: ${exchange.text.slice(0, 200)}`);
    return (exchange.json ?? {}) as Record<string, unknown>;
  }

  async createUser(
    options: { quota?: { limit: number }; rate_limit?: Record<string, number> } = {},
  ): Promise<FixtureUser> {
    const user = await this.call('POST', '/users', options);
    if (typeof user.user_id !== 'string' || typeof user.token !== 'string')
      throw new KitError('fixture API: POST /users returned no user_id and token');
    this.client.addSecret(user.token);
    if (options.quota) this.observer?.quotaSet(user.user_id, options.quota.limit);
    return { user_id: user.user_id, token: user.token };
  }

  async deleteUser(userId: string): Promise<void> {
    this.observer?.touchedByFixture('user', userId);
    await this.call('DELETE', `/users/${userId}`);
  }

  async grant(resource: 'note' | 'collection', id: string, userId: string, level: GrantLevel): Promise<void> {
    await this.call('POST', '/grants', { resource, id, user_id: userId, level });
    this.observer?.granted(resource, id, userId, level);
  }

  async addAttachment(noteId: string, attachment: Record<string, unknown>): Promise<Record<string, unknown>> {
    this.observer?.touchedByFixture('note', noteId);
    const added = await this.call('POST', `/notes/${noteId}/attachments`, attachment);
    if (typeof added.attachment_id === 'string') this.observer?.attachmentAdded(noteId, added.attachment_id);
    return added;
  }

  async addAudioRecording(noteId: string): Promise<string> {
    this.observer?.touchedByFixture('note', noteId);
    return (await this.call('POST', `/notes/${noteId}/audio-recordings`)).audio_recording_id as string;
  }
}
