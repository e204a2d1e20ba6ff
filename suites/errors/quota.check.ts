import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Api } from '../../kit/core/api.js';
import { NOT_IN_SMOKE } from '../harness/check.js';
import { type CheckContext, checks, expectDeclaredStatus, expectRefused, setupOk, show } from '../harness/index.js';

const { check } = checks();

check(
  'over quota, a note create is refused with the documented quota_exceeded body; set-created-at costs nothing',
  {
    rules: ['quota.create.exceeded-body', 'quota.create.exceeded-status', 'quota.set-created-at.neutral'],
    needs: ['fixtures:users', 'fixtures:quota'],
    smoke: true,
  },
  async (t) => {
    // The smoke tier spends a quota of one at once (the body's shape); set-created-at's cost is the full tier's.
    const smoke = t.ctx.tier === 'smoke';
    const { api } = await t.fixtureUser({ quota: { limit: smoke ? 1 : 2 } });
    const first = setupOk(await api.createNote({ content: t.data.content('Quota 1') }), 'create the first note');
    if (smoke) t.skipRule('quota.set-created-at.neutral', NOT_IN_SMOKE);
    else await expectSetCreatedAtNeutral(t, api, first);
    // A fresh id, so the kit can ask afterwards whether the refused create stored a note anyway.
    const overId = randomUUID();
    const over = await api.createNote({ id: overId, content: t.data.content('Quota 3') });
    await t.verify('quota.create.exceeded-body', async () => {
      expectRefused(over, 'a create over the quota');
      expect(t.schemaProblems(over, 'QuotaExceededError'), `the quota_exceeded body: ${show(over)}`).toEqual([]);
      const read = await api.getNote(overId);
      expect(
        read.status,
        `the create was refused over quota but the note ${overId} exists afterwards: ${show(read)}`,
      ).not.toBe(200);
    });
    const declared = t.profile.statuses?.quota_exceeded;
    if (declared !== undefined)
      await t.verify('quota.create.exceeded-status', () =>
        expectDeclaredStatus(over, 'quota_exceeded', declared, 'a create over the quota'),
      );
    else t.skipRule('quota.create.exceeded-status', 'the profile declares no status for quota_exceeded');
  },
);

check(
  'a quota that ran out during the run was refused with the documented quota_exceeded body, and stored nothing',
  {
    rules: ['quota.create.exceeded-body', 'quota.create.exceeded-status'],
    // The catalogue asks for the fixture API to make a user with a small quota; a quota that ran out on its own does as well.
    doesWithout: ['capabilities.fixtures'],
  },
  async (t) => {
    // Judged from the run's own refusal (kit/core/quota.ts keeps the first one, with a refused
    // create of a fresh id and a read of that id), without the fixture API. This file runs last.
    const natural = t.kit.guard.naturalRefusal;
    if (!natural)
      return t.skip(
        "the account's quota did not run out during this run (the fixture API judges these rules on a user with a small quota)",
      );
    const { refusal, refusedId, readAfter } = natural;
    await t.verify('quota.create.exceeded-body', () => {
      expectRefused(refusal, 'a create once the quota is spent');
      expect(t.schemaProblems(refusal, 'QuotaExceededError'), `the quota_exceeded body: ${show(refusal)}`).toEqual([]);
      expect(
        readAfter.status,
        `the create was refused over quota but the note ${refusedId} exists afterwards: ${show(readAfter)}`,
      ).not.toBe(200);
    });
    const declared = t.profile.statuses?.quota_exceeded;
    if (declared !== undefined)
      await t.verify('quota.create.exceeded-status', () =>
        expectDeclaredStatus(refusal, 'quota_exceeded', declared, 'a create once the quota is spent'),
      );
    else t.skipRule('quota.create.exceeded-status', 'the profile declares no status for quota_exceeded');
  },
);

/** Three set-created-at calls on the first note of a quota of 2 leave the second create possible. */
async function expectSetCreatedAtNeutral(
  t: CheckContext,
  api: Api,
  first: { id: string; created_at: string },
): Promise<void> {
  for (let i = 1; i <= 3; i++) {
    setupOk(
      await api.setCreatedAt(first.id, {
        created_at: new Date(Date.parse(first.created_at) - i * 86_400_000).toISOString(),
      }),
      'set created_at',
    );
  }
  const second = await api.createNote({ content: t.data.content('Quota 2') });
  await t.verify('quota.set-created-at.neutral', () => {
    expect(
      second.status,
      `setting created_at three times must not use up the last note of a quota of 2: ${show(second)}`,
    ).toBe(200);
  });
}
