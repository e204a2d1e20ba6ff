import { checks } from '../harness/index.js';

const { check } = checks();

/** The second user lists the window of the first user's private collection: the oracle judges that it is not there. */
check(
  "another user's collection list does not show the caller's unshared collection",
  {
    oracle: ['auth.scope.collections-isolated'],
    needs: [
      'secondary',
      'profile:names.collections_list.created_after',
      'profile:names.collections_list.created_before',
    ],
  },
  async (t) => {
    // A window of time only this collection uses, so the lists are short on a shared account.
    const w = t.data.window();
    await t.data.collection(`Private ${t.data.word()}`, { created_at: w.at(0) });
    const bounds = { created_after: w.at(-1_000), created_before: w.at(1_000) };
    await t.api.listCollections(bounds);
    await t.secondary().listCollections(bounds);
  },
);
