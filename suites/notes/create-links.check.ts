import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { checks, setupOk, show } from '../harness/index.js';

const { check } = checks();

const sorted = (values: unknown) => [...((values as string[] | undefined) ?? [])].sort();

check(
  'collection_ids links accessible collections and ignores unknown ones',
  {
    rules: ['notes.create.collection-ids-linked', 'notes.create.collection-ids-unknown-ignored'],
  },
  async (t) => {
    const c = await t.data.collection();
    const unknown = randomUUID();
    const x = await t.api.createNote({ content: t.data.content('Linked'), collection_ids: [c.id, unknown] });
    await t.verify('notes.create.collection-ids-unknown-ignored', () => {
      expect(x.status, `unknown collection ids are ignored, not refused: ${show(x)}`).toBe(200);
      expect((x.json as { collection_ids?: string[] }).collection_ids ?? []).not.toContain(unknown);
    });
    const note = setupOk(x, 'create a note with collection_ids');
    await t.verify('notes.create.collection-ids-linked', async () => {
      expect(sorted(note.collection_ids), 'the create response lists the accessible collection').toEqual([c.id]);
      const read = setupOk(await t.api.getNote(note.id), 'read the note');
      expect(sorted(read.collection_ids)).toEqual([c.id]);
      const coll = setupOk(await t.api.getCollection(c.id), 'read the collection');
      expect(coll.note_count, 'the collection now holds the note').toBe(1);
    });
  },
);

check(
  "another user's collection id is ignored and that collection is unchanged",
  {
    rules: ['notes.create.collection-ids-inaccessible-ignored'],
  },
  async (t) => {
    const other = t.secondary();
    const theirs = await t.data.collection(undefined, {}, other);
    const x = await t.api.createNote({ content: t.data.content('Not theirs'), collection_ids: [theirs.id] });
    await t.verify('notes.create.collection-ids-inaccessible-ignored', async () => {
      expect(x.status, `an inaccessible collection id is ignored, not refused: ${show(x)}`).toBe(200);
      expect((x.json as { collection_ids?: string[] }).collection_ids ?? []).not.toContain(theirs.id);
      const coll = setupOk(await other.getCollection(theirs.id), "read the other user's collection");
      expect(coll.note_count, "the other user's collection gained no note").toBe(0);
    });
  },
);

check(
  'collection_titles match case-insensitively but otherwise exactly; unmatched titles are ignored',
  {
    rules: [
      'notes.create.collection-titles-case-insensitive',
      'notes.create.collection-titles-exact',
      'notes.create.collection-titles-unmatched-ignored',
    ],
  },
  async (t) => {
    const word = t.data.word();
    const title = `Garden Plans ${word}`;
    const c = await t.data.collection(title);
    const upper = await t.api.createNote({
      content: t.data.content('Upper'),
      collection_titles: [title.toUpperCase()],
    });
    await t.verify('notes.create.collection-titles-case-insensitive', () => {
      expect(upper.status, show(upper)).toBe(200);
      expect(
        (upper.json as { collection_ids?: string[] }).collection_ids,
        'a title differing only in case links the note',
      ).toContain(c.id);
    });
    const near = await t.api.createNote({
      content: t.data.content('Near'),
      collection_titles: [`Garden Plans ${word.slice(0, -2)}`, word, `${title}s`],
    });
    await t.verify('notes.create.collection-titles-exact', () => {
      expect(near.status, show(near)).toBe(200);
      expect(
        (near.json as { collection_ids?: string[] }).collection_ids ?? [],
        'a prefix, a substring or a variant of a title is not a match',
      ).not.toContain(c.id);
    });
    const none = await t.api.createNote({
      content: t.data.content('None'),
      collection_titles: [`No collection is called ${t.data.word()}`],
    });
    await t.verify('notes.create.collection-titles-unmatched-ignored', () => {
      expect(none.status, `an unmatched title is ignored, not refused: ${show(none)}`).toBe(200);
      expect((none.json as { collection_ids?: string[] }).collection_ids ?? []).toEqual([]);
    });
  },
);

check(
  "a collection_titles entry naming another user's unshared collection links nothing",
  {
    rules: ['notes.create.collection-titles-inaccessible-ignored'],
  },
  async (t) => {
    const other = t.secondary();
    const title = `Private Plans ${t.data.word()}`;
    const theirs = await t.data.collection(title, {}, other);
    const x = await t.api.createNote({ content: t.data.content('Mine'), collection_titles: [title] });
    await t.verify('notes.create.collection-titles-inaccessible-ignored', async () => {
      expect(x.status, `a title matching only an inaccessible collection is ignored: ${show(x)}`).toBe(200);
      expect(
        (x.json as { collection_ids?: string[] }).collection_ids ?? [],
        'the note joined no collection of another user',
      ).toEqual([]);
      expect(
        setupOk(await other.getCollection(theirs.id), "read the other user's collection").note_count,
        'their collection gained no note',
      ).toBe(0);
    });
  },
);

check('a note can belong to several collections', { rules: ['membership.note.several-collections'] }, async (t) => {
  const a = await t.data.collection();
  const b = await t.data.collection();
  const note = await t.data.note();
  setupOk(await t.api.addToCollection(a.id, note.id), 'add to the first collection');
  setupOk(await t.api.addToCollection(b.id, note.id), 'add to the second collection');
  await t.verify('membership.note.several-collections', async () => {
    const read = setupOk(await t.api.getNote(note.id), 'read the note');
    expect(sorted(read.collection_ids), 'the note lists both collections').toEqual([a.id, b.id].sort());
    for (const c of [a, b]) expect(setupOk(await t.api.getCollection(c.id), 'read a collection').note_count).toBe(1);
  });
});
