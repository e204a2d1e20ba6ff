import { describe, expect, it } from 'vitest';
import type { Owner } from '../../../kit/core/ledger.js';
import type { Sent } from '../../../kit/core/oracle/observation.js';
import { Oracle, type OracleOptions } from '../../../kit/core/oracle/oracle.js';
import { answer } from './oracle-exchanges.js';

/**
 * The oracle's judgements of input (kit/core/oracle/inputs.ts, input-judge.ts, state-refusals.ts) on
 * hand-made exchanges: a documented problem accepted, a value at a limit refused, a refused create
 * that left something behind, refusals of a deleted or trashed note with the wrong declared status;
 * and where the document says nothing, silence.
 */
const NOTE = '11111111-1111-4111-8111-111111111111';
const COLL = '22222222-2222-4222-8222-222222222222';
const FRESH = '33333333-3333-4333-8333-333333333333';
const T0 = '2026-01-01T00:00:00.000Z';

const exchange = (method: string, path: string, status: number, json: unknown) =>
  answer(method, path, status, json, false);

function send(
  oracle: Oracle,
  sent: Partial<Sent> & Pick<Sent, 'op' | 'method' | 'path'>,
  status: number,
  json?: unknown,
): void {
  const pending = oracle.sending({ actor: 'primary' as Owner, ownToken: true, params: {}, ...sent });
  oracle.answered(pending, exchange(sent.method, sent.path, status, json));
}

const oracleWith = (options: Partial<OracleOptions> = {}) => new Oracle({ precisionMs: 1, lagMs: 0, ...options });
const findings = (oracle: Oracle, rule: string) => oracle.judgements.findings.get(rule) ?? [];
const found = (oracle: Oracle) => [...oracle.judgements.findings.keys()].sort();

const createNote = (oracle: Oracle, body: Record<string, unknown>, status: number, answer?: unknown) =>
  send(oracle, { op: 'createNote', method: 'POST', path: '/v2/notes', body }, status, answer);
const noteAnswer = (over: Record<string, unknown> = {}) => ({
  id: NOTE,
  title: 'Alpha',
  content: 'Alpha\nbody',
  created_at: T0,
  updated_at: T0,
  version: 1,
  collection_ids: [],
  ...over,
});
const refusal = { error: { type: 'validation_error', message: 'no' } };

describe('the oracle on documented bad input', () => {
  it('finds content past the create limit accepted, and judges a refusal of it a pass', () => {
    const oracle = oracleWith();
    createNote(oracle, { content: 'a'.repeat(200_001) }, 200, noteAnswer());
    expect(findings(oracle, 'notes.create.content-max-chars')[0]?.message).toMatch(/longer than 200000 characters/);
    const clean = oracleWith();
    createNote(clean, { content: 'é'.repeat(100_001) }, 400, refusal);
    expect(found(clean)).toEqual([]);
    expect(clean.judgements.judged.get('notes.create.content-max-bytes')).toBe(1);
  });

  it('finds a refusal without the declared validation status, only where nothing else explains it', () => {
    const oracle = oracleWith({ statuses: { validation: 400 } });
    createNote(oracle, { content: 'x', created_at: '2020-01-01T00:00:00' }, 422, refusal);
    expect(findings(oracle, 'errors.status.validation')).toHaveLength(1);
    // With no declaration only "a 4xx" is certain.
    const open = oracleWith();
    createNote(open, { content: 'x', created_at: '2020-01-01T00:00:00' }, 422, refusal);
    expect(found(open)).toEqual([]);
    // A version that is also a mismatch may be refused as one: no status is judged.
    const mismatch = oracleWith({ statuses: { validation: 400 } });
    createNote(mismatch, { content: 'Alpha\nbody' }, 200, noteAnswer());
    send(
      mismatch,
      {
        op: 'updateNote',
        method: 'PATCH',
        path: `/v2/notes/${NOTE}`,
        params: { note_id: NOTE },
        body: { content: 'b', version: 0 },
      },
      409,
      refusal,
    );
    expect(found(mismatch)).toEqual([]);
  });

  it('finds a refusal body without the kind or message the profile declares, and judges none undeclared', () => {
    const errorBody = {
      kind_pointer: '/error/type',
      message_pointer: '/error/message',
      kinds: { validation: 'validation_error' },
    };
    const bare = oracleWith({ errorBody });
    createNote(bare, { content: 'x', created_at: '2020-01-01T00:00:00' }, 400, { error: { message: 'no' } });
    expect(findings(bare, 'errors.body.shape')[0]?.message).toMatch(/no error kind at \/error\/type/);
    const wrong = oracleWith({ errorBody });
    createNote(wrong, { content: 'x', created_at: '2020-01-01T00:00:00' }, 400, {
      error: { type: 'oops', message: 'no' },
    });
    expect(findings(wrong, 'errors.body.shape')[0]?.message).toMatch(/declares validation_error for validation/);
    const right = oracleWith({ errorBody });
    createNote(right, { content: 'x', created_at: '2020-01-01T00:00:00' }, 400, refusal);
    expect(found(right)).toEqual([]);
    expect(right.judgements.judged.get('errors.body.shape')).toBe(1);
    // No error_body declared: section 7 shows none, so no body is judged.
    const open = oracleWith();
    createNote(open, { content: 'x', created_at: '2020-01-01T00:00:00' }, 400, { error: { message: 'no' } });
    expect(found(open)).toEqual([]);
  });

  it('finds a future created_at written with a west offset accepted, under not-future and compare-instants', () => {
    const oracle = oracleWith();
    const future = new Date(Date.now() + 3 * 3600_000);
    const west = `${new Date(future.getTime() - 5 * 3600_000).toISOString().slice(0, 19)}-05:00`;
    createNote(
      oracle,
      { content: 'x', created_at: west },
      200,
      noteAnswer({ content: 'x', title: 'x', created_at: west }),
    );
    expect(found(oracle)).toEqual(['conventions.timestamps.compare-instants', 'notes.create.created-at-not-future']);
  });

  it('finds a past instant written with a far-east offset refused', () => {
    const oracle = oracleWith();
    const past = new Date(Date.now() - 3600_000);
    const east = `${new Date(past.getTime() + 14 * 3600_000).toISOString().slice(0, 19)}+14:00`;
    createNote(oracle, { content: 'x', created_at: east }, 400, refusal);
    // A past instant with an offset is what the offset and future rules allow: refusing it breaks them too.
    expect(found(oracle)).toEqual([
      'conventions.timestamps.compare-instants',
      'notes.create.created-at-not-future',
      'notes.create.created-at-offset-required',
    ]);
  });

  it('finds a note under the id of a create it refused', () => {
    const oracle = oracleWith();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    createNote(oracle, { id: FRESH, content: 'x', created_at: future }, 400, refusal);
    expect(found(oracle)).toEqual([]);
    send(oracle, { op: 'getNote', method: 'GET', path: `/v2/notes/${FRESH}`, params: { note_id: FRESH } }, 200, {
      ...noteAnswer({ id: FRESH }),
      trashed_at: null,
    });
    expect(findings(oracle, 'notes.create.created-at-not-future')[0]?.message).toMatch(
      /a note whose create was refused \(POST \/v2\/notes answered 400\), as if that refusal had created it/,
    );
  });

  it('finds values exactly at a limit refused, and nothing when they are accepted', () => {
    const oracle = oracleWith();
    send(
      oracle,
      { op: 'createCollection', method: 'POST', path: '/v2/collections', body: { title: 'é'.repeat(500) } },
      400,
      refusal,
    );
    expect(found(oracle)).toEqual(['collections.create.title-max-bytes']);
    const search = oracleWith();
    send(
      search,
      {
        op: 'searchNotes',
        method: 'POST',
        path: '/v2/notes/search',
        input: { query: { limit: 50 }, body: { query: '  alpha ' } },
      },
      400,
      refusal,
    );
    expect(found(search)).toEqual(['notes.search.limit-range', 'notes.search.query-non-whitespace']);
    const fine = oracleWith();
    send(
      fine,
      { op: 'createCollection', method: 'POST', path: '/v2/collections', body: { title: 'a'.repeat(1000) } },
      200,
      {
        id: COLL,
        title: 'a'.repeat(1000),
        description: null,
        created_at: T0,
        updated_at: T0,
      },
    );
    expect(found(fine)).toEqual([]);
  });

  it('leaves alone what the document does not settle, and answers that are not about the input', () => {
    const oracle = oracleWith();
    createNote(oracle, { content: 'Alpha\nbody' }, 200, noteAnswer());
    const future = new Date(Date.now() + 86_400_000).toISOString();
    // A note update's updated_at has an offset rule but no "not in the future".
    send(
      oracle,
      {
        op: 'updateNote',
        method: 'PATCH',
        path: `/v2/notes/${NOTE}`,
        params: { note_id: NOTE },
        body: { content: 'B', version: 1, updated_at: future },
      },
      200,
      noteAnswer({ content: 'B', title: 'B', version: 2, updated_at: future, trashed_at: null }),
    );
    // A null title on a collection PATCH may mean "not provided".
    send(oracle, { op: 'createCollection', method: 'POST', path: '/v2/collections', body: { title: 'C' } }, 200, {
      id: COLL,
      title: 'C',
      description: null,
      created_at: T0,
      updated_at: T0,
    });
    send(
      oracle,
      {
        op: 'updateCollection',
        method: 'PATCH',
        path: `/v2/collections/${COLL}`,
        params: { collection_id: COLL },
        body: { title: null },
      },
      200,
      { id: COLL, title: 'C', description: null, created_at: T0, updated_at: T0 },
    );
    // Rate limited: no answer to the input at all.
    createNote(oracle, { content: 'a'.repeat(200_001) }, 429, { error: { type: 'rate_limited' } });
    createNote(oracle, { content: 'a'.repeat(200_000) }, 402, { error: { type: 'quota_exceeded' } });
    expect(found(oracle)).toEqual([]);
  });
});

describe('the oracle on refusals the shadow makes certain', () => {
  it('finds operations on a deleted note accepted, and the declared not-found status', () => {
    const oracle = oracleWith({ statuses: { not_found: 404 } });
    createNote(oracle, { content: 'Alpha\nbody' }, 200, noteAnswer());
    send(oracle, { op: 'deleteNote', method: 'DELETE', path: `/v2/notes/${NOTE}`, params: { note_id: NOTE } }, 200, {});
    send(
      oracle,
      {
        op: 'updateNote',
        method: 'PATCH',
        path: `/v2/notes/${NOTE}`,
        params: { note_id: NOTE },
        body: { content: 'B', version: 1 },
      },
      200,
      noteAnswer({ content: 'B', version: 2, trashed_at: null }),
    );
    send(oracle, { op: 'deleteNote', method: 'DELETE', path: `/v2/notes/${NOTE}`, params: { note_id: NOTE } }, 410, {});
    expect(found(oracle)).toEqual(['errors.missing.note-refused', 'errors.status.not-found', 'notes.delete.permanent']);
  });

  it('finds a version mismatch and a trashed note refused with other statuses than declared', () => {
    const oracle = oracleWith({ statuses: { version_mismatch: 409, trashed: 423 } });
    createNote(oracle, { content: 'Alpha\nbody' }, 200, noteAnswer());
    const update = (version: number, status: number) =>
      send(
        oracle,
        {
          op: 'updateNote',
          method: 'PATCH',
          path: `/v2/notes/${NOTE}`,
          params: { note_id: NOTE },
          body: { content: 'B', version },
        },
        status,
        refusal,
      );
    update(5, 409);
    expect(found(oracle)).toEqual([]);
    update(5, 400);
    expect(found(oracle)).toEqual(['errors.status.version-mismatch']);
    send(
      oracle,
      { op: 'trashNote', method: 'POST', path: `/v2/notes/${NOTE}/trash`, params: { note_id: NOTE } },
      200,
      {},
    );
    send(oracle, { op: 'getNote', method: 'GET', path: `/v2/notes/${NOTE}`, params: { note_id: NOTE } }, 200, {
      ...noteAnswer(),
      trashed_at: T0,
    });
    update(1, 409);
    expect(findings(oracle, 'errors.status.trashed')).toHaveLength(1);
  });
});

describe('the oracle on writes the document allows', () => {
  it('finds the owner refused a delete of its trashed note, and an update at the current version after restore', () => {
    const oracle = oracleWith();
    createNote(oracle, { content: 'Alpha\nbody' }, 200, noteAnswer());
    const path = `/v2/notes/${NOTE}`;
    send(oracle, { op: 'trashNote', method: 'POST', path: `${path}/trash`, params: { note_id: NOTE } }, 200, {});
    send(oracle, { op: 'restoreNote', method: 'POST', path: `${path}/restore`, params: { note_id: NOTE } }, 200, {});
    send(oracle, { op: 'getNote', method: 'GET', path, params: { note_id: NOTE } }, 200, {
      ...noteAnswer({ version: 3 }),
      trashed_at: null,
    });
    const body = { content: 'B', version: 3 };
    send(oracle, { op: 'updateNote', method: 'PATCH', path, params: { note_id: NOTE }, body }, 409, refusal);
    expect(found(oracle)).toEqual(['notes.restore.edits-allowed-again']);
    send(oracle, { op: 'deleteNote', method: 'DELETE', path, params: { note_id: NOTE } }, 409, refusal);
    expect(found(oracle)).toEqual(['notes.delete.active-or-trashed', 'notes.restore.edits-allowed-again']);
  });

  it('judges no refused update that carries an updated_at (the document sets it no bound)', () => {
    const oracle = oracleWith();
    createNote(oracle, { content: 'Alpha\nbody' }, 200, noteAnswer());
    const body = { content: 'B', version: 1, updated_at: new Date(Date.now() + 86_400_000).toISOString() };
    send(
      oracle,
      { op: 'updateNote', method: 'PATCH', path: `/v2/notes/${NOTE}`, params: { note_id: NOTE }, body },
      400,
      refusal,
    );
    expect(found(oracle)).toEqual([]);
  });

  it('finds a request without credentials served, and refused with another status than declared', () => {
    const oracle = oracleWith({ statuses: { unauthenticated: 401 } });
    const bare = { op: undefined, method: 'GET', path: `/v2/notes/${NOTE}`, ownToken: false, noCredentials: true };
    send(oracle, bare, 200, noteAnswer());
    send(oracle, bare, 403, refusal);
    expect(found(oracle)).toEqual(['auth.bearer.required', 'errors.status.unauthenticated']);
    const fine = oracleWith({ statuses: { unauthenticated: 401 } });
    send(fine, bare, 401, refusal);
    send(fine, { ...bare, path: '/_fixtures/users' }, 200, {});
    expect(found(fine)).toEqual([]);
  });

  it('finds a request with a token nobody issued served, under the invalid-token rule', () => {
    const oracle = oracleWith({ statuses: { unauthenticated: 401 } });
    const made = { op: undefined, method: 'GET', path: '/v2/notes', ownToken: false, unknownToken: true };
    send(oracle, made, 200, { results: [], total: 0 });
    expect(found(oracle)).toEqual(['auth.bearer.invalid-refused']);
    const fine = oracleWith({ statuses: { unauthenticated: 401 } });
    send(fine, made, 401, refusal);
    expect(found(fine)).toEqual([]);
    expect(fine.judgements.judged.get('auth.bearer.invalid-refused')).toBe(1);
  });

  it('finds a body that is not JSON answered with a 5xx', () => {
    const oracle = oracleWith();
    const raw = { op: undefined, method: 'POST', path: '/v2/notes', malformedBody: true };
    send(oracle, raw, 400, refusal);
    expect(found(oracle)).toEqual([]);
    send(oracle, raw, 500, refusal);
    expect(found(oracle)).toEqual(['errors.bad-input.no-5xx']);
  });

  it('finds two answers with one request_id', () => {
    const oracle = oracleWith();
    const pending = () =>
      oracle.sending({
        op: 'listNotes',
        actor: 'primary',
        ownToken: true,
        method: 'GET',
        path: '/v2/notes',
        params: {},
        input: {},
      });
    const page = { request_id: 'same', results: [], total: 0 };
    oracle.answered(pending(), { ...exchange('GET', '/v2/notes', 200, {}), json: page, text: JSON.stringify(page) });
    oracle.answered(pending(), { ...exchange('GET', '/v2/notes', 200, {}), json: page, text: JSON.stringify(page) });
    expect(found(oracle)).toEqual(['conventions.request-id.unique']);
  });

  it('finds a default timestamp that is not the server time, with the clock tolerance the profile allows', () => {
    const oracle = oracleWith({ clockToleranceMs: 2_000 });
    const now = new Date().toISOString();
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    createNote(oracle, { content: 'Alpha\nbody' }, 200, noteAnswer({ created_at: hourAgo, updated_at: now }));
    expect(found(oracle)).toEqual(['notes.create.created-at-defaults-to-server-time']);
    const fine = oracleWith({ clockToleranceMs: 2_000 });
    const skewed = new Date(Date.now() - 1_500).toISOString();
    createNote(fine, { content: 'Alpha\nbody' }, 200, noteAnswer({ created_at: skewed, updated_at: skewed }));
    expect(found(fine)).toEqual([]);
  });
});

describe('the oracle on the order of list pages', () => {
  const listed = (oracle: Oracle, input: Record<string, unknown>, times: string[]) => {
    const ids = times.map((_, i) => `4444444${i}-4444-4444-8444-444444444444`);
    times.forEach((at, i) => {
      send(oracle, { op: 'createNote', method: 'POST', path: '/v2/notes', body: { content: `N${i}` } }, 200, {
        ...noteAnswer({ id: ids[i], content: `N${i}`, title: `N${i}` }),
        created_at: at,
        updated_at: at,
      });
    });
    const results = ids.map((id, i) => ({ id, title: `N${i}`, created_at: times[i], updated_at: times[i] }));
    send(oracle, { op: 'listNotes', method: 'GET', path: '/v2/notes', input }, 200, { results, total: results.length });
  };
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();

  it('finds a page out of order, and one against the declared direction', () => {
    const mixed = oracleWith({ listOrder: 'newest_first' });
    listed(mixed, {}, [at(3), at(1), at(2)]);
    expect(found(mixed)).toContain('notes.list.order-by-default-updated-at');
    const reversed = oracleWith({ listOrder: 'newest_first' });
    listed(reversed, { order_by: 'created_at' }, [at(1), at(2), at(3)]);
    expect(found(reversed)).toEqual(['notes.list.order-direction']);
  });

  it('judges no direction none is declared for, one pair alone, or items closer than the precision', () => {
    const open = oracleWith();
    listed(open, {}, [at(1), at(2), at(3)]);
    expect(found(open)).toEqual([]);
    const pair = oracleWith({ listOrder: 'newest_first' });
    listed(pair, {}, [at(1), at(2)]);
    expect(found(pair)).toEqual([]);
    const coarse = oracleWith({ listOrder: 'newest_first', precisionMs: 1_000 });
    listed(coarse, {}, [at(3), '2026-01-01T00:00:02.100Z', '2026-01-01T00:00:02.900Z']);
    expect(found(coarse)).toEqual([]);
  });
});

/**
 * The timestamps of a create that sent none, as a server makes them: now, and updated_at the same
 * instant (read once: two reads may fall in different milliseconds, which the oracle rightly finds).
 */
const serverNow = () => {
  const now = new Date().toISOString();
  return { created_at: now, updated_at: now };
};

describe("the oracle on another user's resources named in a user's own writes", () => {
  const collection = (oracle: Oracle) =>
    send(
      oracle,
      { op: 'createCollection', method: 'POST', path: '/v2/collections', body: { title: 'Shared Name' } },
      200,
      {
        id: COLL,
        title: 'Shared Name',
        description: null,
        ...serverNow(),
      },
    );
  const asSecondary = { actor: 'secondary' as Owner };

  it("finds a create linked to another user's collection by title, and a note_count that shows it unseen", () => {
    const oracle = oracleWith();
    collection(oracle);
    const body = { content: 'Probe\nx', collection_titles: ['shared name'] };
    send(oracle, { op: 'createNote', method: 'POST', path: '/v2/notes', body, ...asSecondary }, 200, {
      ...noteAnswer({ id: FRESH, content: 'Probe\nx', title: 'Probe', collection_ids: [] }),
      ...serverNow(),
    });
    expect(found(oracle)).toEqual([]);
    send(
      oracle,
      { op: 'getCollection', method: 'GET', path: `/v2/collections/${COLL}`, params: { collection_id: COLL } },
      200,
      {
        id: COLL,
        title: 'Shared Name',
        description: null,
        note_count: 1,
      },
    );
    expect(found(oracle)).toEqual(['notes.create.collection-titles-inaccessible-ignored']);
  });

  it("finds another user's note added to one's own collection, and a create with its id accepted", () => {
    const oracle = oracleWith();
    createNote(oracle, { content: 'Alpha\nbody' }, 200, noteAnswer(serverNow()));
    // The second user's own collection, which the run knows.
    send(
      oracle,
      { op: 'createCollection', method: 'POST', path: '/v2/collections', body: { title: 'Theirs' }, ...asSecondary },
      200,
      {
        id: COLL,
        title: 'Theirs',
        description: null,
        ...serverNow(),
      },
    );
    const path = `/v2/collections/${COLL}/notes/${NOTE}`;
    send(
      oracle,
      {
        op: 'addNoteToCollection',
        method: 'PUT',
        path,
        params: { collection_id: COLL, note_id: NOTE },
        ...asSecondary,
      },
      200,
      {},
    );
    createNote(oracle, { id: NOTE, content: 'Other' }, 409, refusal);
    expect(found(oracle)).toEqual(['membership.add.requires-note-access']);
    send(
      oracle,
      { op: 'createNote', method: 'POST', path: '/v2/notes', body: { id: NOTE, content: 'Other\nx' }, ...asSecondary },
      200,
      {
        ...noteAnswer({ content: 'Other\nx', title: 'Other' }),
        ...serverNow(),
      },
    );
    expect(found(oracle)).toContain('notes.create.id-conflict-409-other-user');
  });
});
