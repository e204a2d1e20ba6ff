import { expect } from 'vitest';
import type { Exchange } from '../harness/index.js';
import { checks, KitError, setupOk, show } from '../harness/index.js';

const { check } = checks();

const succeeded = (x: Exchange) => x.status >= 200 && x.status < 300;

check(
  'a note added to the same collection twice lists that collection once, and counts once',
  {
    rules: ['membership.collection-ids.current'],
  },
  async (t) => {
    const w = t.data.window();
    const note = await t.data.note(undefined, { created_at: w.at(0) });
    const c = await t.data.collection();
    const first = await t.api.addToCollection(c.id, note.id);
    if (!succeeded(first)) throw new KitError(`setup: adding the note to a collection answered ${show(first)}`);
    // The document does not say whether a second add succeeds or is refused: either is fine, the link is one.
    await t.api.addToCollection(c.id, note.id);
    const read = setupOk(await t.api.getNote(note.id), 'read the note');
    const listed = setupOk(
      await t.api.listNotes({ created_after: w.at(-1_000), created_before: w.at(1_000) }),
      'list the note by its creation time',
    );
    const inList = (listed.results as Array<{ id: string; collection_ids?: unknown }>).find((r) => r.id === note.id);
    if (!inList)
      throw new KitError(
        "the note list bounded to a second around the note's creation time did not return it (see the notes.list bounds rules)",
      );
    const count = setupOk(await t.api.getCollection(c.id), 'read the collection').note_count;
    await t.verify('membership.collection-ids.current', () => {
      expect(read.collection_ids, 'collection_ids on a read lists the collection once').toEqual([c.id]);
      expect(inList.collection_ids, 'collection_ids in the note list lists the collection once').toEqual([c.id]);
      expect(count, 'the collection counts the note once').toBe(1);
    });
  },
);
