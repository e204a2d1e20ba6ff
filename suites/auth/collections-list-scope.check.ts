import { expect } from 'vitest';
import { checks, KitError, setupOk, show } from '../harness/index.js';

const { check } = checks();

check(
  "another user's collection list does not show the caller's unshared collection",
  {
    rules: ['auth.scope.collections-isolated'],
    needs: [
      'secondary',
      'profile:names.collections_list.created_after',
      'profile:names.collections_list.created_before',
    ],
  },
  async (t) => {
    const other = t.secondary();
    // A window of time only this collection uses, so the lists are short on a shared account.
    const w = t.data.window();
    const coll = await t.data.collection(`Private ${t.data.word()}`, { created_at: w.at(0) });
    const bounds = { created_after: w.at(-1_000), created_before: w.at(1_000) };
    const mine = setupOk(await t.api.listCollections(bounds), 'list collections as the owner');
    const ids = (x: Record<string, unknown>) =>
      ((x.results as Array<{ id: string }> | undefined) ?? []).map((r) => r.id);
    if (!ids(mine).includes(coll.id))
      throw new KitError(
        "the owner's collection list bounded to the collection's creation time did not return it (see the collections.list bounds rules)",
      );
    const theirs = await other.listCollections(bounds);
    await t.verify('auth.scope.collections-isolated', () => {
      const listed = setupOk(theirs, 'list collections as the other user');
      expect(ids(listed), `another user's collection list shows no private collection: ${show(theirs)}`).not.toContain(
        coll.id,
      );
    });
  },
);
