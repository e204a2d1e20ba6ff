import { sharedSchemaRegistry } from '../spec/schemas.js';
import { Api } from './core/api.js';
import { deletePending } from './core/cleanup.js';
import type { TargetClient } from './core/client.js';
import type { KitContext } from './core/context.js';
import type { FixturesClient } from './core/fixtures-client.js';
import { journalEntries, Ledger, type LedgerEntry, pendingInJournal, uncertainInJournal } from './core/ledger.js';
import { type AccountItem, listAccount, ownedByRun } from './settle.js';

/** What the run leaves on the target, as the final sweep found it. */
export interface SweepResult {
  /** What the run made and could not delete: "note ID", "collection ID". */
  left: string[];
  /** Creates the kit could not confirm made or not, nor find in a listing: "note ID", "a note created without an id". */
  unconfirmed: string[];
}

/**
 * The run's final sweep: deletes everything the journal still lists, whichever process created
 * it (workers journal to the same file), with the workers' own mechanism (core/cleanup.ts); then
 * settles the creates whose answer it could not read by the ids the kit gave them; and, where
 * any doubt is left (such a create, or a delete answered 404 that may mean "cannot find it"),
 * lists the accounts and deletes what of the run is still there (kit/settle.ts), so that what it
 * reports left is what a listing shows. The embedded fake is stopped right after, and what it
 * holds goes with it: nothing is deleted one by one there, and nothing is left.
 */
export async function sweep(
  ctx: KitContext,
  client: TargetClient,
  fixtures: FixturesClient | undefined,
): Promise<SweepResult> {
  if (ctx.embedded) return { left: [], unconfirmed: [] };
  // Deletes only: no schema is compiled unless an answer is validated.
  const schemas = sharedSchemaRegistry();
  const ledger = new Ledger(ctx.runDir);
  ledger.adopt(pendingInJournal(ctx.runDir));
  const api = new Api(client, ctx.profile, schemas, ledger, ctx.tokens.primary, 'primary', false);
  const secondary = ctx.tokens.secondary ? api.as(ctx.tokens.secondary, 'secondary') : undefined;
  await deletePending(ledger, { primary: api, secondary, fixtures });
  await settleById(ctx.runDir, ledger, { primary: api, secondary });
  return settleByListing(ctx, { primary: api, secondary });
}

interface Users {
  readonly primary: Api;
  readonly secondary?: Api | undefined;
}

const named = (e: Pick<LedgerEntry, 'kind' | 'id'>) =>
  e.id ? `${e.kind} ${e.id}` : `a ${e.kind} created without an id`;

/**
 * Creates whose answer the kit could not read (ledger "uncertain"): each one with an id the kit
 * gave is deleted by that id (2xx: it existed and is gone; 404: it was never made, unless a
 * listing shows otherwise).
 */
async function settleById(runDir: string, ledger: Ledger, users: Users): Promise<void> {
  for (const entry of uncertainInJournal(runDir)) {
    const api = entry.owner === 'secondary' ? users.secondary : entry.owner === 'primary' ? users.primary : undefined;
    // A 404 to it leaves the entry open for the listing (ledger.ts uncertainInJournal).
    if (!entry.id || !api || entry.kind === 'user') continue;
    try {
      const x = entry.kind === 'note' ? await api.deleteNote(entry.id) : await api.deleteCollection(entry.id);
      if ((x.status >= 200 && x.status < 300) || x.status === 404)
        ledger.deleted(entry.kind, entry.id, x.status === 404);
    } catch {
      // stays unconfirmed
    }
  }
}

/**
 * The accounts' listing settles what the journal alone cannot: each user with doubt is listed
 * (notes and collections); what of the run is still there (by an id the run journaled, the run's
 * marker, or what an uncertain create sent) is deleted, and counted left if that fails. Without a
 * complete listing, uncertain creates stay unconfirmed.
 */
async function settleByListing(ctx: KitContext, users: Users): Promise<SweepResult> {
  const entries = journalEntries(ctx.runDir);
  const pending = pendingInJournal(ctx.runDir);
  const open = uncertainInJournal(ctx.runDir).filter((e) => !goneWithUser(e, entries));
  const left = new Set(pending.map(named));
  const unconfirmed = new Set<LedgerEntry>(open);
  for (const owner of ['primary', 'secondary'] as const) {
    const api = users[owner];
    const doubt = (e: LedgerEntry) =>
      e.owner === owner && (e.op === 'uncertain' || e.op === 'refused' || e.notFound === true);
    if (!api || !entries.some(doubt)) continue;
    for (const kind of ['note', 'collection'] as const) {
      const journaled = new Set(entries.filter((e) => e.owner === owner && e.kind === kind && e.id).map((e) => e.id));
      const waiting = [...open, ...entries.filter((e) => e.op === 'refused')].filter(
        (e) => e.owner === owner && e.kind === kind,
      );
      const listing = await listAccount(api, kind);
      const marks = { runId: ctx.runId, journaled, waiting, toleranceMs: ctx.clockToleranceMs };
      const taken = new Set<LedgerEntry>();
      for (const item of listing.items.filter((i) => ownedByRun(i, marks, taken))) {
        const settled = waiting.find((e) => (e.id !== '' && e.id === item.id) || item.matched === e);
        if (settled) unconfirmed.delete(settled);
        if (await deleted(api, kind, item)) left.delete(`${kind} ${item.id}`);
        else left.add(`${kind} ${item.id}`);
      }
      // A complete listing shows every one the run made: an uncertain create it does not show was not made.
      if (listing.complete) for (const e of waiting) if (e.prints?.length || e.id) unconfirmed.delete(e);
    }
  }
  return { left: [...left].sort(), unconfirmed: [...unconfirmed].map(named) };
}

async function deleted(api: Api, kind: 'note' | 'collection', item: AccountItem): Promise<boolean> {
  try {
    const x = kind === 'note' ? await api.deleteNote(item.id) : await api.deleteCollection(item.id);
    return x.status >= 200 && x.status < 300;
  } catch {
    return false;
  }
}

/** A fixture user's data goes with the user: a create of theirs the kit could not read is settled when the user is deleted. */
function goneWithUser(entry: LedgerEntry, entries: readonly LedgerEntry[]): boolean {
  if (!entry.owner.startsWith('user:')) return false;
  const user = entry.owner.slice('user:'.length);
  return entries.some((e) => e.op === 'deleted' && e.kind === 'user' && e.id === user);
}
