import { describe, expect, it } from 'vitest';
import type { Owner } from '../../../kit/core/ledger.js';
import { mergeRecords } from '../../../kit/core/oracle/merge.js';
import type { Sent } from '../../../kit/core/oracle/observation.js';
import { Oracle } from '../../../kit/core/oracle/oracle.js';
import { answer } from './oracle-exchanges.js';

/**
 * The oracle on hand-made exchanges: what it must find, and where the document leaves room, what
 * it must not. No target: each answer is written here as a server would send it.
 */
const NOTE = '11111111-1111-4111-8111-111111111111';
const COLL = '22222222-2222-4222-8222-222222222222';
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:05.000Z';

const exchange = answer;

/** Sends one request through the oracle and answers it. */
function send(
  oracle: Oracle,
  sent: Partial<Sent> & Pick<Sent, 'op' | 'method' | 'path'>,
  status: number,
  json?: unknown,
): void {
  const pending = oracle.sending({ actor: 'primary' as Owner, ownToken: true, params: {}, ...sent });
  oracle.answered(pending, exchange(sent.method, sent.path, status, json));
}

const note = (over: Record<string, unknown> = {}) => ({
  id: NOTE,
  title: 'Alpha',
  content: 'Alpha\nbody',
  created_at: T0,
  updated_at: T0,
  version: 1,
  collection_ids: [],
  ...over,
});

function created(oracle: Oracle): void {
  send(oracle, { op: 'createNote', method: 'POST', path: '/v2/notes', body: { content: 'Alpha\nbody' } }, 200, note());
}

function updated(oracle: Oracle): void {
  send(
    oracle,
    {
      op: 'updateNote',
      method: 'PATCH',
      path: `/v2/notes/${NOTE}`,
      params: { note_id: NOTE },
      body: { content: 'Beta\nbody', version: 1 },
    },
    200,
    note({ title: 'Beta', content: 'Beta\nbody', version: 2, updated_at: T1, trashed_at: null }),
  );
}

/** A note created, updated, then found by a search whose item still has the title before the update. */
function staleSearch(oracle: Oracle): void {
  created(oracle);
  updated(oracle);
  send(
    oracle,
    { op: 'searchNotes', method: 'POST', path: '/v2/notes/search', input: { query: {}, body: { query: 'alpha' } } },
    200,
    {
      results: [{ ...note(), updated_at: T1 }],
      total: 1,
      limit: 20,
      offset: 0,
      has_next_page: false,
      snapshot_id: 's',
    },
  );
}

const findings = (oracle: Oracle, rule: string) => oracle.judgements.findings.get(rule) ?? [];
/** The header families' findings, judged over the whole run when its records are joined. */
const families = (oracle: Oracle) =>
  mergeRecords([oracle.record()])
    .judged.filter((e) => e.rule === 'headers.rate-limit.families')
    .flatMap((e) => e.findings);

describe('the oracle', () => {
  it('finds a search item whose title is stale after an update', () => {
    const oracle = new Oracle({ precisionMs: 1, lagMs: 0 });
    staleSearch(oracle);
    expect(findings(oracle, 'notes.title.first-line')[0]?.message).toMatch(/title is "Alpha"/);
  });

  it('waits out the declared index lag before it judges a search', () => {
    const oracle = new Oracle({ precisionMs: 1, lagMs: 60_000 });
    created(oracle);
    updated(oracle);
    send(
      oracle,
      { op: 'searchNotes', method: 'POST', path: '/v2/notes/search', input: { query: {}, body: { query: 'alpha' } } },
      200,
      { results: [note()], total: 1, limit: 20, offset: 0, has_next_page: false, snapshot_id: 's' },
    );
    expect(findings(oracle, 'notes.title.first-line')).toEqual([]);
  });

  it('judges no version after a membership change (the document leaves it open)', () => {
    const oracle = new Oracle({ precisionMs: 1, lagMs: 0 });
    send(oracle, { op: 'createCollection', method: 'POST', path: '/v2/collections', body: { title: 'C' } }, 200, {
      id: COLL,
      title: 'C',
      description: null,
      created_at: T0,
      updated_at: T0,
    });
    created(oracle);
    const params = { collection_id: COLL, note_id: NOTE };
    send(
      oracle,
      { op: 'addNoteToCollection', method: 'PUT', path: `/v2/collections/${COLL}/notes/${NOTE}`, params },
      200,
      {},
    );
    send(oracle, { op: 'getNote', method: 'GET', path: `/v2/notes/${NOTE}`, params: { note_id: NOTE } }, 200, {
      ...note({ version: 7, collection_ids: [COLL] }),
      trashed_at: null,
    });
    expect([...oracle.judgements.findings.keys()]).toEqual([]);
    // ...but the link itself is documented: a read without it is a finding.
    send(oracle, { op: 'getNote', method: 'GET', path: `/v2/notes/${NOTE}`, params: { note_id: NOTE } }, 200, {
      ...note({ version: 7 }),
      trashed_at: null,
    });
    expect(findings(oracle, 'membership.add.links')).toHaveLength(1);
    expect(findings(oracle, 'membership.collection-ids.current')).toHaveLength(1);
  });

  it('blames a refused update whose content shows later on the refusal', () => {
    const oracle = new Oracle({ precisionMs: 1, lagMs: 0 });
    created(oracle);
    updated(oracle);
    send(
      oracle,
      {
        op: 'updateNote',
        method: 'PATCH',
        path: `/v2/notes/${NOTE}`,
        params: { note_id: NOTE },
        body: { content: 'Gamma\nbody', version: 1 },
      },
      409,
      { error: { type: 'version_mismatch' } },
    );
    send(oracle, { op: 'getNote', method: 'GET', path: `/v2/notes/${NOTE}`, params: { note_id: NOTE } }, 200, {
      ...note({ title: 'Beta', content: 'Gamma\nbody', version: 2, updated_at: T1 }),
      trashed_at: null,
    });
    expect(findings(oracle, 'notes.update.version-stale-refused')[0]?.message).toMatch(/refused/);
  });

  it("judges a fixture user's operations by the levels granted, and stays silent where grants leave it open", () => {
    const oracle = new Oracle({ precisionMs: 1, lagMs: 0, statuses: { forbidden: 403 } });
    created(oracle);
    const grantee = 'user:g1' as Owner;
    const asGrantee = (sent: Partial<Sent> & Pick<Sent, 'op' | 'method' | 'path'>, status: number, json?: unknown) =>
      send(oracle, { actor: grantee, ...sent }, status, json);
    const update = { op: 'updateNote', method: 'PATCH', path: `/v2/notes/${NOTE}`, params: { note_id: NOTE } } as const;
    oracle.granted('note', NOTE, 'g1', 'access');
    // Access only: the update must be refused, and with the declared status.
    asGrantee({ ...update, body: { content: 'Beta\nbody', version: 1 } }, 418, { error: { type: 'forbidden' } });
    expect(findings(oracle, 'errors.status.forbidden')[0]?.message).toMatch(/declares 403/);
    asGrantee({ ...update, body: { content: 'Beta\nbody', version: 1 } }, 200, note({ version: 2, updated_at: T1 }));
    expect(findings(oracle, 'notes.update.requires-edit')[0]?.message).toMatch(/granted access/);
    // Own, then edit again: whether a second grant replaces the first is not shown, so an
    // accepted set-created-at under edit breaks nothing.
    oracle.granted('note', NOTE, 'g1', 'own');
    oracle.granted('note', NOTE, 'g1', 'edit');
    const setCreatedAt = { op: 'setNoteCreatedAt', method: 'PATCH', path: `/v2/notes/${NOTE}/created-at` } as const;
    asGrantee({ ...setCreatedAt, params: { note_id: NOTE }, body: { created_at: '2025-01-01T00:00:00.000Z' } }, 200);
    expect(findings(oracle, 'notes.set-created-at.requires-owner')).toEqual([]);
  });

  it("judges a quota user's create after set-created-at, and only there", () => {
    const oracle = new Oracle({ precisionMs: 1, lagMs: 0 });
    const user = 'user:q1' as Owner;
    const create = { actor: user, op: 'createNote', method: 'POST', path: '/v2/notes' } as const;
    const over = { error: { type: 'quota_exceeded', message: 'quota' } };
    oracle.quotaSet('q1', 3);
    send(oracle, { ...create, body: { content: 'Alpha\nbody' } }, 200, note());
    // No set-created-at yet: a refusal with a create left is not what the document speaks of.
    send(oracle, { ...create, body: { content: 'Beta\nbody' } }, 403, over);
    expect(findings(oracle, 'quota.set-created-at.neutral')).toEqual([]);
    send(
      oracle,
      {
        actor: user,
        op: 'setNoteCreatedAt',
        method: 'PATCH',
        path: `/v2/notes/${NOTE}/created-at`,
        params: { note_id: NOTE },
        body: { created_at: '2025-01-01T00:00:00.000Z' },
      },
      200,
      note({ created_at: '2025-01-01T00:00:00.000Z' }),
    );
    send(oracle, { ...create, body: { content: 'Gamma\nbody' } }, 403, over);
    expect(findings(oracle, 'quota.set-created-at.neutral')[0]?.message).toMatch(/2 of a quota of 3/);
  });

  it('does not judge a reading that overlapped a write to the same note', () => {
    const oracle = new Oracle({ precisionMs: 1, lagMs: 0 });
    created(oracle);
    const read = oracle.sending({
      op: 'getNote',
      actor: 'primary',
      ownToken: true,
      method: 'GET',
      path: `/v2/notes/${NOTE}`,
      params: { note_id: NOTE },
    });
    updated(oracle);
    oracle.answered(read, exchange('GET', `/v2/notes/${NOTE}`, 200, { ...note(), trashed_at: null }));
    expect([...oracle.judgements.findings.keys()]).toEqual([]);
  });

  it('finds a walk that ended without a note of the caller', () => {
    const oracle = new Oracle({ precisionMs: 1, lagMs: 0 });
    created(oracle);
    send(oracle, { op: 'listNotes', method: 'GET', path: '/v2/notes', input: {} }, 200, { results: [], total: 0 });
    expect(findings(oracle, 'notes.list.cursor-pages')).toHaveLength(1);
  });

  it('lets the next page tell whether total or next_page was wrong when they disagree', () => {
    const other = '33333333-3333-4333-8333-333333333333';
    const item = (id: string) => ({ id, title: 'C', description: null, created_at: T0, updated_at: T0, note_count: 0 });
    const walk = (second: unknown[]) => {
      const oracle = new Oracle({ precisionMs: 1, lagMs: 0 });
      const list = (input: Record<string, unknown>, body: Record<string, unknown>) =>
        send(oracle, { op: 'listCollections', method: 'GET', path: '/v2/collections', input }, 200, {
          request_id: `r${Math.random()}`,
          ...body,
        });
      // total 1 with 1 result says the walk is over, yet next_page points on.
      list({ limit: 1 }, { results: [item(COLL)], total: 1, next_page: 'c1' });
      expect(oracle.judgements.findings.size).toBe(0);
      list({ limit: 1, cursor: 'c1' }, { results: second, total: 1, next_page: null });
      return oracle;
    };
    const more = walk([item(other)]);
    expect(findings(more, 'collections.list.total-before-pagination')[0]?.message).toMatch(/leads to 1 more/);
    expect(findings(more, 'collections.list.next-page-null-at-end')).toHaveLength(0);
    const empty = walk([]);
    expect(findings(empty, 'collections.list.next-page-null-at-end')[0]?.message).toMatch(/empty page/);
    expect(findings(empty, 'collections.list.total-before-pagination')).toHaveLength(0);
  });

  it('judges the rate-limit header families over the whole run, and declared names on each answer', () => {
    const ops = ['searchNotes', 'getRelatedNotes', 'listNotes', 'listCollections', 'searchCollections', 'getNote'];
    const run = (headers: Record<string, string>) => {
      const oracle = new Oracle({
        precisionMs: 1,
        lagMs: 0,
        rateLimitHeaders: { operations: ['getNote'], names: ['X-RateLimit-Remaining'] },
      });
      const answer = (op: string, json: unknown) => {
        const pending = oracle.sending({
          op,
          actor: 'primary',
          ownToken: true,
          method: 'GET',
          path: '/v2/x',
          params: {},
        });
        const x = exchange('GET', '/v2/x', 200, json);
        oracle.answered(pending, { ...x, headers: { ...x.headers, ...headers } });
      };
      answer('createNote', note());
      // Until the run has seen a success of every operation the rule names, it says nothing.
      expect(families(oracle)).toEqual([]);
      for (const op of ops) answer(op, op === 'getNote' ? note() : { results: [], total: 0 });
      return oracle;
    };
    const without = run({});
    expect(families(without)).toHaveLength(2);
    expect(findings(without, 'headers.rate-limit.declared')[0]?.message).toMatch(/without X-RateLimit-Remaining/);
    const carried = run({ 'x-ratelimit-remaining': '9', 'x-complexity-remaining': '90' });
    expect(families(carried)).toHaveLength(0);
    expect(findings(carried, 'headers.rate-limit.declared')).toHaveLength(0);
  });

  it("joins the workers' records, as the run command does (kit/core/oracle/merge.ts)", () => {
    const oracleOf = () => new Oracle({ precisionMs: 1, lagMs: 0 });
    // One worker saw the stale title and every header family's operation but one.
    const other = oracleOf();
    staleSearch(other);
    for (const op of ['getRelatedNotes', 'listNotes', 'listCollections', 'searchCollections', 'getNote']) {
      const pending = other.sending({ op, actor: 'primary', ownToken: true, method: 'GET', path: '/v2/x', params: {} });
      other.answered(pending, exchange('GET', '/v2/x', 200, op === 'getNote' ? note() : { results: [], total: 0 }));
    }
    const found = findings(other, 'notes.title.first-line');
    expect(found.length).toBeGreaterThan(0);
    // The other saw one clean create, and a request that got no answer.
    const reader = oracleOf();
    created(reader);
    reader.unanswered(
      reader.sending({ op: 'getNote', actor: 'primary', ownToken: true, method: 'GET', path: '/v2/x', params: {} }),
    );
    const records = [reader, other].map((o) => JSON.parse(JSON.stringify(o.record())));
    const run = mergeRecords(records);
    const title = run.judged.filter((e) => e.rule === 'notes.title.first-line');
    expect(title.flatMap((e) => e.findings).map((f) => f.message)).toEqual(found.map((f) => f.message));
    expect(title.reduce((n, e) => n + e.judged, 0)).toBe(
      (reader.judgements.judged.get('notes.title.first-line') ?? 0) +
        other.judgements.judged.get('notes.title.first-line')!,
    );
    // The header families are judged over both workers' answers: seen whole only together.
    const families = run.judged.filter((e) => e.rule === 'headers.rate-limit.families');
    expect(families.reduce((n, e) => n + e.judged, 0)).toBe(2);
    expect(families.flatMap((e) => e.findings)).toHaveLength(2);
    expect(run.unanswered).toBe(1);
  });

  it('finds a success without request_id and a collection list lagging an update', () => {
    const oracle = new Oracle({ precisionMs: 1, lagMs: 0 });
    const coll = { id: COLL, title: 'C', description: null, created_at: T0, updated_at: T0 };
    send(oracle, { op: 'createCollection', method: 'POST', path: '/v2/collections', body: { title: 'C' } }, 200, coll);
    send(
      oracle,
      {
        op: 'updateCollection',
        method: 'PATCH',
        path: `/v2/collections/${COLL}`,
        params: { collection_id: COLL },
        body: { title: 'D' },
      },
      200,
      { ...coll, title: 'D', updated_at: T1 },
    );
    const pending = oracle.sending({
      op: 'listCollections',
      actor: 'primary',
      ownToken: true,
      method: 'GET',
      path: '/v2/collections',
      params: {},
      input: {},
    });
    const list = { results: [{ ...coll, note_count: 0, updated_at: T1 }], total: 1, next_page: null };
    oracle.answered(pending, { ...exchange('GET', '/v2/collections', 200, list), json: list });
    expect(findings(oracle, 'conventions.request-id.on-every-success')).toHaveLength(1);
    expect(findings(oracle, 'collections.update.fields-applied')[0]?.message).toMatch(/title is "C"/);
  });

  it('finds a JSON body declared as text where the document shows the shape, and only there', () => {
    const oracle = new Oracle({ precisionMs: 1, lagMs: 0 });
    const asText = (x: ReturnType<typeof exchange>) => ({
      ...x,
      headers: { ...x.headers, 'content-type': 'text/plain' },
    });
    const create = oracle.sending({
      op: 'createNote',
      actor: 'primary',
      ownToken: true,
      method: 'POST',
      path: '/v2/notes',
      params: {},
      body: { content: 'Alpha\nbody' },
    });
    oracle.answered(create, asText(exchange('POST', '/v2/notes', 200, note())));
    expect(findings(oracle, 'conventions.json.content-type')[0]?.message).toMatch(/declared as "text\/plain"/);
    // The trash answer's shape is not shown (section 4): how it is labelled is not judged either.
    const trash = oracle.sending({
      op: 'trashNote',
      actor: 'primary',
      ownToken: true,
      method: 'POST',
      path: `/v2/notes/${NOTE}/trash`,
      params: { note_id: NOTE },
    });
    oracle.answered(trash, asText(exchange('POST', `/v2/notes/${NOTE}/trash`, 200, {})));
    expect(findings(oracle, 'conventions.json.content-type')).toHaveLength(1);
  });
});
