import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { UUID } from '../../spec/patterns.js';
import type { Exchange } from '../harness/index.js';
import {
  checks,
  expectRefused,
  expectSameInstant,
  expectServerTime,
  KitError,
  setupOk,
  show,
} from '../harness/index.js';
import { collectionState, expectCreatesRefused, futureIso } from '../harness/patterns.js';
import { perFile } from '../harness/shared.js';

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

const json = (x: Exchange) => (x.json ?? {}) as Record<string, unknown>;
// A success is any 2xx here: the exact 200 is conventions.success.status-200's business.
const succeeded = (x: Exchange) => x.status >= 200 && x.status < 300;
function expectDone(x: Exchange, what: string): Record<string, unknown> {
  expect(succeeded(x), `${what} should succeed: ${show(x)}`).toBe(true);
  return json(x);
}

check(
  'a created collection has the documented fields, a new UUID and server-time timestamps',
  {
    rules: [
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
    const title = `Shape ${t.data.word()}`;
    const sentAt = Date.now();
    const x = await t.api.createCollection({ title, description: 'What the collection is for' });
    const c = expectDone(x, 'create a collection');
    await t.verify('collections.create.response-fields', () => {
      expect(
        t.schemaProblems(x, 'CollectionFields'),
        `the create response lacks documented fields or has wrong types: ${show(x)}`,
      ).toEqual([]);
      expect(typeof c.request_id, 'the create response carries request_id').toBe('string');
      expect(
        { title: c.title, description: c.description },
        'the response shows the title and description sent',
      ).toEqual({ title, description: 'What the collection is for' });
    });
    await t.verify('collections.create.response-omits-note-count', () => {
      expect(c, 'note_count is absent from the create response').not.toHaveProperty('note_count');
    });
    await t.verify('collections.create.created-at-defaults-to-server-time', () => {
      expectServerTime(
        c.created_at,
        x,
        sentAt,
        t.ctx.clockToleranceMs,
        'created_at of a collection created without timestamps',
      );
      expectSameInstant(
        c.updated_at,
        Date.parse(String(c.created_at)),
        'updated_at defaults to that created_at',
        t.precisionMs,
      );
    });
    // The second collection is the one the null-fields check creates (its id is generated too), or a
    // plain one when the target refused those nulls (the null check's failure, not this one's).
    const { x: withNulls } = await createdWithNulls(t);
    const second = succeeded(withNulls)
      ? json(withNulls)
      : expectDone(await t.api.createCollection({ title: `Second ${t.data.word()}` }), 'create a second collection');
    await t.verify(['collections.create.id-generated', 'conventions.ids.uuid'], () => {
      expect(c.id, 'a generated collection id is a UUID').toMatch(UUID);
      expect(second.id, 'a generated collection id is a UUID').toMatch(UUID);
      expect(second.id, 'each created collection gets a new id').not.toBe(c.id);
    });
  },
);

const NULLS = { description: null, id: null, created_at: null, updated_at: null };
/** One create with every optional field null, shared by the null check and the generated-id check. */
const createdWithNulls = perFile(async (t) => {
  const sentAt = Date.now();
  return { sentAt, x: await t.api.createCollection({ title: `Nulls ${t.data.word()}`, ...NULLS }) };
});

check(
  'null description, id, created_at and updated_at are accepted and mean "omitted"',
  {
    rules: ['collections.create.nullable-fields', 'collections.create.null-as-omitted'],
  },
  async (t) => {
    const { x, sentAt } = await createdWithNulls(t);
    await t.verify('collections.create.nullable-fields', async () => {
      if (!succeeded(x)) {
        // Name the fields the target refuses as null (costs requests only when the rule fails).
        const refused: string[] = [];
        for (const field of Object.keys(NULLS)) {
          const y = await t.api.createCollection({ title: `Null ${field} ${t.data.word()}`, [field]: null });
          if (!succeeded(y)) refused.push(field);
        }
        expect(
          refused,
          `null is documented for these fields, but a create with them all null was refused: ${show(x)}`,
        ).toEqual([]);
      }
      expect(expectDone(x, 'a create with null fields').description, 'a null description stays null').toBeNull();
    });
    await t.verify('collections.create.null-as-omitted', () => {
      const c = expectDone(x, 'a create with null fields');
      expect(c.id, 'a null id means a generated UUID').toMatch(UUID);
      expectServerTime(c.created_at, x, sentAt, t.ctx.clockToleranceMs, 'created_at when null was sent');
      expectSameInstant(c.updated_at, Date.parse(String(c.created_at)), 'updated_at when null was sent', t.precisionMs);
    });
  },
);

check(
  'a create without a string title is refused and creates nothing',
  { rules: ['collections.create.title-required'] },
  async (t) => {
    await expectCreatesRefused(t, 'collection', [
      {
        rules: 'collections.create.title-required',
        body: { description: 'No title here' },
        what: 'a create without title',
      },
      { rules: 'collections.create.title-required', body: { title: 42 }, what: 'a create whose title is a number' },
    ]);
  },
);

check(
  'a create whose title is not a string or whose description is neither a string nor null is refused',
  {
    rules: ['collections.create.field-types'],
  },
  async (t) => {
    const title = `Typed ${t.data.word()}`;
    const cases: Array<[string, Record<string, unknown>]> = [
      ['a numeric title', { title: 42 }],
      ['a title that is an array', { title: [title] }],
      ['a numeric description', { title, description: 7 }],
      ['a description that is an object', { title, description: { text: 'x' } }],
    ];
    await expectCreatesRefused(
      t,
      'collection',
      cases.map(([what, body]) => ({ rules: 'collections.create.field-types', body, what: `a create with ${what}` })),
    );
  },
);

check(
  'title and description: at the character and byte limits accepted, one over refused',
  {
    rules: [
      'collections.create.title-max-chars',
      'collections.create.title-max-bytes',
      'collections.create.description-max-chars',
      'collections.create.description-max-bytes',
    ],
  },
  async (t) => {
    const word = t.data.word();
    // The largest accepted values share one create per unit; a refusal fails both rules of the pair.
    const chars = { title: asciiOf(`Limit ${word}`, 1_000), description: asciiOf(word, 10_000) };
    const atChars = await t.api.createCollection(chars);
    await t.verify(['collections.create.title-max-chars', 'collections.create.description-max-chars'], () => {
      const c = expectDone(atChars, 'a title of 1,000 and a description of 10,000 characters');
      expect({ title: c.title, description: c.description }, 'both are stored whole').toEqual(chars);
    });
    const bytes = { title: twoByteOf(`Bytes ${word}`, 1_000), description: twoByteOf(word, 10_000) };
    const atBytes = await t.api.createCollection(bytes);
    await t.verify(['collections.create.title-max-bytes', 'collections.create.description-max-bytes'], () => {
      const c = expectDone(atBytes, 'a title of 1,000 and a description of 10,000 UTF-8 bytes');
      expect({ title: c.title, description: c.description }, 'both are stored whole').toEqual(bytes);
    });
    await expectCreatesRefused(t, 'collection', [
      {
        rules: 'collections.create.title-max-chars',
        body: { title: asciiOf(`Over ${word}`, 1_001) },
        what: 'a title of 1,001 characters',
      },
      {
        rules: 'collections.create.title-max-bytes',
        body: { title: twoByteOf(`Over ${word}`, 1_001) },
        what: 'a title of 1,001 UTF-8 bytes (about 500 characters)',
      },
      {
        rules: 'collections.create.description-max-chars',
        body: { title: `Over ${word}`, description: asciiOf(word, 10_001) },
        what: 'a description of 10,001 characters',
      },
      {
        rules: 'collections.create.description-max-bytes',
        body: { title: `Over ${word}`, description: twoByteOf(word, 10_001) },
        what: 'a description of 10,001 UTF-8 bytes (about 5,000 characters)',
      },
    ]);
  },
);

check(
  'a supplied id is used; an existing id is answered 409 and the collection is unchanged',
  {
    rules: [
      'collections.create.id-honoured',
      'collections.create.id-conflict-409',
      'collections.create.id-conflict-no-upsert',
    ],
  },
  async (t) => {
    const id = randomUUID();
    const created = await t.api.createCollection({ id, title: `Original ${t.data.word()}`, description: 'original' });
    await t.verify('collections.create.id-honoured', () => {
      expect(expectDone(created, 'a create with a new id').id, 'the collection takes the id supplied').toBe(id);
    });
    setupOk(created, 'create a collection with a supplied id');
    const before = await collectionState(t.api, id);
    const again = await t.api.createCollection({
      id,
      title: `Replacement ${t.data.word()}`,
      description: 'replacement',
    });
    await t.verify('collections.create.id-conflict-409', () => {
      expect(again.status, `a create with an existing id must be answered 409 (no upsert): ${show(again)}`).toBe(409);
    });
    await t.verify('collections.create.id-conflict-no-upsert', async () => {
      expect(
        await collectionState(t.api, id),
        'the existing collection must be unchanged by the refused create',
      ).toEqual(before);
    });
  },
);

check(
  'the id of a trashed collection is answered 409',
  { rules: ['collections.create.id-conflict-409-trashed'] },
  async (t) => {
    const c = await t.data.collection();
    const trash = await t.api.trashCollection(c.id);
    if (!succeeded(trash))
      throw new KitError(`the profile's trash_collection endpoint did not trash the collection: ${show(trash)}`);
    const again = await t.api.createCollection({ id: c.id, title: `After trash ${t.data.word()}` });
    await t.verify('collections.create.id-conflict-409-trashed', () => {
      expect(again.status, `a trashed collection still exists, so its id gives 409: ${show(again)}`).toBe(409);
    });
  },
);

check(
  "the id of another user's collection is answered 409 and that collection is unchanged",
  {
    rules: ['collections.create.id-conflict-409-other-user'],
  },
  async (t) => {
    const other = t.secondary();
    const theirs = await t.data.collection(`Theirs ${t.data.word()}`, {}, other);
    const before = await collectionState(other, theirs.id);
    const mine = await t.api.createCollection({ id: theirs.id, title: `Mine ${t.data.word()}` });
    await t.verify('collections.create.id-conflict-409-other-user', async () => {
      expect(mine.status, `an id that already exists, whoever owns it, gives 409: ${show(mine)}`).toBe(409);
      expect(await collectionState(other, theirs.id), "the other user's collection is unchanged").toEqual(before);
    });
  },
);

check('a collection id that is not a UUID is refused', { rules: ['collections.create.id-must-be-uuid'] }, async (t) => {
  for (const id of ['collection-1', '12345', '0b6f7a52-3c1e-4f0e-9d7a-1b2c3d4e5f6']) {
    const x = await t.api.createCollection({ id, title: `Bad id ${t.data.word()}` });
    await t.verify('collections.create.id-must-be-uuid', () =>
      expectRefused(x, `a create with id ${JSON.stringify(id)}`),
    );
  }
});

check(
  'supplied timestamps are kept, and each one missing takes the other',
  {
    rules: [
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
    const onlyCreated = await t.api.createCollection({ title: `Created ${t.data.word()}`, created_at: w.at(1_000) });
    const onlyUpdated = await t.api.createCollection({ title: `Updated ${t.data.word()}`, updated_at: w.at(5_000) });
    const ok = expectDone;
    const read = succeeded(both) ? await collectionState(t.api, String(json(both).id)) : undefined;
    await t.verify('collections.create.created-at-honoured', () => {
      expectSameInstant(
        ok(both, 'a create with both timestamps').created_at,
        w.at(2_000),
        'created_at when both were supplied',
        t.precisionMs,
      );
      expect(read?.created_at, 'a read shows the supplied created_at').toBe(w.ms(2_000));
      expectSameInstant(
        ok(onlyCreated, 'a create with created_at only').created_at,
        w.at(1_000),
        'created_at when only it was supplied',
        t.precisionMs,
      );
    });
    await t.verify('collections.create.updated-at-honoured', () => {
      expectSameInstant(
        ok(both, 'a create with both timestamps').updated_at,
        w.at(3_000),
        'updated_at when both were supplied',
        t.precisionMs,
      );
      expect(read?.updated_at, 'a read shows the supplied updated_at').toBe(w.ms(3_000));
      expectSameInstant(
        ok(onlyUpdated, 'a create with updated_at only').updated_at,
        w.at(5_000),
        'updated_at when only it was supplied',
        t.precisionMs,
      );
    });
    await t.verify('collections.create.created-at-defaults-to-updated-at', () => {
      expectSameInstant(
        ok(onlyUpdated, 'a create with updated_at only').created_at,
        w.at(5_000),
        'an omitted created_at takes the given updated_at',
        t.precisionMs,
      );
    });
    await t.verify('collections.create.updated-at-defaults-to-created-at', () => {
      expectSameInstant(
        ok(onlyCreated, 'a create with created_at only').updated_at,
        w.at(1_000),
        'an omitted updated_at takes the given created_at, not server time',
        t.precisionMs,
      );
    });
  },
);

check(
  'a timestamp without an offset or in the future is refused and creates nothing',
  {
    rules: [
      'collections.create.created-at-offset-required',
      'collections.create.created-at-not-future',
      'collections.create.updated-at-offset-required',
      'collections.create.updated-at-not-future',
    ],
  },
  async (t) => {
    const title = `Refused ${t.data.word()}`;
    await expectCreatesRefused(t, 'collection', [
      {
        rules: 'collections.create.created-at-offset-required',
        body: { title, created_at: '2020-02-03T04:05:06' },
        what: 'created_at without a timezone offset',
      },
      {
        rules: 'collections.create.created-at-not-future',
        body: { title, created_at: futureIso(t) },
        what: 'created_at in the future',
      },
      {
        rules: 'collections.create.updated-at-offset-required',
        body: { title, updated_at: '2020-02-03T04:05:06' },
        what: 'updated_at without a timezone offset',
      },
      {
        rules: 'collections.create.updated-at-not-future',
        body: { title, updated_at: futureIso(t) },
        what: 'updated_at in the future',
      },
    ]);
  },
);
