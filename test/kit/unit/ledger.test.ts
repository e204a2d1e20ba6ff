import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REMOTE_BUDGETS } from '../../../kit/budgets.js';
import { Api } from '../../../kit/core/api.js';
import { TargetClient } from '../../../kit/core/client.js';
import type { KitContext } from '../../../kit/core/context.js';
import { Ledger, type LedgerEntry, pendingInJournal, printsOf } from '../../../kit/core/ledger.js';
import { type AccountItem, ownedByRun } from '../../../kit/settle.js';
import { sweep } from '../../../kit/sweep.js';
import { loadBuiltinProfile } from '../../../spec/profile.js';
import type { SchemaRegistry } from '../../../spec/schemas.js';
import { recordingServer } from './recording-server.js';

/** The cleanup journal: what a run created and did not delete, across processes and interruptions. */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'nc-ledger-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ids = (entries: ReadonlyArray<{ kind: string; id: string }>) => entries.map((e) => `${e.kind}:${e.id}`);

describe('cleanup ledger', () => {
  it('keeps what was created and not deleted, notes first and users last', () => {
    const ledger = new Ledger(dir);
    ledger.created('user', 'u1', 'primary');
    ledger.created('collection', 'c1', 'primary');
    ledger.created('note', 'n1', 'secondary');
    ledger.created('note', 'n2', 'primary');
    ledger.deleted('note', 'n2');
    expect(ids(ledger.pending())).toEqual(['note:n1', 'collection:c1', 'user:u1']);
    expect(ledger.ownerOf('note', 'n1')).toBe('secondary');
    expect(ids(pendingInJournal(dir))).toEqual(['note:n1', 'collection:c1', 'user:u1']);
  });

  it('reads back one journal that several processes (ledgers) wrote, as the final sweep does', () => {
    const workerA = new Ledger(dir);
    const workerB = new Ledger(dir);
    workerA.created('note', 'a1', 'primary');
    workerB.created('note', 'b1', 'primary');
    workerB.created('collection', 'b2', 'primary');
    workerA.deleted('note', 'a1');
    const sweep = new Ledger(dir);
    sweep.adopt(pendingInJournal(dir));
    expect(ids(sweep.pending())).toEqual(['note:b1', 'collection:b2']);
    sweep.deleted('note', 'b1');
    expect(ids(pendingInJournal(dir))).toEqual(['collection:b2']);
  });

  it("deletes a fixture user's notes and collections with the user", () => {
    const ledger = new Ledger(dir);
    ledger.created('user', 'u1', 'primary');
    ledger.created('note', 'n1', 'user:u1');
    ledger.created('collection', 'c1', 'user:u1');
    ledger.created('note', 'n2', 'primary');
    ledger.deleted('user', 'u1');
    expect(ids(pendingInJournal(dir))).toEqual(['note:n2']);
  });

  it('survives a line cut short by a killed worker, and remembers what was trashed', () => {
    const ledger = new Ledger(dir);
    ledger.created('note', 'n1', 'primary');
    ledger.trashed('note', 'n1');
    appendFileSync(join(dir, 'ledger.jsonl'), '{"op":"created","kind":"no');
    const [entry, ...rest] = pendingInJournal(dir);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ kind: 'note', id: 'n1', trashed: true });
  });

  it("takes a 404 to its owner's delete as gone, but not for a trashed note or another user's", async () => {
    const server = await recordingServer(() => ({ status: 404, body: { error: 'not found' } }));
    const client = new TargetClient({ baseUrl: server.url, timeoutMs: 5000, requestBudget: 100, secrets: [] });
    const noSchemas: SchemaRegistry = { names: [], validate: () => [], responseSchemaOf: () => undefined };
    try {
      const ledger = new Ledger(dir);
      const primary = new Api(client, loadBuiltinProfile('fake'), noSchemas, ledger, 'tok-1', 'primary', false);
      const secondary = primary.as('tok-2', 'secondary');
      ledger.created('note', 'gone', 'primary');
      ledger.created('note', 'in-trash', 'primary');
      ledger.trashed('note', 'in-trash');
      ledger.created('note', 'hidden', 'primary');
      await primary.deleteNote('gone');
      await primary.deleteNote('in-trash');
      await secondary.deleteNote('hidden'); // a server may answer 404 to strangers: it still exists
      expect(ids(pendingInJournal(dir))).toEqual(['note:in-trash', 'note:hidden']);
      expect(server.seen.map((s) => s.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('the final sweep deletes what is pending on a target, and leaves the embedded fake to go whole', async () => {
    const server = await recordingServer(() => ({ status: 204 }));
    const client = new TargetClient({ baseUrl: server.url, timeoutMs: 5000, requestBudget: 100, secrets: [] });
    try {
      const ledger = new Ledger(dir);
      ledger.created('note', 'left-note', 'primary');
      ledger.created('collection', 'left-collection', 'secondary');
      const ctx = { ...sweepContext(dir), tokens: { primary: 'p0', secondary: 's0' } };
      // The embedded fake is stopped with all it holds: no request, nothing left.
      expect(await sweep(ctx, client, undefined)).toEqual({ left: [], unconfirmed: [] });
      expect(server.seen).toEqual([]);
      expect(await sweep({ ...ctx, embedded: false }, client, undefined)).toEqual({ left: [], unconfirmed: [] });
      const sent = server.seen.map((s) => `${s.method} ${s.url.pathname} ${s.headers.authorization}`).sort();
      expect(sent).toEqual([
        'DELETE /v2/collections/left-collection Bearer s0',
        'DELETE /v2/notes/left-note Bearer p0',
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

/** A run's context with nothing but what the sweep reads. */
function sweepContext(runDir: string): KitContext {
  return {
    targetUrl: 'http://127.0.0.1:9',
    targetLabel: 'sweep test',
    embedded: true,
    profile: loadBuiltinProfile('fake'),
    profileDeclared: true,
    tokens: { primary: 'p0' },
    budgets: REMOTE_BUDGETS,
    clockToleranceMs: 0,
    strict: false,
    seed: 0,
    runId: 'sweep',
    runDir,
    only: [],
  };
}

describe("a listing's items: the run's or someone else's (kit/settle.ts)", () => {
  const sentAt = Date.parse('2026-05-01T12:00:00Z');
  const uncertain = (content: string, extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
    op: 'uncertain',
    kind: 'note',
    id: '',
    owner: 'primary',
    prints: printsOf('note', { content }),
    sentAt,
    ...extra,
  });
  const marks = (waiting: LedgerEntry[], journaled: string[] = []) => ({
    runId: 'ab12cd34',
    journaled: new Set(journaled),
    waiting,
    toleranceMs: 60_000,
  });
  const item = (over: Partial<AccountItem>): AccountItem => ({ id: 'x1', createdAt: sentAt + 5000, ...over });

  it('an id the run journaled, or the run marker in a title or content', () => {
    expect(ownedByRun(item({ id: '12345' }), marks([], ['12345']))).toBe(true);
    expect(ownedByRun(item({ title: 'Note zqab12cd34k1' }), marks([]))).toBe(true);
    expect(ownedByRun(item({ content: 'x\nnotes-conformance run ab12cd34' }), marks([]))).toBe(true);
    expect(ownedByRun(item({ title: 'Note zqffffffff0', content: 'run ab12cd34' }), marks([]))).toBe(false);
  });

  it('what an uncertain create sent (content, or its first line as the title), each create taken once', () => {
    const entry = uncertain('# Entry\nbody');
    const taken = new Set<LedgerEntry>();
    const first = item({ title: 'Entry' });
    expect(ownedByRun(first, marks([entry]), taken)).toBe(true);
    expect(first.matched).toBe(entry);
    expect(ownedByRun(item({ id: 'x2', title: 'Entry' }), marks([entry]), taken)).toBe(false);
    expect(ownedByRun(item({ content: '# Entry\nbody' }), marks([uncertain('# Entry\nbody')]))).toBe(true);
  });

  it("never someone else's note with the same words made before the create was sent (nor at the time it asked for)", () => {
    expect(ownedByRun(item({ title: 'Entry', createdAt: sentAt - 3_600_000 }), marks([uncertain('Entry')]))).toBe(
      false,
    );
    const asked = uncertain('Entry', { askedCreatedAt: '2020-01-01T00:00:00Z' });
    expect(ownedByRun(item({ title: 'Entry', createdAt: Date.parse('2020-01-01T00:00:00Z') }), marks([asked]))).toBe(
      true,
    );
    // A target that ignores the time asked for: made during the run, it is the create's all the same.
    expect(ownedByRun(item({ title: 'Entry', createdAt: sentAt }), marks([asked]))).toBe(true);
    expect(ownedByRun(item({ title: 'Entry', createdAt: Date.parse('2019-01-01T00:00:00Z') }), marks([asked]))).toBe(
      false,
    );
  });
});
