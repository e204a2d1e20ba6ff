import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createCollection,
  deleteCollection,
  trashCollection,
  updateCollection,
} from '../../fake/service/collections.js';
import { listCollections, searchCollections } from '../../fake/service/collections-query.js';
import { createUser } from '../../fake/service/fixtures.js';
import { canSeeCollection } from '../../fake/service/permissions.js';
import type { CollectionRecord, UserRecord } from '../../fake/store/records.js';
import { harness, iso } from './helpers.js';

/**
 * Collection list and search walk the caller's own collections and those granted to them (the
 * store's per-owner orders), not every user's: they must still answer what a filter over every
 * collection gives, after random creates, updates, trashes, deletes and grants by three users.
 */
const op = fc.record({
  kind: fc.constantFrom('create', 'create', 'update', 'trash', 'delete', 'grant', 'tick'),
  user: fc.nat(2),
  other: fc.nat(2),
  pick: fc.nat(),
  back: fc.nat(5_000),
});

describe('collections walked per owner', () => {
  it('list pages and search answer as a filter over every collection would', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const { ctx, clock, alice, bob } = harness();
        createUser(ctx, { token: 'carol-token' });
        const users: UserRecord[] = [alice, bob, ctx.store.usersByToken.get('carol-token')!];
        const owned = (u: UserRecord) => [...ctx.store.collections.values()].filter((c) => c.ownerId === u.id);
        let n = 0;
        for (const o of ops) {
          const user = users[o.user]!;
          const mine = owned(user).filter((c) => c.trashedAt === null);
          const target = mine.length > 0 ? mine[o.pick % mine.length] : undefined;
          if (o.kind === 'create') {
            const created_at = iso(clock.now() - o.back);
            createCollection(ctx, user, { title: `t${n++}`, description: `shared w${o.pick % 5}`, created_at });
          } else if (o.kind === 'tick') clock.advance(1 + (o.back % 3));
          else if (target && o.kind === 'update') updateCollection(ctx, user, target.id, { description: `w${o.back}` });
          else if (target && o.kind === 'trash') trashCollection(ctx, user, target.id);
          else if (target && o.kind === 'delete') deleteCollection(ctx, user, target.id);
          else if (target && o.kind === 'grant' && o.other !== o.user)
            ctx.store.grant(target.id, users[o.other]!.id, 'access');
        }
        for (const user of users) {
          const visible = [...ctx.store.collections.values()].filter((c) => canSeeCollection(ctx, user, c));
          for (const orderBy of ['created_at', 'updated_at'] as const) {
            const key = (c: CollectionRecord) => (orderBy === 'created_at' ? c.createdAt : c.updatedAt);
            const order = (a: CollectionRecord, b: CollectionRecord) =>
              key(a) - key(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
            const sorted = [...visible].sort(order);
            if (ctx.settings.newestFirst) sorted.reverse();
            const seen: string[] = [];
            let cursor: string | undefined;
            do {
              const page = listCollections(ctx, user, { order_by: orderBy, limit: '3', cursor }) as {
                results: Array<{ id: string }>;
                total: number;
                next_page: string | null;
              };
              expect(page.total).toBe(visible.length);
              seen.push(...page.results.map((r) => r.id));
              cursor = page.next_page ?? undefined;
            } while (cursor !== undefined);
            expect(seen).toEqual(sorted.map((c) => c.id));
          }
          const recent = [...visible].sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1));
          const all = searchCollections(ctx, user, {}) as { results: Array<{ id: string }> };
          expect(all.results.map((r) => r.id)).toEqual(recent.slice(0, 50).map((c) => c.id));
          const found = searchCollections(ctx, user, { query: 'shared w1' }) as { results: Array<{ id: string }> };
          const holding = visible.filter((c) => /shared|w1\b/.test(`${c.title} ${c.description}`));
          expect(new Set(found.results.map((r) => r.id))).toEqual(new Set(holding.map((c) => c.id)));
        }
      }),
      { numRuns: 150, seed: 19 },
    );
  });
});
