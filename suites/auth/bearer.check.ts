import { randomUUID } from 'node:crypto';
import { checks } from '../harness/index.js';

const { check } = checks();

/**
 * Every endpoint without credentials, then reads with the token: the oracle judges each refusal
 * (and its declared status), and on the reads that the refused writes changed nothing and the
 * refused create made nothing (kit/core/behaviour/predict.ts).
 */
check(
  'every endpoint refuses a request without credentials, and a refused write changes nothing',
  { oracle: ['auth.bearer.required', 'errors.status.unauthenticated'] },
  async (t) => {
    const note = await t.data.note();
    const coll = await t.data.collection();
    const fresh = randomUUID();
    const anon = (method: string, path: string, json?: unknown, query?: Record<string, string>) =>
      t.api.raw({ method, path, token: null, ...(json === undefined ? {} : { json }), ...(query ? { query } : {}) });
    await anon('POST', '/v2/notes', { id: fresh, content: t.data.content('Anonymous') });
    await anon('GET', `/v2/notes/${note.id}`);
    await anon('PATCH', `/v2/notes/${note.id}`, { content: 'x', version: note.version });
    await anon('PATCH', `/v2/notes/${note.id}/created-at`, { created_at: '2020-01-01T00:00:00Z' });
    await anon('DELETE', `/v2/notes/${note.id}`);
    await anon('POST', `/v2/notes/${note.id}/trash`);
    await anon('GET', '/v2/notes', undefined, { limit: '1' });
    await anon('POST', '/v2/notes/search', { query: 'anything' });
    await anon('GET', `/v2/notes/${note.id}/related-notes`);
    await anon('POST', '/v2/collections', { title: 'Anonymous' });
    await anon('GET', `/v2/collections/${coll.id}`);
    await anon('PATCH', `/v2/collections/${coll.id}`, { title: 'Anonymous' });
    await anon('DELETE', `/v2/collections/${coll.id}`);
    await anon('GET', '/v2/collections');
    await anon('POST', '/v2/collections/search', {});
    await anon('PUT', `/v2/collections/${coll.id}/notes/${note.id}`);
    await anon('POST', `/v2/collections/${coll.id}/notes/${note.id}/move`, { target_collection_id: coll.id });
    await anon('GET', `/v2/note-attachments/${randomUUID()}/download-url`);
    await t.api.getNote(fresh);
    await t.api.getNote(note.id);
    await t.api.getCollection(coll.id);
  },
);

/**
 * A made-up token, an empty bearer, another scheme and the token without its scheme, on a read and on
 * a write (which must create nothing: the read of its id after); the smoke tier sends the writes only.
 */
check(
  'an unknown token, an empty bearer and another scheme are refused',
  { oracle: ['auth.bearer.invalid-refused'], smoke: true },
  async (t) => {
    const fresh = randomUUID();
    const forms = [
      `Bearer not-a-real-token-${t.data.word()}`,
      'Bearer ',
      'Bearer',
      `Basic ${Buffer.from('user:pass').toString('base64')}`,
      t.ctx.tokens.primary,
    ];
    const methods: Array<'GET' | 'POST'> = t.ctx.tier === 'smoke' ? ['POST'] : ['GET', 'POST'];
    for (const authorization of forms)
      for (const method of methods)
        await t.api.raw({
          method,
          path: '/v2/notes',
          authorization,
          ...(method === 'POST' ? { json: { id: fresh, content: t.data.content('Bad token') } } : {}),
        });
    await t.api.getNote(fresh);
  },
);
