import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { type CheckContext, checks, KitError, setupOk, show } from '../harness/index.js';
import { futureIso, refusedCreates } from '../harness/patterns.js';

const { check } = checks();
const TWO_BYTE = '\u00e9'; // é: one character by any definition, two UTF-8 bytes

/** Exactly `n` ASCII characters (= bytes), starting with `prefix` so the run's data stays recognisable. */
function asciiOf(prefix: string, n: number): string {
  return `${prefix} ${'a'.repeat(n)}`.slice(0, n);
}

/** Exactly `bytes` UTF-8 bytes, mostly two-byte characters, so far fewer characters than bytes. */
function twoByteOf(prefix: string, bytes: number): string {
  let head = `${prefix} `;
  if ((bytes - head.length) % 2 !== 0) head += '-';
  return head + TWO_BYTE.repeat((bytes - head.length) / 2);
}

/**
 * Collection creates, each answer judged by the oracle (kit/core/behaviour/predict-collections.ts,
 * inputs.ts): the shape and the fields it leaves out, new UUIDs, the fields and times as sent or
 * defaulted, nulls where the document allows them, 409 for an existing id (a read afterwards shows
 * the collection unchanged), the limits in characters and bytes, and the refusals, each with a
 * fresh id, then one list read (or a read of each id) that shows nothing was made under them.
 */
check(
  'a created collection has the documented fields, a new UUID and server-time timestamps',
  {
    oracle: [
      'collections.create.response-fields',
      'collections.create.response-omits-note-count',
      'collections.create.id-generated',
      'collections.create.created-at-defaults-to-server-time',
      'collections.create.fields-stored',
      'conventions.ids.uuid',
    ],
    // Two creates judge the collections area and a convention for the smoke tier.
    smoke: true,
  },
  async (t) => {
    await t.api.createCollection({ title: `Shape ${t.data.word()}`, description: 'What the collection is for' });
    await t.api.createCollection({ title: `Second ${t.data.word()}` });
  },
);

check(
  'null description, id, created_at and updated_at are accepted and mean "omitted"',
  { oracle: ['collections.create.nullable-fields', 'collections.create.null-as-omitted'] },
  async (t) => {
    const nulls = { description: null, id: null, created_at: null, updated_at: null };
    const x = await t.api.createCollection({ title: `Nulls ${t.data.word()}`, ...nulls });
    // Refused: one create per field names the fields the target refuses as null (each is judged so too).
    if (x.status >= 400)
      for (const field of Object.keys(nulls))
        await t.api.createCollection({ title: `Null ${field} ${t.data.word()}`, [field]: null });
  },
);

/** Creates the document refuses, each under a fresh id (suites/harness/patterns.ts). */
const refused = (t: CheckContext, bodies: Array<Record<string, unknown>>) =>
  refusedCreates(t.api, 'collection', bodies);

check(
  'a create without a string title is refused and creates nothing',
  { oracle: ['collections.create.title-required'] },
  (t) => refused(t, [{ description: 'No title here' }, { title: 42 }]),
);

check(
  'a create whose title is not a string or whose description is neither a string nor null is refused',
  { oracle: ['collections.create.field-types'] },
  (t) => {
    const title = `Typed ${t.data.word()}`;
    return refused(t, [
      { title: 42 },
      { title: [title] },
      { title, description: 7 },
      { title, description: { text: 'x' } },
    ]);
  },
);

check(
  'title and description: at the character and byte limits accepted, one over refused',
  {
    oracle: [
      'collections.create.title-max-chars',
      'collections.create.title-max-bytes',
      'collections.create.description-max-chars',
      'collections.create.description-max-bytes',
    ],
  },
  async (t) => {
    const word = t.data.word();
    // The largest accepted values share one create per unit.
    await t.api.createCollection({ title: asciiOf(`Limit ${word}`, 1_000), description: asciiOf(word, 10_000) });
    await t.api.createCollection({ title: twoByteOf(`Bytes ${word}`, 1_000), description: twoByteOf(word, 10_000) });
    await refused(t, [
      { title: asciiOf(`Over ${word}`, 1_001) },
      { title: twoByteOf(`Over ${word}`, 1_001) },
      { title: `Over ${word}`, description: asciiOf(word, 10_001) },
      { title: `Over ${word}`, description: twoByteOf(word, 10_001) },
    ]);
  },
);

check(
  'a supplied id is used; an existing id is answered 409 and the collection is unchanged',
  {
    oracle: [
      'collections.create.id-honoured',
      'collections.create.id-conflict-409',
      'collections.create.id-conflict-no-upsert',
    ],
  },
  async (t) => {
    const id = randomUUID();
    setupOk(
      await t.api.createCollection({ id, title: `Original ${t.data.word()}`, description: 'original' }),
      'create a collection with a supplied id',
    );
    await t.api.createCollection({ id, title: `Replacement ${t.data.word()}`, description: 'replacement' });
    await t.api.getCollection(id);
  },
);

// A trashed collection leaves what the oracle knows (the trash endpoint's effect is not shown): judged here.
check(
  'the id of a trashed collection is answered 409',
  { rules: ['collections.create.id-conflict-409-trashed'] },
  async (t) => {
    const c = await t.data.collection();
    const trash = await t.api.trashCollection(c.id);
    if (trash.status < 200 || trash.status >= 300)
      throw new KitError(`the profile's trash_collection endpoint did not trash the collection: ${show(trash)}`);
    const again = await t.api.createCollection({ id: c.id, title: `After trash ${t.data.word()}` });
    await t.verify('collections.create.id-conflict-409-trashed', () => {
      expect(again.status, `a trashed collection still exists, so its id gives 409: ${show(again)}`).toBe(409);
    });
  },
);

check(
  "the id of another user's collection is answered 409 and that collection is unchanged",
  { oracle: ['collections.create.id-conflict-409-other-user'] },
  async (t) => {
    const other = t.secondary();
    const theirs = await t.data.collection(`Theirs ${t.data.word()}`, {}, other);
    await t.api.createCollection({ id: theirs.id, title: `Mine ${t.data.word()}` });
    await other.getCollection(theirs.id);
  },
);

check(
  'a collection id that is not a UUID is refused',
  { oracle: ['collections.create.id-must-be-uuid'] },
  async (t) => {
    for (const id of ['collection-1', '12345', '0b6f7a52-3c1e-4f0e-9d7a-1b2c3d4e5f6'])
      await t.api.createCollection({ id, title: `Bad id ${t.data.word()}` });
  },
);

check(
  'supplied timestamps are kept, and each one missing takes the other',
  {
    oracle: [
      'collections.create.created-at-honoured',
      'collections.create.updated-at-honoured',
      'collections.create.created-at-defaults-to-updated-at',
      'collections.create.updated-at-defaults-to-created-at',
    ],
  },
  async (t) => {
    const w = t.data.window();
    const both = await t.api.createCollection({
      title: `Both ${t.data.word()}`,
      created_at: w.at(2_000),
      updated_at: w.at(3_000),
    });
    const id = (both.json as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string') await t.api.getCollection(id);
    await t.api.createCollection({ title: `Created ${t.data.word()}`, created_at: w.at(1_000) });
    await t.api.createCollection({ title: `Updated ${t.data.word()}`, updated_at: w.at(5_000) });
  },
);

check(
  'a timestamp without an offset or in the future is refused and creates nothing',
  {
    oracle: [
      'collections.create.created-at-offset-required',
      'collections.create.created-at-not-future',
      'collections.create.updated-at-offset-required',
      'collections.create.updated-at-not-future',
    ],
  },
  (t) => {
    const title = `Refused ${t.data.word()}`;
    return refused(t, [
      { title, created_at: '2020-02-03T04:05:06' },
      { title, created_at: futureIso(t) },
      { title, updated_at: '2020-02-03T04:05:06' },
      { title, updated_at: futureIso(t) },
    ]);
  },
);
