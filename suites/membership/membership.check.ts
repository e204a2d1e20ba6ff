import { randomUUID } from 'node:crypto';
import { NOT_IN_SMOKE } from '../harness/check.js';
import type { CollectionRef } from '../harness/data.js';
import type { CheckContext, Exchange } from '../harness/index.js';
import { checks, KitError } from '../harness/index.js';
import { perFile } from '../harness/shared.js';

const { check } = checks();

/**
 * Three collections the file's checks share (each made by the first check that asks; the cost of a
 * run). The oracle knows every note each holds, so it judges note_count on every read of them
 * (kit/core/behaviour/views.ts) and collection_ids on every read of the notes, whichever check linked
 * what (kit/core/behaviour/predict-collections.ts, effects.ts).
 */
const shelf = [1, 2, 3].map((n) => perFile((t) => t.data.collection(`Shelf ${n} ${t.data.word()}`)));
const take = (t: CheckContext, ...places: number[]): Promise<CollectionRef[]> =>
  Promise.all(places.map((p) => shelf[p]!(t)));

/** The note and the collections read after a membership change: what the oracle judges it by. */
async function readBack(t: CheckContext, note: string, collections: readonly CollectionRef[]): Promise<void> {
  await t.api.getNote(note);
  for (const c of collections) await t.api.getCollection(c.id);
}

check(
  'PUT links a note to a collection without touching the note and answers {request_id}; a missing note or collection is refused',
  {
    oracle: [
      'membership.add.links',
      'membership.add.link-only',
      'membership.add.response-fields',
      'membership.add.missing-refused',
    ],
    smoke: true,
  },
  async (t) => {
    const [c] = (await take(t, 0)) as [CollectionRef];
    const note = await t.data.note(t.data.content(`Linked ${t.data.word()}`, 'a body the link must not change'));
    // The smoke tier judges the link alone (the two refused adds are the full tier's).
    if (t.ctx.tier === 'smoke') t.skipRule('membership.add.missing-refused', NOT_IN_SMOKE);
    else {
      await t.api.addToCollection(c.id, randomUUID());
      await t.api.addToCollection(randomUUID(), note.id);
    }
    await t.api.addToCollection(c.id, note.id);
    await readBack(t, note.id, [c]);
  },
);

check(
  "another user's note cannot be added to one's own collection",
  { oracle: ['membership.add.requires-note-access'] },
  async (t) => {
    const other = t.secondary();
    const theirs = await t.data.note(t.data.content(`Theirs ${t.data.word()}`), {}, other);
    const [mine] = (await take(t, 0)) as [CollectionRef];
    await t.api.addToCollection(mine.id, theirs.id);
    await t.api.getCollection(mine.id);
    await other.getNote(theirs.id);
  },
);

/** A step the check builds on: any answer but a success means it cannot judge what follows. */
async function step(what: string, x: Promise<Exchange>): Promise<void> {
  const done = await x;
  if (done.status < 200 || done.status >= 300)
    throw new KitError(`setup step "${what}" answered ${done.status}: ${done.text.slice(0, 200)}`);
}

/**
 * Refused moves (no target, a target that is no UUID or that does not exist, a source or note that does
 * not exist), a read showing they changed nothing, then the move: the note in the target and out of
 * the source, its content kept, each collection counting it or not.
 */
check(
  'refused moves (target not a UUID or missing, note or source missing) change nothing; ' +
    'a move then adds the note to the target, removes it from the source, keeps its content and answers {request_id}',
  {
    oracle: [
      'membership.move.target-required',
      'membership.move.failed-add-keeps-source',
      'membership.move.missing-refused',
      'membership.move.moves',
      'membership.move.content-unchanged',
      'membership.move.response-fields',
    ],
  },
  async (t) => {
    const [source, target] = (await take(t, 1, 2)) as [CollectionRef, CollectionRef];
    const note = await t.data.note(t.data.content(`Moved ${t.data.word()}`, 'body that travels unchanged'), {
      collection_ids: [source.id],
    });
    // A read after each: a refused move that changed something is then charged to that move.
    for (const [from, id, body] of [
      [source.id, note.id, {}],
      [source.id, note.id, { target_collection_id: 'not-a-uuid' }],
      [source.id, note.id, { target_collection_id: randomUUID() }],
      [randomUUID(), note.id, { target_collection_id: target.id }],
      [source.id, randomUUID(), { target_collection_id: target.id }],
    ] as const) {
      await t.api.moveNote(from, id, body);
      await t.api.getNote(note.id);
    }
    for (const c of [source, target]) await t.api.getCollection(c.id);
    await t.api.moveNote(source.id, note.id, { target_collection_id: target.id });
    await readBack(t, note.id, [source, target]);
  },
);

check(
  'removing a note from a collection unlinks it on both sides and keeps the note',
  { oracle: ['membership.remove.unlinks'], needs: ['profile:endpoints.remove_note_from_collection'] },
  async (t) => {
    const [a, b] = (await take(t, 0, 1)) as [CollectionRef, CollectionRef];
    const note = await t.data.note(undefined, { collection_ids: [a.id, b.id] });
    await t.api.removeFromCollection(a.id, note.id);
    await readBack(t, note.id, [a, b]);
  },
);

/**
 * A note created into a collection, added to a second one twice, moved from the first to a third and
 * (where the profile names the endpoint) removed from it, then read, listed and searched: collection_ids
 * in each is exactly the collections holding it, each once, and each collection counts it once.
 */
check(
  'after a create into a collection, adds (one of them twice), a move and a removal, ' +
    'collection_ids in read, list and search is exactly the collections holding the note, each once',
  { oracle: ['membership.collection-ids.current'] },
  async (t) => {
    const w = t.data.window();
    const word = t.data.word();
    const [a, b, c] = (await take(t, 0, 1, 2)) as [CollectionRef, CollectionRef, CollectionRef];
    const note = await t.data.note(t.data.content(`Wanderer ${word}`), {
      created_at: w.at(1_000),
      collection_ids: [a.id],
    });
    await step('add the note to a second collection', t.api.addToCollection(b.id, note.id));
    // The document does not say whether a second add succeeds or is refused: either is fine, the link is one.
    await t.api.addToCollection(b.id, note.id);
    await step('move the note to a third collection', t.api.moveNote(a.id, note.id, { target_collection_id: c.id }));
    if (t.profile.endpoints?.remove_note_from_collection)
      await step('remove the note from a collection', t.api.removeFromCollection(c.id, note.id));
    await readBack(t, note.id, [a, b, c]);
    await t.api.listNotes({ created_after: w.at(1_000), created_before: w.at(1_000) });
    // Search may index the note later (search_index_lag_ms): polled until it shows, then judged.
    await t.poll(
      () => t.api.searchNotes({}, { query: word }),
      (x) => x.status !== 200 || JSON.stringify(x.json).includes(note.id),
    );
  },
);
