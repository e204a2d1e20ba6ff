import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { errorBodyProblems } from '../../spec/error-body.js';
import type { RefusalKind } from '../../spec/profile.js';
import type { RuleId } from '../../spec/rule-ids.js';
import { checks, type Exchange, expectDeclaredStatus, expectRefused, setupOk, show } from '../harness/index.js';
import { noteState } from '../harness/patterns.js';

const { check } = checks();

check(
  'operations on a note or collection that does not exist are refused with a 4xx',
  {
    rules: ['errors.missing.note-refused', 'errors.missing.collection-refused', 'errors.status.not-found'],
    smoke: true,
  },
  async (t) => {
    const missing = randomUUID();
    // The smoke tier reads and updates a missing note and reads a missing collection (three requests, nothing
    // created); the full tier tries every operation.
    const smoke = t.ctx.tier === 'smoke';
    const notes: Array<[string, Exchange]> = [
      ['read', await t.api.getNote(missing)],
      ['update', await t.api.updateNote(missing, { content: t.data.content('x'), version: 1 })],
    ];
    if (!smoke)
      notes.push(
        ['delete', await t.api.deleteNote(missing)],
        ['set created_at', await t.api.setCreatedAt(missing, { created_at: '2020-01-01T00:00:00Z' })],
        ['trash', await t.api.trashNote(missing)],
        ['ask related notes of', await t.api.relatedNotes(missing)],
      );
    await t.verify('errors.missing.note-refused', () => {
      for (const [what, x] of notes) expectRefused(x, `${what} a note that does not exist`);
    });
    const collections: Array<[string, Exchange]> = [['read', await t.api.getCollection(missing)]];
    if (!smoke)
      collections.push(
        ['update', await t.api.updateCollection(missing, { title: 'x' })],
        ['delete', await t.api.deleteCollection(missing)],
      );
    await t.verify('errors.missing.collection-refused', () => {
      for (const [what, x] of collections) expectRefused(x, `${what} a collection that does not exist`);
    });
    const declared = t.profile.statuses?.not_found;
    if (declared === undefined)
      return t.skipRule('errors.status.not-found', 'the profile declares no statuses.not_found');
    await t.verify('errors.status.not-found', () => {
      expectDeclaredStatus(notes[0]![1], 'not_found', declared, 'reading a missing note');
      expectDeclaredStatus(collections[0]![1], 'not_found', declared, 'reading a missing collection');
    });
  },
);

check(
  'bad input gets a 4xx, never a 5xx, and changes nothing; refusals use the statuses and body the profile declares',
  {
    rules: [
      'errors.bad-input.no-5xx',
      'errors.status.validation',
      'errors.status.version-mismatch',
      'errors.status.trashed',
      'errors.body.shape',
    ],
  },
  async (t) => {
    // One note serves both parts: first the bad input it must survive unchanged, then the refusals
    // (stale version, trashed) whose statuses are judged.
    const id = randomUUID();
    const note = await t.data.note();
    const before = await noteState(t.api, note.id);
    // Each is judged as soon as it is answered, so a failure's evidence and repro are that exchange.
    const attempts: Array<[string, () => Promise<Exchange>]> = [
      [
        'a truncated JSON body',
        () => t.api.raw({ method: 'POST', path: '/v2/notes', raw: `{"id":"${id}","content":"x"` }),
      ],
      ['a body that is not JSON', () => t.api.raw({ method: 'POST', path: '/v2/notes', raw: 'content=hello' })],
      ['a JSON array', () => t.api.raw({ method: 'POST', path: '/v2/notes', json: [{ content: 'x' }] })],
      [
        'a version that is a string',
        () =>
          t.api.raw({
            method: 'PATCH',
            path: `/v2/notes/${note.id}`,
            json: { content: t.data.content('x'), version: String(note.version) },
          }),
      ],
      [
        'content that is a number',
        () =>
          t.api.raw({
            method: 'PATCH',
            path: `/v2/notes/${note.id}`,
            json: { content: 12, version: note.version },
          }),
      ],
      ['an unknown order_by', () => t.api.listNotes({ order_by: 'title' })],
      ['a limit that is not a number', () => t.api.listNotes({ limit: 'many' })],
      ['a query that is an object', () => t.api.searchNotes({}, { query: { text: 'x' } })],
      [
        'a collection title that is a number',
        () => t.api.raw({ method: 'POST', path: '/v2/collections', json: { title: 12 } }),
      ],
      [
        'deeply nested JSON',
        () => t.api.raw({ method: 'POST', path: '/v2/notes', raw: `${'['.repeat(5000)}${']'.repeat(5000)}` }),
      ],
    ];
    for (const [what, send] of attempts) {
      const x = await send();
      await t.verify('errors.bad-input.no-5xx', () => expectRefused(x, what));
    }
    // Invalid UTF-8 may be refused or decoded with replacement characters (the document does not
    // say); it must not crash the server. Sent with its own id, so a create it makes is not counted.
    const utf8 = await t.api.raw({
      method: 'POST',
      path: '/v2/notes',
      raw: Buffer.concat([
        Buffer.from(`{"id":"${randomUUID()}","content":"`),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from('"}'),
      ]),
    });
    await t.verify('errors.bad-input.no-5xx', () =>
      expect(utf8.status < 500, `invalid UTF-8 must not be answered with a 5xx: ${show(utf8)}`).toBe(true),
    );
    const made = await t.api.getNote(id);
    const after = await noteState(t.api, note.id);
    await t.verify('errors.bad-input.no-5xx', () => {
      expect(made.status, 'no bad request created the note').not.toBe(200);
      expect(after, 'no bad update changed the note').toEqual(before);
    });

    const statuses = t.profile.statuses ?? {};
    const shape = t.profile.error_body;
    const rule: Record<string, RuleId> = {
      validation: 'errors.status.validation',
      version_mismatch: 'errors.status.version-mismatch',
      trashed: 'errors.status.trashed',
    };
    if (
      statuses.validation === undefined &&
      statuses.version_mismatch === undefined &&
      statuses.trashed === undefined &&
      !shape
    ) {
      return t.skipRule(
        [...Object.values(rule), 'errors.body.shape'],
        'the profile declares no refusal statuses and no error body',
      );
    }
    const refusals: Array<[RefusalKind, string, Exchange]> = [];
    refusals.push(['validation', 'a create without content', await t.api.createNote({ title: 'no content' })]);
    // The version the note has now (read above), whatever the bad input did to it.
    const updated = setupOk(
      await t.api.updateNote(note.id, { content: t.data.content('v2'), version: after.version }),
      'update the note',
    );
    refusals.push([
      'version_mismatch',
      'an update with a stale version',
      await t.api.updateNote(note.id, { content: t.data.content('stale'), version: after.version }),
    ]);
    setupOk(await t.api.trashNote(note.id), 'trash the note');
    refusals.push([
      'trashed',
      'an update of a trashed note',
      await t.api.updateNote(note.id, { content: t.data.content('trashed'), version: updated.version }),
    ]);
    refusals.push([
      'trashed',
      'set-created-at on a trashed note',
      await t.api.setCreatedAt(note.id, { created_at: '2020-01-01T00:00:00Z' }),
    ]);
    for (const [kind, what, x] of refusals) {
      const declared = statuses[kind];
      if (declared !== undefined) await t.verify(rule[kind]!, () => expectDeclaredStatus(x, kind, declared, what));
      else t.skipRule(rule[kind]!, `the profile declares no statuses.${kind}`);
    }
    if (!shape) return t.skipRule('errors.body.shape', 'the profile declares no error_body');
    // Only what the profile declares is judged: a kind, a message, or both.
    await t.verify('errors.body.shape', () => {
      for (const [kind, what, x] of refusals)
        expect(errorBodyProblems(x.json, shape, kind), `${what}: ${show(x)}`).toEqual([]);
    });
  },
);
