import { expect } from 'vitest';
import type { RuleId } from '../../spec/rule-ids.js';
import type { Exchange } from '../harness/index.js';
import { checks, expectRefused, expectSameInstant, expectServerTime, setupOk, show } from '../harness/index.js';
import { collectionState, collectionStateOf, futureIso } from '../harness/patterns.js';
import { expectRefusalsChangeNothing } from '../harness/refusals.js';
import { perFile } from '../harness/shared.js';

const { check } = checks();

const json = (x: Exchange) => (x.json ?? {}) as Record<string, unknown>;
// A success is any 2xx here: the exact 200 is conventions.success.status-200's business.
const succeeded = (x: Exchange) => x.status >= 200 && x.status < 300;
function expectDone(x: Exchange, what: string): Record<string, unknown> {
  expect(succeeded(x), `${what} should succeed: ${show(x)}`).toBe(true);
  return json(x);
}
const sorted = (values: unknown) => [...((values as string[] | undefined) ?? [])].sort();
/** Field names that would give a collection a state; the document says collections have none. */
const STATE_FIELDS = ['trashed_at', 'state', 'status', 'trashed', 'is_trashed', 'deleted_at'];

/**
 * The collection this file's refusal check and delete check share (one create and one delete for
 * both): the one sends it refused PATCHes and then one at the limits, the other only links a note
 * to it. Each reads what it judges (a broken target may have taken an earlier refused PATCH).
 */
const sharedCollection = perFile((t) => t.data.collection(`Shared ${t.data.word()}`, { description: 'shared' }));

check(
  'a read shows metadata and note_count, no note list; PATCH changes only the fields sent, answers without note_count, keeps a supplied updated_at',
  {
    rules: [
      'collections.read.response-fields',
      'collections.read.note-count',
      'collections.read.no-note-list',
      'collections.read.no-state-field',
      'collections.update.response-fields',
      'collections.update.response-omits-note-count',
      'collections.update.partial',
      'collections.update.fields-applied',
      'collections.update.updated-at-preserved',
      'collections.update.updated-at-defaults-to-server-time',
    ],
  },
  async (t) => {
    const w = t.data.window();
    // Backdated, so "left unchanged" and "set to server time" cannot look alike.
    const c = await t.data.collection(`Read ${t.data.word()}`, {
      description: 'kept description',
      created_at: w.at(0),
      updated_at: w.at(1_000),
    });
    const notes = [
      await t.data.note(t.data.content(`Held ${t.data.word()}`), { collection_ids: [c.id] }),
      await t.data.note(t.data.content(`Also held ${t.data.word()}`), { collection_ids: [c.id] }),
    ];
    const title = `Renamed ${t.data.word()}`;
    const x = await t.api.updateCollection(c.id, { title, updated_at: w.at(5_000) });
    // One read after the title PATCH serves the read rules and what that PATCH left.
    const read = await t.api.getCollection(c.id);
    const r = setupOk(read, 'read the collection');
    await t.verify('collections.read.response-fields', () => {
      expect(
        t.schemaProblems(read, 'CollectionReadResponse'),
        `the read response lacks documented fields or has wrong types: ${show(read)}`,
      ).toEqual([]);
    });
    await t.verify('collections.read.note-count', () => {
      expect(r.note_count, 'note_count counts the two active notes the collection holds').toBe(2);
    });
    await t.verify('collections.read.no-note-list', () => {
      const lists = Object.entries(r)
        .filter(([, v]) => Array.isArray(v))
        .map(([k]) => k);
      expect(lists, 'the read response carries metadata only, no list').toEqual([]);
      const text = JSON.stringify(r);
      for (const n of notes)
        expect(text.includes(n.id), `the read response mentions note ${n.id}, which the collection holds`).toBe(false);
    });
    const afterTitle = collectionStateOf(read);
    const sentAt = Date.now();
    const y = await t.api.updateCollection(c.id, { description: 'new description' });
    const afterDescription = await collectionState(t.api, c.id);
    const [a, b] = [json(x), json(y)];
    await t.verify('collections.update.response-fields', () => {
      for (const [what, u] of [
        ['title and updated_at', x],
        ['description', y],
      ] as const) {
        expectDone(u, `a PATCH with ${what}`);
        expect(
          t.schemaProblems(u, 'CollectionFields'),
          `the update response lacks documented fields or has wrong types: ${show(u)}`,
        ).toEqual([]);
        expect(typeof json(u).request_id, 'the update response carries request_id').toBe('string');
      }
      expect(b.description, 'the update response shows the new description').toBe('new description');
    });
    // A refused PATCH's body is an error body: only the answers of PATCHes that succeeded are judged as
    // update responses (their success is judged under response-fields and partial).
    const answered = [x, y].filter(succeeded).map(json);
    await t.verify('collections.update.response-omits-note-count', () => {
      for (const u of answered)
        expect(u, 'note_count is absent from the update response').not.toHaveProperty('note_count');
    });
    await t.verify('collections.read.no-state-field', () => {
      for (const [what, body] of [
        ['create', c.json],
        ['read', r],
        ...(succeeded(x) ? [['title update', a] as const] : []),
        ...(succeeded(y) ? [['description update', b] as const] : []),
      ] as const) {
        for (const field of STATE_FIELDS)
          expect(body, `collections have no state field, but the ${what} response carries ${field}`).not.toHaveProperty(
            field,
          );
      }
    });
    await t.verify('collections.update.partial', () => {
      expectDone(x, 'a PATCH with title and updated_at');
      expectDone(y, 'a PATCH with description only');
      expect(
        { title: a.title, description: a.description },
        'a PATCH with only title leaves description unchanged (response)',
      ).toEqual({ title, description: 'kept description' });
      expect({ title: afterTitle.title, description: afterTitle.description }, '... and on a read').toEqual({
        title,
        description: 'kept description',
      });
      expect(
        { title: b.title, description: b.description },
        'a PATCH with only description leaves title unchanged (response)',
      ).toEqual({ title, description: 'new description' });
      expect({ title: afterDescription.title, description: afterDescription.description }, '... and on a read').toEqual(
        { title, description: 'new description' },
      );
      // created_at is not among the fields a PATCH updates. Compared with what the create answered (not
      // the value sent, which a coarser clock may store truncated), as instants: the offset may be rewritten.
      const created = Date.parse(String(c.json.created_at));
      for (const [what, value] of [
        ['the title PATCH response', a.created_at],
        ['the description PATCH response', b.created_at],
      ] as const) {
        expectSameInstant(value, created, `created_at in ${what}`, t.precisionMs);
      }
      expect([afterTitle.created_at, afterDescription.created_at], 'created_at on reads after each PATCH').toEqual([
        created,
        created,
      ]);
    });
    await t.verify('collections.update.updated-at-preserved', () => {
      expectDone(x, 'a PATCH with title and updated_at');
      expectSameInstant(
        a.updated_at,
        w.at(5_000),
        'updated_at in the response to a PATCH that supplied it',
        t.precisionMs,
      );
      expect(afterTitle.updated_at, 'a read shows the supplied updated_at').toBe(w.ms(5_000));
    });
    await t.verify('collections.update.updated-at-defaults-to-server-time', () => {
      expectDone(y, 'a PATCH with description only');
      expectServerTime(b.updated_at, y, sentAt, t.ctx.clockToleranceMs, 'updated_at after a PATCH without one');
    });
  },
);

check(
  'a collection_id that is not a UUID is refused with a 4xx',
  { rules: ['collections.read.invalid-id-refused'] },
  async (t) => {
    const attempts: Array<[string, () => Promise<Exchange>]> = [
      ['GET /v2/collections/not-a-uuid', () => t.api.getCollection('not-a-uuid')],
      ['PATCH /v2/collections/xxx…', () => t.api.updateCollection('x'.repeat(36), { title: 'x' })],
      ['DELETE /v2/collections/0b6f…', () => t.api.deleteCollection('0b6f7a52-3c1e-4f0e-9d7a-1b2c3d4e5f6')],
    ];
    for (const [what, send] of attempts) {
      const x = await send();
      await t.verify('collections.read.invalid-id-refused', () => expectRefused(x, what));
    }
  },
);

check(
  'a PATCH with a wrong type, a bad updated_at or an oversized title or description is refused and changes nothing; the limits are allowed',
  {
    rules: [
      'collections.update.field-types',
      'collections.update.updated-at-offset-required',
      'collections.update.updated-at-not-future',
      'collections.update.title-max-chars',
      'collections.update.title-max-bytes',
      'collections.update.description-max-chars',
      'collections.update.description-max-bytes',
    ],
  },
  async (t) => {
    const word = t.data.word();
    const c = await sharedCollection(t);
    const before = await collectionState(t.api, c.id);
    // A title new with every send: the attempts that supply updated_at would otherwise store the same state
    // again when the helper sends them a second time to find the one a broken target took.
    let sent = 0;
    const changed = () => `Must not be stored ${word} ${++sent}`;
    const attempts: Array<[RuleId, () => Record<string, unknown>, string]> = [
      ['collections.update.field-types', () => ({ title: 42 }), 'a PATCH with a numeric title'],
      ['collections.update.field-types', () => ({ description: 7 }), 'a PATCH with a numeric description'],
      [
        'collections.update.field-types',
        () => ({ description: [changed()] }),
        'a PATCH with a description that is an array',
      ],
      [
        'collections.update.updated-at-offset-required',
        () => ({ title: changed(), updated_at: '2021-03-04T05:06:07' }),
        'a PATCH whose updated_at has no timezone offset',
      ],
      [
        'collections.update.updated-at-not-future',
        () => ({ title: changed(), updated_at: futureIso(t) }),
        'a PATCH whose updated_at is in the future',
      ],
      [
        'collections.update.title-max-chars',
        () => ({ title: 'a'.repeat(1_001) }),
        'a PATCH with a title of 1,001 characters',
      ],
      [
        'collections.update.title-max-bytes',
        () => ({ title: `${word} ${'\u00e9'.repeat(500)}` }),
        'a PATCH with a title over 1,000 UTF-8 bytes (about 520 characters)',
      ],
      [
        'collections.update.description-max-chars',
        () => ({ description: 'a'.repeat(10_001) }),
        'a PATCH with a description of 10,001 characters',
      ],
      [
        'collections.update.description-max-bytes',
        () => ({ description: `${word} ${'\u00e9'.repeat(5_000)}` }),
        'a PATCH with a description over 10,000 UTF-8 bytes',
      ],
    ];
    // Every attempt writes a title or description other than the collection's (this run's word is in each
    // string; a coerced number or array would be new too); a change is charged to the attempts that make it.
    await expectRefusalsChangeNothing(
      t,
      attempts.map(([rule, body, what]) => ({ rules: rule, what, send: () => t.api.updateCollection(c.id, body()) })),
      () => collectionState(t.api, c.id),
      before,
    );
    // Last, as the one accepted write to the shared collection: the other check only links a note to it.
    const limits = { title: `${word} ${'a'.repeat(1_000)}`.slice(0, 1_000), description: 'b'.repeat(10_000) };
    const atLimits = await t.api.updateCollection(c.id, limits);
    await t.verify(['collections.update.title-max-chars', 'collections.update.description-max-chars'], () => {
      const u = expectDone(atLimits, 'a PATCH with a title of 1,000 and a description of 10,000 characters');
      expect({ title: u.title, description: u.description }, 'both are stored whole').toEqual(limits);
    });
  },
);

check(
  'a caller with only access to a collection can neither update nor delete it',
  {
    rules: ['collections.update.requires-edit', 'collections.delete.requires-edit'],
    needs: ['fixtures:users', 'fixtures:grants'],
  },
  async (t) => {
    const c = await t.data.collection(`Shared ${t.data.word()}`, { description: 'read only for the guest' });
    const { user, api: guest } = await t.fixtureUser();
    await t.fixtures().grant('collection', c.id, user.user_id, 'access');
    setupOk(await guest.getCollection(c.id), 'the guest reads the collection shared with access');
    const before = await collectionState(t.api, c.id);
    const update = await guest.updateCollection(c.id, {
      title: `Guest edit ${t.data.word()}`,
      description: 'changed by the guest',
    });
    await t.verify('collections.update.requires-edit', async () => {
      expectRefused(update, 'a PATCH by a caller with access only');
      expect(await collectionState(t.api, c.id), 'the collection is unchanged').toEqual(before);
    });
    const del = await guest.deleteCollection(c.id);
    await t.verify('collections.delete.requires-edit', async () => {
      expectRefused(del, 'a DELETE by a caller with access only');
      const read = await t.api.getCollection(c.id);
      expect(succeeded(read), `the collection survives a refused delete: ${show(read)}`).toBe(true);
    });
  },
);

check(
  'DELETE removes the collection for good and answers {request_id}; its notes stay, without the link',
  {
    rules: [
      'collections.delete.response-fields',
      'collections.delete.permanent',
      'collections.delete.unlinks-notes',
      'collections.delete.notes-survive',
    ],
  },
  async (t) => {
    const gone = await t.data.collection(`Deleted ${t.data.word()}`);
    // Any collection the note stays in will do: the file's shared one.
    const kept = await sharedCollection(t);
    // A time window only this note uses: the note list is a second view of it if a read fails.
    const w = t.data.window();
    const note = await t.data.note(undefined, { collection_ids: [gone.id, kept.id], created_at: w.at(0) });
    const del = await t.api.deleteCollection(gone.id);
    await t.verify('collections.delete.response-fields', () => {
      expectDone(del, 'DELETE of a collection');
      expect(t.schemaProblems(del, 'RequestIdOnly'), `DELETE answers {request_id}: ${show(del)}`).toEqual([]);
    });
    await t.verify('collections.delete.permanent', async () => {
      expectRefused(await t.api.getCollection(gone.id), 'reading a deleted collection');
    });
    const read = await t.api.getNote(note.id);
    await t.verify('collections.delete.notes-survive', () => {
      expect(succeeded(read), `the note the collection held is still there: ${show(read)}`).toBe(true);
    });
    // A read that fails (collections.delete.notes-survive reports it) must not pass this rule unjudged:
    // the note list shows collection_ids too. Only a note gone from both views leaves nothing to judge.
    let shown: { where: string; ids: unknown } | undefined = succeeded(read)
      ? { where: 'on a read', ids: json(read).collection_ids }
      : undefined;
    if (!shown) {
      const listed = setupOk(
        await t.api.listNotes({ created_after: w.at(-1_000), created_before: w.at(1_000) }),
        'list the note by its creation time',
      );
      const item = ((listed.results as Array<{ id: string; collection_ids?: unknown }> | undefined) ?? []).find(
        (r) => r.id === note.id,
      );
      if (item) shown = { where: 'in the note list', ids: item.collection_ids };
    }
    if (!shown) {
      t.skipRule(
        'collections.delete.unlinks-notes',
        'the note the deleted collection held is gone from reads and from the note list, so no view is left to show its links',
      );
    } else {
      const { where, ids } = shown;
      await t.verify('collections.delete.unlinks-notes', () => {
        expect(sorted(ids), `the note no longer lists the deleted collection, and keeps the other (${where})`).toEqual([
          kept.id,
        ]);
      });
    }
  },
);
