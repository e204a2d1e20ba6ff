import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import {
  type CheckContext,
  checks,
  type Exchange,
  expectDeclaredStatus,
  expectRefused,
  setupOk,
  show,
} from '../harness/index.js';

const { check } = checks();

check(
  'every endpoint refuses a request without credentials, and a refused write changes nothing',
  {
    rules: ['auth.bearer.required', 'errors.status.unauthenticated'],
  },
  async (t) => {
    const note = await t.data.note();
    const coll = await t.data.collection();
    const fresh = randomUUID();
    const anon = (method: string, path: string, json?: unknown, query?: Record<string, string>) =>
      t.api.raw({ method, path, token: null, ...(json === undefined ? {} : { json }), ...(query ? { query } : {}) });
    const attempts: Array<[string, Promise<Exchange>]> = [
      ['create a note', anon('POST', '/v2/notes', { id: fresh, content: t.data.content('Anonymous') })],
      ['read a note', anon('GET', `/v2/notes/${note.id}`)],
      ['update a note', anon('PATCH', `/v2/notes/${note.id}`, { content: 'x', version: note.version })],
      ['set created_at', anon('PATCH', `/v2/notes/${note.id}/created-at`, { created_at: '2020-01-01T00:00:00Z' })],
      ['delete a note', anon('DELETE', `/v2/notes/${note.id}`)],
      ['trash a note', anon('POST', `/v2/notes/${note.id}/trash`)],
      ['list notes', anon('GET', '/v2/notes', undefined, { limit: '1' })],
      ['search notes', anon('POST', '/v2/notes/search', { query: 'anything' })],
      ['related notes', anon('GET', `/v2/notes/${note.id}/related-notes`)],
      ['create a collection', anon('POST', '/v2/collections', { title: 'Anonymous' })],
      ['read a collection', anon('GET', `/v2/collections/${coll.id}`)],
      ['update a collection', anon('PATCH', `/v2/collections/${coll.id}`, { title: 'Anonymous' })],
      ['delete a collection', anon('DELETE', `/v2/collections/${coll.id}`)],
      ['list collections', anon('GET', '/v2/collections')],
      ['search collections', anon('POST', '/v2/collections/search', {})],
      ['add a note to a collection', anon('PUT', `/v2/collections/${coll.id}/notes/${note.id}`)],
      [
        'move a note',
        anon('POST', `/v2/collections/${coll.id}/notes/${note.id}/move`, { target_collection_id: coll.id }),
      ],
      ['attachment download URL', anon('GET', `/v2/note-attachments/${randomUUID()}/download-url`)],
    ];
    const results: Array<[string, Exchange]> = [];
    for (const [what, x] of attempts) results.push([what, await x]);
    await t.verify('auth.bearer.required', async () => {
      await expectNoNote(t, fresh, 'a refused anonymous create made no note');
      for (const [what, x] of results) expectRefused(x, `${what} without an Authorization header`);
      const still = setupOk(await t.api.getNote(note.id), 'read the note with the token');
      expect(still.content, 'refused anonymous writes changed nothing').toBe(note.json.content);
      expect(
        setupOk(await t.api.getCollection(coll.id), 'read the collection').title,
        'the collection is unchanged',
      ).toBe(coll.json.title);
    });
    const declared = t.profile.statuses?.unauthenticated;
    if (declared === undefined)
      return t.skipRule('errors.status.unauthenticated', 'the profile declares no statuses.unauthenticated');
    await t.verify('errors.status.unauthenticated', () => {
      for (const [what, x] of results)
        expectDeclaredStatus(x, 'unauthenticated', declared, `${what} without credentials`);
    });
  },
);

check(
  'an unknown token, an empty bearer and another scheme are refused',
  { rules: ['auth.bearer.invalid-refused'], smoke: true },
  async (t) => {
    const fresh = randomUUID();
    const unknown = `Bearer not-a-real-token-${t.data.word()}`;
    const withoutScheme = t.ctx.tokens.primary;
    const shown = (authorization: string) =>
      authorization === withoutScheme ? '<token without Bearer>' : authorization.replace(/ .{8,}$/, ' …');
    // Every form on a read and on a write (which must create nothing); the smoke tier sends the writes only.
    const forms = [unknown, 'Bearer ', 'Bearer', `Basic ${Buffer.from('user:pass').toString('base64')}`, withoutScheme];
    const methods: Array<'GET' | 'POST'> = t.ctx.tier === 'smoke' ? ['POST'] : ['GET', 'POST'];
    const attempts = forms.flatMap((a) => methods.map((method): [string, 'GET' | 'POST'] => [a, method]));
    for (const [authorization, method] of attempts) {
      const json = method === 'POST' ? { json: { id: fresh, content: t.data.content('Bad token') } } : {};
      const x = await t.api.raw({ method, path: '/v2/notes', authorization, ...json });
      await t.verify('auth.bearer.invalid-refused', () =>
        expectRefused(x, `${method} /v2/notes with Authorization "${shown(authorization)}"`),
      );
    }
    await t.verify('auth.bearer.invalid-refused', () =>
      expectNoNote(t, fresh, 'a create with bad credentials made no note'),
    );
  },
);

/**
 * A create the target should have refused made no note with this id; if it did, the note (which no
 * journal knows) is deleted before the expectation fails. One read when all is well.
 */
async function expectNoNote(t: CheckContext, id: string, what: string): Promise<void> {
  const read = await t.api.getNote(id);
  if (read.status === 200) await t.api.deleteNote(id);
  expect(read.status, `${what}: ${show(read)}`).not.toBe(200);
}
