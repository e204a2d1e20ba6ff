import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { checks, setupOk, show } from '../harness/index.js';
import { everyCheckRuns } from '../harness/patterns.js';

const { check } = checks();

/**
 * Every operation on an id nobody has: the oracle predicts each refused as missing, with the
 * declared status where there is one (kit/core/behaviour/predict.ts). First a note and a
 * collection that exist are read: the positive control, without which a target that refuses
 * every read would pass (kit/oracle-verdicts.ts), unless the other checks of the run read what
 * exists (every check of the full tier running, or the smoke tier). The smoke tier only reads and
 * updates a missing note and reads a missing collection.
 */
check(
  'operations on a note or collection that does not exist are refused with a 4xx',
  {
    oracle: ['errors.missing.note-refused', 'errors.missing.collection-refused', 'errors.status.not-found'],
    smoke: true,
  },
  async (t) => {
    const missing = randomUUID();
    const smoke = t.ctx.tier === 'smoke';
    // The smoke tier's other checks read notes and collections that exist (its budget has no room for
    // more), and so do the full tier's when they all run.
    if (!smoke && !everyCheckRuns(t)) {
      await t.api.getNote((await t.data.note()).id);
      await t.api.getCollection((await t.data.collection()).id);
    }
    await t.api.getNote(missing);
    await t.api.updateNote(missing, { content: t.data.content('x'), version: 1 });
    if (!smoke) {
      await t.api.deleteNote(missing);
      await t.api.setCreatedAt(missing, { created_at: '2020-01-01T00:00:00Z' });
      await t.api.trashNote(missing);
      await t.api.relatedNotes(missing);
    }
    await t.api.getCollection(missing);
    if (!smoke) {
      await t.api.updateCollection(missing, { title: 'x' });
      await t.api.deleteCollection(missing);
    }
  },
);

/**
 * Bad input of every kind, each refused with a 4xx and changing nothing (the reads after them), then
 * the refusals whose kind is certain (a create without content, a stale version, a trashed note),
 * each with the status and body the profile declares: the oracle judges them all.
 */
check(
  'bad input gets a 4xx, never a 5xx, and changes nothing; refusals use the statuses and body the profile declares',
  {
    oracle: [
      'errors.bad-input.no-5xx',
      'errors.status.validation',
      'errors.status.version-mismatch',
      'errors.status.trashed',
      'errors.body.shape',
    ],
  },
  async (t) => {
    const id = randomUUID();
    const note = await t.data.note();
    const path = `/v2/notes/${note.id}`;
    const content = t.data.content('x');
    await t.api.raw({ method: 'POST', path: '/v2/notes', raw: `{"id":"${id}","content":"x"` });
    await t.api.raw({ method: 'POST', path: '/v2/notes', raw: 'content=hello' });
    await t.api.raw({ method: 'POST', path: '/v2/notes', json: [{ content: 'x' }] });
    await t.api.raw({ method: 'PATCH', path, json: { content, version: String(note.version) } });
    await t.api.raw({ method: 'PATCH', path, json: { content: 12, version: note.version } });
    await t.api.listNotes({ order_by: 'title' });
    await t.api.listNotes({ limit: 'many' });
    await t.api.searchNotes({}, { query: { text: 'x' } });
    await t.api.raw({ method: 'POST', path: '/v2/collections', json: { title: 12 } });
    await t.api.raw({ method: 'POST', path: '/v2/notes', raw: `${'['.repeat(5000)}${']'.repeat(5000)}` });
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
    await t.api.getNote(id);
    const read = setupOk(await t.api.getNote(note.id), 'read the note');
    // The refusals of a certain kind.
    await t.api.createNote({ title: 'no content' });
    const updated = setupOk(
      await t.api.updateNote(note.id, { content: t.data.content('v2'), version: read.version }),
      'update the note',
    );
    await t.api.updateNote(note.id, { content: t.data.content('stale'), version: read.version });
    setupOk(await t.api.trashNote(note.id), 'trash the note');
    await t.api.updateNote(note.id, { content: t.data.content('trashed'), version: updated.version });
    await t.api.setCreatedAt(note.id, { created_at: '2020-01-01T00:00:00Z' });
  },
);
