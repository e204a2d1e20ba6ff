import { sharedSchemaRegistry } from '../spec/schemas.js';
import { Api } from './core/api.js';
import { deletePending } from './core/cleanup.js';
import type { TargetClient } from './core/client.js';
import type { KitContext } from './core/context.js';
import type { FixturesClient } from './core/fixtures-client.js';
import { Ledger, type LedgerEntry, pendingInJournal, uncertainInJournal } from './core/ledger.js';

/**
 * The run's final sweep: deletes everything the journal still lists, whichever process created
 * it (workers journal to the same file), with the workers' own mechanism (core/cleanup.ts);
 * returns what it could not delete (left over). The embedded fake is stopped right after, and
 * what it holds goes with it: nothing is deleted one by one there, and nothing is left.
 */
export async function sweep(
  ctx: KitContext,
  client: TargetClient,
  fixtures: FixturesClient | undefined,
): Promise<LedgerEntry[]> {
  if (ctx.embedded) return [];
  // Deletes only: no schema is compiled unless an answer is validated.
  const schemas = sharedSchemaRegistry();
  const ledger = new Ledger(ctx.runDir);
  ledger.adopt(pendingInJournal(ctx.runDir));
  const api = new Api(client, ctx.profile, schemas, ledger, ctx.tokens.primary, 'primary', false);
  const secondary = ctx.tokens.secondary ? api.as(ctx.tokens.secondary, 'secondary') : undefined;
  await deletePending(ledger, { primary: api, secondary, fixtures });
  return pendingInJournal(ctx.runDir);
}

/**
 * Creates whose answer the kit could not read (ledger "uncertain"): each one with an id the kit
 * gave is deleted by that id (2xx: it existed and is gone; 404: it was never made). Returns what
 * stays unconfirmed, which the report names instead of counting it as surely gone or surely left.
 */
export async function settleUncertain(ctx: KitContext, client: TargetClient): Promise<string[]> {
  if (ctx.embedded) return []; // stopped with all it holds (sweep)
  const uncertain = uncertainInJournal(ctx.runDir);
  if (uncertain.length === 0) return [];
  // Deletes only, as in the sweep: compiling every schema up front cost half a second a run.
  const schemas = sharedSchemaRegistry();
  const ledger = new Ledger(ctx.runDir);
  const api = new Api(client, ctx.profile, schemas, ledger, ctx.tokens.primary, 'primary', false);
  for (const entry of uncertain) {
    if (!entry.id || entry.kind === 'user' || entry.owner.startsWith('user:')) continue;
    const as = entry.owner === 'secondary' && ctx.tokens.secondary ? api.as(ctx.tokens.secondary, 'secondary') : api;
    try {
      const x = entry.kind === 'note' ? await as.deleteNote(entry.id) : await as.deleteCollection(entry.id);
      if ((x.status >= 200 && x.status < 300) || x.status === 404) ledger.deleted(entry.kind, entry.id);
    } catch {
      // stays unconfirmed
    }
  }
  return uncertainInJournal(ctx.runDir).map((e) => (e.id ? `${e.kind} ${e.id}` : `a ${e.kind} created without an id`));
}
