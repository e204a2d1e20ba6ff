import { expect } from 'vitest';
import { checks, KitError, setupOk, show } from '../harness/index.js';
import { items } from './search-helpers.js';

const { check } = checks();

const sorted = (values: unknown) => [...((values as string[] | undefined) ?? [])].sort();

check(
  "a related note's collection summaries name exactly the collections in its collection_ids",
  {
    rules: ['notes.related.collections-match'],
  },
  async (t) => {
    const words = [t.data.word(), t.data.word(), t.data.word()].join(' ');
    const [first, later] = [
      await t.data.collection(`First ${t.data.word()}`),
      await t.data.collection(`Later ${t.data.word()}`),
    ];
    const base = await t.data.note(t.data.content(`Base ${words}`, words));
    // Created in one collection and linked to a second afterwards: summaries must follow the link.
    const kin = await t.data.note(t.data.content(`Kin ${words}`, words), { collection_ids: [first.id] });
    setupOk(await t.api.addToCollection(later.id, kin.id), 'add the related note to a second collection');
    // Polled while the target's index catches up with the kin (bounded by search_index_lag_ms).
    const x = await t.eventually(
      `related notes of a note sharing all its words with ${kin.id} returning it`,
      () => t.api.relatedNotes(base.id, { limit: 20 }),
      (r) => r.status !== 200 || items(r).some((i) => i.id === kin.id),
    );
    const results = items(x);
    setupOk(x, 'ask for related notes');
    const item = results.find((r) => r.id === kin.id);
    if (!item)
      throw new KitError(
        `related notes of a note sharing all its words with ${kin.id} did not return it, so its summaries cannot be judged: ${show(x)}`,
      );
    const titles = { [first.id]: first.json.title, [later.id]: later.json.title };
    await t.verify('notes.related.collections-match', () => {
      // Only the note this check made is judged: a note shared by someone else may sit in collections
      // the caller cannot see, and what its summaries show then is not the document's to say.
      const summaries = Array.isArray(item.collections) ? (item.collections as Array<{ id?: unknown }>) : [];
      expect(sorted(summaries.map((c) => c.id)), "the related note's collections summarise its collection_ids").toEqual(
        sorted(item.collection_ids),
      );
      expect(sorted(item.collection_ids), 'the related note lists both its collections').toEqual(
        sorted([first.id, later.id]),
      );
      const named = Object.fromEntries(
        (summaries as Array<{ id: string; title?: unknown }>).map((c) => [c.id, c.title]),
      );
      expect(named, "the summaries carry the collections' titles").toEqual(titles);
    });
  },
);
