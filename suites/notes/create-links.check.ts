import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { checks, KitError, setupOk, show } from '../harness/index.js';

const { check } = checks();

const sorted = (values: unknown) => [...((values as string[] | undefined) ?? [])].sort();

/**
 * Creates naming collections by id and by title: the caller's own (linked, a title in another
 * case too), a deleted one (ignored, not refused) and near misses of a title. The oracle judges
 * the links and the ignored names on each create response (kit/core/behaviour/predict-notes.ts);
 * the check asserts what no prediction covers: title matching (the world learns a title's links
 * from the answer) and a note in two collections.
 */
check(
  'collection_ids and collection_titles link the collections they name, as documented; a note can belong to several',
  {
    rules: [
      'membership.note.several-collections',
      'notes.create.collection-titles-case-insensitive',
      'notes.create.collection-titles-exact',
    ],
    oracle: [
      'notes.create.collection-ids-linked',
      'notes.create.collection-ids-unknown-ignored',
      'notes.create.collection-titles-unmatched-ignored',
    ],
  },
  async (t) => {
    const word = t.data.word();
    const title = `Garden Plans ${word}`;
    const a = await t.data.collection(title);
    const b = await t.data.collection();
    // A collection named after its deletion: an id and a title the target no longer knows.
    const goneTitle = `Gone Plans ${t.data.word()}`;
    const gone = await t.data.collection(goneTitle);
    setupOk(await t.api.deleteCollection(gone.id), 'delete a collection');
    // Under an id of its own: an id with collection_ids is a pair of inputs no other check sends, which
    // the explorer would otherwise spend its share on (docs/judging.md).
    const withGone = await t.api.createNote({
      id: randomUUID(),
      content: t.data.content('Linked'),
      collection_ids: [a.id, gone.id],
    });
    // Refused over the deleted id (that rule's failure): the rest is judged on a create naming only the collection.
    const x =
      withGone.status === 200
        ? withGone
        : await t.api.createNote({ content: t.data.content('Linked'), collection_ids: [a.id] });
    const note = setupOk(x, 'create a note with collection_ids');
    const noteCount = async (id: string) => setupOk(await t.api.getCollection(id), 'read a collection').note_count;
    // The same note, in the first collection, is added to a second one: it must then be in both.
    // Its link to the first is made here too if collection_ids did not make it (another rule's failure).
    const read = setupOk(await t.api.getNote(note.id), 'read the note');
    if (!sorted(read.collection_ids).includes(a.id))
      setupOk(await t.api.addToCollection(a.id, note.id), 'add to the first collection');
    setupOk(await t.api.addToCollection(b.id, note.id), 'add to the second collection');
    await t.verify('membership.note.several-collections', async () => {
      const again = setupOk(await t.api.getNote(note.id), 'read the note');
      expect(sorted(again.collection_ids), 'the note lists both collections').toEqual([a.id, b.id].sort());
      for (const c of [a, b]) expect(await noteCount(c.id), 'each collection holds the note').toBe(1);
    });
    const upper = await t.api.createNote({
      content: t.data.content('Upper'),
      collection_titles: [title.toUpperCase()],
    });
    await t.verify('notes.create.collection-titles-case-insensitive', () => {
      expect(upper.status, show(upper)).toBe(200);
      const linked = (upper.json as { collection_ids?: string[] }).collection_ids;
      expect(linked, 'a title differing only in case links the note').toContain(a.id);
    });
    // None of these titles names a collection: a prefix, a substring and a variant of the title
    // (exact matching links none of them), and the title of the deleted collection (ignored, not refused).
    // Into the second collection by id as well: both forms on one create (and the pair of inputs).
    const near = await t.api.createNote({
      content: t.data.content('Near'),
      collection_ids: [b.id],
      collection_titles: [`Garden Plans ${word.slice(0, -2)}`, word, `${title}s`, goneTitle],
    });
    await t.verify('notes.create.collection-titles-exact', () => {
      expect(near.status, show(near)).toBe(200);
      const linked = (near.json as { collection_ids?: string[] } | undefined)?.collection_ids ?? [];
      expect(linked, 'a prefix, a substring or a variant of a title is not a match').not.toContain(a.id);
    });
  },
);

check(
  "another user's collection, named by id or by title, is ignored and that collection is unchanged",
  {
    rules: ['notes.create.collection-ids-inaccessible-ignored', 'notes.create.collection-titles-inaccessible-ignored'],
  },
  async (t) => {
    // One collection of the other user serves both ways of naming it, and one read of its note count
    // afterwards judges both. Only if it gained notes is the create by id sent once more, to tell how
    // many of them came from the id and how many from the title.
    const other = t.secondary();
    const title = `Private Plans ${t.data.word()}`;
    const theirs = await t.data.collection(title, {}, other);
    const noteCount = async () => {
      const x = await other.getCollection(theirs.id);
      const count = setupOk(x, "read the other user's collection").note_count as unknown;
      if (typeof count !== 'number')
        throw new KitError(`the collection read has no numeric note_count, so no gained note can be seen: ${show(x)}`);
      return count;
    };
    const createById = () => t.api.createNote({ content: t.data.content('Not theirs'), collection_ids: [theirs.id] });
    const byId = await createById();
    const byTitle = await t.api.createNote({ content: t.data.content('Mine'), collection_titles: [title] });
    const count = await noteCount();
    let fromId = 0;
    if (count > 0) {
      await createById();
      fromId = (await noteCount()) - count;
    }
    await t.verify('notes.create.collection-ids-inaccessible-ignored', () => {
      expect(byId.status, `an inaccessible collection id is ignored, not refused: ${show(byId)}`).toBe(200);
      expect((byId.json as { collection_ids?: string[] }).collection_ids ?? []).not.toContain(theirs.id);
      expect(fromId, "the other user's collection gained no note from a create naming its id").toBe(0);
    });
    await t.verify('notes.create.collection-titles-inaccessible-ignored', () => {
      expect(byTitle.status, `a title matching only an inaccessible collection is ignored: ${show(byTitle)}`).toBe(200);
      expect(
        (byTitle.json as { collection_ids?: string[] }).collection_ids ?? [],
        'the note joined no collection of another user',
      ).toEqual([]);
      expect(count - fromId, "the other user's collection gained no note from a create naming its title").toBe(0);
    });
  },
);
