import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import type { Api } from '../../kit/core/api.js';
import type { RuleId } from '../../spec/rule-ids.js';
import { NOT_IN_SMOKE } from '../harness/check.js';
import type { CollectionRef, NoteRef } from '../harness/data.js';
import type { CheckContext, Exchange } from '../harness/index.js';
import { checks, expectRefused, KitError, setupOk, show } from '../harness/index.js';
import { type NoteState, noteState } from '../harness/patterns.js';
import { expectRefusalsChangeNothing } from '../harness/refusals.js';
import { perFile } from '../harness/shared.js';
import { idsOf } from '../search/search-helpers.js';

const { check } = checks();

const json = (x: Exchange) => (x.json ?? {}) as Record<string, unknown>;
// A success is any 2xx here: the exact 200 is conventions.success.status-200's business.
const succeeded = (x: Exchange) => x.status >= 200 && x.status < 300;
const sorted = (values: unknown) => [...((values as string[] | undefined) ?? [])].sort();

/**
 * Three collections the file's checks share (each made by the first check that asks; the cost of a run).
 * Checks link notes of their own to them, so a collection another check made may hold that check's
 * notes: a check reads the note_count of such a collection before its change and judges what the change
 * added or took away. A collection the check made just now holds no note of anyone's yet, as the checks
 * always took a collection they created to hold: its count before needs no read.
 */
const shelf = [1, 2, 3].map((n) =>
  perFile(async (t) => ({ ref: await t.data.collection(`Shelf ${n} ${t.data.word()}`), madeBy: t })),
);

interface Taken {
  collections: CollectionRef[];
  /** The ids of those this check made. */
  fresh: Set<string>;
}

/** The shared collections at these places of the shelf, in order. */
async function take(t: CheckContext, ...places: number[]): Promise<Taken> {
  const taken: Taken = { collections: [], fresh: new Set() };
  for (const place of places) {
    const { ref, madeBy } = await shelf[place]!(t);
    taken.collections.push(ref);
    if (madeBy === t) taken.fresh.add(ref.id);
  }
  return taken;
}

/**
 * note_count of each collection as the target reports it now: one list read when the caller's first
 * page of collections (limit 100) holds them all, else a read of each collection the page leaves out.
 * A count that is not a number is kept as it is, for the judgement to show.
 */
async function noteCounts(api: Api, collections: readonly CollectionRef[]): Promise<Record<string, unknown>> {
  const counts: Record<string, unknown> = {};
  const wanted = new Set(collections.map((c) => c.id));
  if (wanted.size > 1) {
    const x = await api.listCollections({ limit: 100 });
    const results = (x.json as { results?: unknown } | undefined)?.results;
    if (x.status === 200 && Array.isArray(results))
      for (const r of results as Array<{ id?: unknown; note_count?: unknown } | null>)
        if (typeof r?.id === 'string' && wanted.has(r.id) && r.note_count !== undefined) counts[r.id] = r.note_count;
  }
  for (const id of wanted)
    if (!(id in counts)) counts[id] = setupOk(await api.getCollection(id), `read collection ${id}`).note_count;
  return inOrder(collections, counts);
}

/** The counts keyed in the order of `collections` (readings compare as equal whatever the list's order). */
const inOrder = <T>(collections: readonly CollectionRef[], counts: Record<string, T>): Record<string, T> =>
  Object.fromEntries(collections.flatMap((c) => (c.id in counts ? [[c.id, counts[c.id]!] as const] : [])));

/**
 * The counts a check starts from: for a collection it made, the check's own note if `held` names it there
 * (else 0); the others as read, which must be numbers, or the check cannot judge what its change does.
 */
async function countsBefore(api: Api, taken: Taken, held: readonly string[] = []): Promise<Record<string, number>> {
  const counts: Record<string, unknown> = {};
  for (const c of taken.collections) if (taken.fresh.has(c.id)) counts[c.id] = held.includes(c.id) ? 1 : 0;
  const others = taken.collections.filter((c) => !taken.fresh.has(c.id));
  Object.assign(counts, await noteCounts(api, others));
  return asNumbers(inOrder(taken.collections, counts));
}

/** Counts to judge a change against: numbers, or the check cannot judge what its change does to them. */
function asNumbers(counts: Record<string, unknown>): Record<string, number> {
  for (const [id, count] of Object.entries(counts))
    if (typeof count !== 'number')
      throw new KitError(
        `collection ${id} reports note_count ${JSON.stringify(count)}, so what a membership change does to it ` +
          'cannot be judged (see collections.read.response-fields)',
      );
  return counts as Record<string, number>;
}

/** By how much each collection's count moved, named by role (`before` holds numbers; `after` may not). */
function moved(roles: Record<string, CollectionRef>, before: Record<string, number>, after: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(roles).map(([role, c]) => [role, (after[c.id] as number) - before[c.id]!] as const),
  );
}

/**
 * A note's content and title as created, to compare with what a membership change leaves: from the
 * create response when it carries both, else read back.
 */
async function createdText(api: Api, note: NoteRef): Promise<{ content: unknown; title: unknown }> {
  const { content, title } = note.json;
  if (typeof content === 'string' && typeof title === 'string') return { content, title };
  const read = await noteState(api, note.id);
  return { content: read.content, title: read.title };
}

check(
  'PUT links a note to a collection without touching the note and answers {request_id}; a missing note or collection is refused',
  {
    rules: [
      'membership.add.links',
      'membership.add.link-only',
      'membership.add.response-fields',
      'membership.add.missing-refused',
    ],
    smoke: true,
  },
  async (t) => {
    // The smoke tier judges the link alone (the two refused adds are the full tier's).
    const smoke = t.ctx.tier === 'smoke';
    const taken = await take(t, 0);
    const [c] = taken.collections as [CollectionRef];
    const note = await t.data.note(t.data.content(`Linked ${t.data.word()}`, 'a body the link must not change'));
    const text = await createdText(t.api, note);
    const { [c.id]: start } = await countsBefore(t.api, taken);
    if (smoke) t.skipRule('membership.add.missing-refused', NOT_IN_SMOKE);
    else {
      const missingNote = await t.api.addToCollection(c.id, randomUUID());
      const missingCollection = await t.api.addToCollection(randomUUID(), note.id);
      await t.verify('membership.add.missing-refused', () => {
        expectRefused(missingNote, 'adding a note that does not exist');
        expectRefused(missingCollection, 'adding a note to a collection that does not exist');
      });
    }
    const x = await t.api.addToCollection(c.id, note.id);
    await t.verify('membership.add.response-fields', () => {
      expect(succeeded(x), `adding a note to a collection: ${show(x)}`).toBe(true);
      expect(t.schemaProblems(x, 'RequestIdOnly'), `the add answers {request_id}: ${show(x)}`).toEqual([]);
    });
    const after = await noteState(t.api, note.id);
    const { [c.id]: count } = await noteCounts(t.api, [c]);
    await t.verify('membership.add.links', () => {
      expect(succeeded(x), `adding a note to a collection: ${show(x)}`).toBe(true);
      expect(after.collection_ids, 'the note lists the collection').toContain(c.id);
      expect(count, `the collection counts the note (note_count ${start} before the add)`).toBe(start! + 1);
    });
    await t.verify('membership.add.link-only', () => {
      // "creates only the link" says nothing of the version: a server that counts membership as part of
      // the note may change it (the version is the update rules' business, and they are not judged here).
      expect({ content: after.content, title: after.title }, 'content and title are unchanged by the link').toEqual(
        text,
      );
    });
    if (smoke) return;
    await t.verify('membership.add.missing-refused', () => {
      // The refused adds linked nothing: at most the one real add shows, on either side.
      expect(
        after.collection_ids.filter((id) => id !== c.id),
        'the note is in no collection but the one it was added to',
      ).toEqual([]);
      expect(
        count === start || count === start! + 1,
        `the collection holds nothing but the note really added (note_count ${JSON.stringify(count)}, ${start} before)`,
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
    const taken = await take(t, 0);
    const [mine] = taken.collections as [CollectionRef];
    const { [mine.id]: start } = await countsBefore(t.api, taken);
    const x = await t.api.addToCollection(mine.id, theirs.id);
    await t.verify('membership.add.requires-note-access', async () => {
      expectRefused(x, "adding another user's note");
      const { [mine.id]: count } = await noteCounts(t.api, [mine]);
      expect(count, 'the collection gained no note').toBe(start);
      expect((await noteState(other, theirs.id)).collection_ids, "the other user's note is in no collection").toEqual(
        [],
      );
    });
  },
);

/** A note as read, with what the move's two collections count: what a move changes. */
interface MoveState {
  note: NoteState;
  counts: Record<string, unknown>;
}

check(
  'refused moves (target not a UUID or missing, note or source missing) change nothing; ' +
    'a move then adds the note to the target, removes it from the source, keeps its content and answers {request_id}',
  {
    rules: [
      'membership.move.target-required',
      'membership.move.failed-add-keeps-source',
      'membership.move.missing-refused',
      'membership.move.moves',
      'membership.move.content-unchanged',
      'membership.move.response-fields',
    ],
  },
  async (t) => {
    // One note in the source serves the refused moves and then the move itself (the cost of a run): the
    // reading after the refusals, which shows they changed nothing, is the state the move starts from.
    const taken = await take(t, 1, 2);
    const [source, target] = taken.collections as [CollectionRef, CollectionRef];
    const inSource = () =>
      t.data.note(t.data.content(`Moved ${t.data.word()}`, 'body that travels unchanged'), {
        collection_ids: [source.id],
      });
    let note = await inSource();
    let last: MoveState | undefined;
    const read = async (id: string): Promise<MoveState> =>
      (last = { note: await noteState(t.api, id), counts: await noteCounts(t.api, [source, target]) });
    const first = await noteState(t.api, note.id);
    const before: MoveState = { note: first, counts: await countsBefore(t.api, taken, first.collection_ids) };
    const attempts: Array<[RuleId, () => Promise<Exchange>, string]> = [
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
      [
        'membership.move.missing-refused',
        () => t.api.moveNote(source.id, randomUUID(), { target_collection_id: target.id }),
        'a move of a note that does not exist',
      ],
    ];
    // "Refused, yet the note left the source" (or a collection gained a note) is the failure to catch: one
    // reading after them all shows it, and only then are they replayed with a reading after each, to charge
    // the move that made it.
    await expectRefusalsChangeNothing(
      t,
      attempts.map(([rule, send, what]) => ({ rules: rule, what, send })),
      () => read(note.id),
      before,
    );
    // Refusals that changed something (failed above) leave no clean start: the move gets a note of its own.
    let start = last!;
    if (!isDeepStrictEqual(start, before)) {
      note = await inSource();
      start = await read(note.id);
    }
    const counts = asNumbers(start.counts);
    const text = await createdText(t.api, note);
    const x = await t.api.moveNote(source.id, note.id, { target_collection_id: target.id });
    await t.verify('membership.move.response-fields', () => {
      expect(succeeded(x), `moving a note: ${show(x)}`).toBe(true);
      expect(t.schemaProblems(x, 'RequestIdOnly'), `the move answers {request_id}: ${show(x)}`).toEqual([]);
    });
    const after = await read(note.id);
    await t.verify('membership.move.moves', () => {
      expect(succeeded(x), `moving a note: ${show(x)}`).toBe(true);
      expect(after.note.collection_ids, 'the note is in the target and no longer in the source').toEqual([target.id]);
      expect(
        moved({ source, target }, counts, after.counts),
        'the target counts the note and the source no longer does ' +
          `(note_count before the move: ${JSON.stringify(start.counts)}, after: ${JSON.stringify(after.counts)})`,
      ).toEqual({ source: -1, target: 1 });
    });
    await t.verify('membership.move.content-unchanged', () => {
      expect(
        { content: after.note.content, title: after.note.title },
        'content and title are unchanged by the move',
      ).toEqual(text);
    });
  },
);

check(
  'removing a note from a collection unlinks it on both sides and keeps the note',
  {
    rules: ['membership.remove.unlinks'],
  },
  async (t) => {
    const taken = await take(t, 0, 1);
    const [a, b] = taken.collections as [CollectionRef, CollectionRef];
    const note = await t.data.note(undefined, { collection_ids: [a.id, b.id] });
    const before = await countsBefore(t.api, taken, [a.id, b.id]);
    const x = await t.api.removeFromCollection(a.id, note.id);
    await t.verify('membership.remove.unlinks', async () => {
      expect(succeeded(x), `removing a note from a collection: ${show(x)}`).toBe(true);
      const read = await t.api.getNote(note.id);
      expect(succeeded(read), `the note itself stays: ${show(read)}`).toBe(true);
      expect(sorted(json(read).collection_ids), 'the note lists only the collection it was not removed from').toEqual([
        b.id,
      ]);
      const counts = await noteCounts(t.api, [a, b]);
      expect(
        moved({ a, b }, before, counts),
        `only the collection it left stops counting it (note_count before: ${JSON.stringify(before)}, after: ${JSON.stringify(counts)})`,
      ).toEqual({ a: -1, b: 0 });
    });
  },
);

check(
  'after a create into a collection, adds (one of them twice), a move and a removal, ' +
    'collection_ids in read, list and search is exactly the collections holding the note, each once',
  {
    rules: ['membership.collection-ids.current'],
  },
  async (t) => {
    const w = t.data.window();
    const word = t.data.word();
    const taken = await take(t, 0, 1, 2);
    const [a, b, c] = taken.collections as [CollectionRef, CollectionRef, CollectionRef];
    const before = await countsBefore(t.api, taken);
    const step = async (what: string, x: Promise<Exchange>) => {
      const done = await x;
      if (!succeeded(done))
        throw new KitError(`setup step "${what}" answered ${done.status}: ${done.text.slice(0, 200)}`);
    };
    // Created in a, added to b (twice), moved from a to c, then out of c where the profile names a remove
    // endpoint. (No later step re-links a, which would hide a note that still lists its move's source; no
    // later step unlinks b, which would hide a note that lists b twice.)
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
    // What holds the note, as the collections themselves report it: those whose count went up by one.
    const counts = await noteCounts(t.api, [a, b, c]);
    const gained = moved({ a, b, c }, before, counts);
    const holding = [a, b, c]
      .filter((coll) => counts[coll.id] === before[coll.id]! + 1)
      .map((coll) => coll.id)
      .sort();
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
      expect(
        Object.values(gained).every((n) => n === 0 || n === 1),
        'each collection counts the note at most once, b though it was added twice ' +
          `(note_count before: ${JSON.stringify(before)}, after: ${JSON.stringify(counts)})`,
      ).toBe(true);
      expect(holding.length, 'after the sequence the note is held by at least one collection').toBeGreaterThan(0);
      expect(sorted(read.collection_ids), 'collection_ids on a read, each collection once').toEqual(holding);
      expect(sorted(inList.collection_ids), 'collection_ids in the note list, each collection once').toEqual(holding);
      // A search index may lag behind a fresh note; when the note is found, its ids must be current.
      if (inSearch) expect(sorted(inSearch.collection_ids), 'collection_ids in search results').toEqual(holding);
    });
  },
);
