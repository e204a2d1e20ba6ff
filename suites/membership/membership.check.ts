import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Api } from '../harness/api.js';
import type { Exchange } from '../harness/index.js';
import { checks, expectRefused, KitError, setupOk, show } from '../harness/index.js';
import { noteState } from '../harness/patterns.js';
import { expectRefusalsChangeNothing } from '../harness/refusals.js';
import { idsOf } from '../search/search-helpers.js';

const { check } = checks();

const json = (x: Exchange) => (x.json ?? {}) as Record<string, unknown>;
// A success is any 2xx here: the exact 200 is conventions.success.status-200's business.
const succeeded = (x: Exchange) => x.status >= 200 && x.status < 300;
const sorted = (values: unknown) => [...((values as string[] | undefined) ?? [])].sort();
const noteCount = async (api: Api, id: string) =>
  setupOk(await api.getCollection(id), `read collection ${id}`).note_count as unknown;

check(
  'PUT links a note to a collection without touching the note and answers {request_id}; a missing note or collection is refused',
  {
    rules: [
      'membership.add.links',
      'membership.add.link-only',
      'membership.add.response-fields',
      'membership.add.missing-refused',
    ],
  },
  async (t) => {
    const c = await t.data.collection();
    const note = await t.data.note(t.data.content(`Linked ${t.data.word()}`, 'a body the link must not change'));
    const before = await noteState(t.api, note.id);
    const missingNote = await t.api.addToCollection(c.id, randomUUID());
    const missingCollection = await t.api.addToCollection(randomUUID(), note.id);
    await t.verify('membership.add.missing-refused', () => {
      expectRefused(missingNote, 'adding a note that does not exist');
      expectRefused(missingCollection, 'adding a note to a collection that does not exist');
    });
    const x = await t.api.addToCollection(c.id, note.id);
    await t.verify('membership.add.response-fields', () => {
      expect(succeeded(x), `adding a note to a collection: ${show(x)}`).toBe(true);
      expect(t.schemaProblems(x, 'RequestIdOnly'), `the add answers {request_id}: ${show(x)}`).toEqual([]);
    });
    const after = await noteState(t.api, note.id);
    const count = await noteCount(t.api, c.id);
    await t.verify('membership.add.links', () => {
      expect(succeeded(x), `adding a note to a collection: ${show(x)}`).toBe(true);
      expect(after.collection_ids, 'the note lists the collection').toContain(c.id);
      expect(count, 'the collection counts the note').toBe(1);
    });
    await t.verify('membership.add.link-only', () => {
      // "creates only the link" says nothing of the version: a server that counts membership as part of
      // the note may change it (the version is the update rules' business, and they are not judged here).
      expect({ content: after.content, title: after.title }, 'content and title are unchanged by the link').toEqual({
        content: before.content,
        title: before.title,
      });
    });
    await t.verify('membership.add.missing-refused', () => {
      // The refused adds linked nothing: at most the one real add shows, on either side.
      expect(
        after.collection_ids.filter((id) => id !== c.id),
        'the note is in no collection but the one it was added to',
      ).toEqual([]);
      expect(
        count === 0 || count === 1,
        `the collection holds nothing but the note really added (note_count ${JSON.stringify(count)})`,
      ).toBe(true);
    });
  },
);

check(
  "another user's note cannot be added to one's own collection",
  { rules: ['membership.add.requires-note-access'] },
  async (t) => {
    const other = t.secondary();
    const theirs = await t.data.note(t.data.content(`Theirs ${t.data.word()}`), {}, other);
    const mine = await t.data.collection();
    const x = await t.api.addToCollection(mine.id, theirs.id);
    await t.verify('membership.add.requires-note-access', async () => {
      expectRefused(x, "adding another user's note");
      expect(await noteCount(t.api, mine.id), 'the collection gained no note').toBe(0);
      expect((await noteState(other, theirs.id)).collection_ids, "the other user's note is in no collection").toEqual(
        [],
      );
    });
  },
);

check(
  'a move adds the note to the target and removes it from the source, keeps its content and answers {request_id}',
  {
    rules: ['membership.move.moves', 'membership.move.content-unchanged', 'membership.move.response-fields'],
  },
  async (t) => {
    const source = await t.data.collection(`Source ${t.data.word()}`);
    const target = await t.data.collection(`Target ${t.data.word()}`);
    const note = await t.data.note(t.data.content(`Moved ${t.data.word()}`, 'body that travels unchanged'), {
      collection_ids: [source.id],
    });
    const before = await noteState(t.api, note.id);
    const x = await t.api.moveNote(source.id, note.id, { target_collection_id: target.id });
    await t.verify('membership.move.response-fields', () => {
      expect(succeeded(x), `moving a note: ${show(x)}`).toBe(true);
      expect(t.schemaProblems(x, 'RequestIdOnly'), `the move answers {request_id}: ${show(x)}`).toEqual([]);
    });
    const after = await noteState(t.api, note.id);
    const counts = { source: await noteCount(t.api, source.id), target: await noteCount(t.api, target.id) };
    await t.verify('membership.move.moves', () => {
      expect(succeeded(x), `moving a note: ${show(x)}`).toBe(true);
      expect(after.collection_ids, 'the note is in the target and no longer in the source').toEqual([target.id]);
      expect(counts, 'the target counts the note and the source no longer does').toEqual({ source: 0, target: 1 });
    });
    await t.verify('membership.move.content-unchanged', () => {
      expect({ content: after.content, title: after.title }, 'content and title are unchanged by the move').toEqual({
        content: before.content,
        title: before.title,
      });
    });
  },
);

check(
  'a move without a UUID target, to a missing target, of a missing note or from a missing source is refused and the note stays',
  {
    rules: [
      'membership.move.target-required',
      'membership.move.failed-add-keeps-source',
      'membership.move.missing-refused',
    ],
  },
  async (t) => {
    const source = await t.data.collection(`Source ${t.data.word()}`);
    const target = await t.data.collection(`Target ${t.data.word()}`);
    const note = await t.data.note(undefined, { collection_ids: [source.id] });
    const before = await noteState(t.api, note.id);
    const attempts: Array<[string, () => Promise<Exchange>, string]> = [
      [
        'membership.move.target-required',
        () => t.api.moveNote(source.id, note.id, {}),
        'a move without target_collection_id',
      ],
      [
        'membership.move.target-required',
        () => t.api.moveNote(source.id, note.id, { target_collection_id: 'not-a-uuid' }),
        'a move whose target is not a UUID',
      ],
      [
        'membership.move.failed-add-keeps-source',
        () => t.api.moveNote(source.id, note.id, { target_collection_id: randomUUID() }),
        'a move to a target that does not exist',
      ],
      [
        'membership.move.missing-refused',
        () => t.api.moveNote(randomUUID(), note.id, { target_collection_id: target.id }),
        'a move from a source that does not exist',
      ],
    ];
    // "Refused, yet the note left the source" is the failure to catch: one read after them all shows it, and only
    // then are they replayed with a read after each, to charge the move that made it.
    await expectRefusalsChangeNothing(
      t,
      attempts.map(([rule, send, what]) => ({ rules: rule, what, send })),
      () => noteState(t.api, note.id),
      before,
    );
    const ghost = await t.api.moveNote(source.id, randomUUID(), { target_collection_id: target.id });
    const counts = { source: await noteCount(t.api, source.id), target: await noteCount(t.api, target.id) };
    await t.verify('membership.move.missing-refused', () => {
      expectRefused(ghost, 'a move of a note that does not exist');
      const held = (id: string) => (before.collection_ids.includes(id) ? 1 : 0);
      expect(counts, 'a move of a missing note changes neither collection').toEqual({
        source: held(source.id),
        target: held(target.id),
      });
    });
  },
);

check(
  'removing a note from a collection unlinks it on both sides and keeps the note',
  {
    rules: ['membership.remove.unlinks'],
  },
  async (t) => {
    const a = await t.data.collection();
    const b = await t.data.collection();
    const note = await t.data.note(undefined, { collection_ids: [a.id, b.id] });
    const x = await t.api.removeFromCollection(a.id, note.id);
    await t.verify('membership.remove.unlinks', async () => {
      expect(succeeded(x), `removing a note from a collection: ${show(x)}`).toBe(true);
      const read = await t.api.getNote(note.id);
      expect(succeeded(read), `the note itself stays: ${show(read)}`).toBe(true);
      expect(sorted(json(read).collection_ids), 'the note lists only the collection it was not removed from').toEqual([
        b.id,
      ]);
      expect(
        { a: await noteCount(t.api, a.id), b: await noteCount(t.api, b.id) },
        'only the collection it left stops counting it',
      ).toEqual({ a: 0, b: 1 });
    });
  },
);

check(
  'after adds, a move and a removal, collection_ids in read, list and search is exactly the collections holding the note',
  {
    rules: ['membership.collection-ids.current'],
  },
  async (t) => {
    const w = t.data.window();
    const word = t.data.word();
    const note = await t.data.note(t.data.content(`Wanderer ${word}`), { created_at: w.at(1_000) });
    const [a, b, c] = [await t.data.collection(), await t.data.collection(), await t.data.collection()];
    const step = async (what: string, x: Promise<Exchange>) => {
      const done = await x;
      if (!succeeded(done))
        throw new KitError(`setup step "${what}" answered ${done.status}: ${done.text.slice(0, 200)}`);
    };
    // Into a and b, moved from a to c, then out of b where the profile names a remove endpoint.
    // (No later step re-links a, which would hide a note that still lists its move's source.)
    await step('add the note to a collection', t.api.addToCollection(a.id, note.id));
    await step('add the note to a second collection', t.api.addToCollection(b.id, note.id));
    await step('move the note to a third collection', t.api.moveNote(a.id, note.id, { target_collection_id: c.id }));
    if (t.profile.endpoints?.remove_note_from_collection)
      await step('remove the note from a collection', t.api.removeFromCollection(b.id, note.id));
    // What holds the note, as the collections themselves report it (each holds nothing else).
    const holding: string[] = [];
    for (const coll of [a, b, c]) if ((await noteCount(t.api, coll.id)) === 1) holding.push(coll.id);
    holding.sort();
    const read = setupOk(await t.api.getNote(note.id), 'read the note');
    const listed = setupOk(
      await t.api.listNotes({ created_after: w.at(1_000), created_before: w.at(1_000) }),
      'list the note by its creation time',
    );
    // Given up to search_index_lag_ms to show the note; if it never does, the search item is not judged.
    const found = (x: Exchange) => x.status !== 200 || idsOf(x).includes(note.id);
    const searched = setupOk(
      (await t.poll(() => t.api.searchNotes({}, { query: word }), found)).value,
      'search the note by a word of its content',
    );
    const inList = (listed.results as Array<{ id: string; collection_ids?: unknown }>).find((r) => r.id === note.id);
    if (!inList)
      throw new KitError(
        "the note list bounded to the note's creation time did not return it (see the notes.list bounds rules)",
      );
    const inSearch = (searched.results as Array<{ id: string; collection_ids?: unknown }>).find(
      (r) => r.id === note.id,
    );
    await t.verify('membership.collection-ids.current', () => {
      expect(holding.length, 'after the sequence the note is held by at least one collection').toBeGreaterThan(0);
      expect(sorted(read.collection_ids), 'collection_ids on a read').toEqual(holding);
      expect(sorted(inList.collection_ids), 'collection_ids in the note list').toEqual(holding);
      // A search index may lag behind a fresh note; when the note is found, its ids must be current.
      if (inSearch) expect(sorted(inSearch.collection_ids), 'collection_ids in search results').toEqual(holding);
    });
  },
);
