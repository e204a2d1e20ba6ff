import { createSchemaRegistry } from '../spec/schemas.js';
import { Api } from '../suites/harness/api.js';
import type { TargetClient } from '../suites/harness/client.js';
import type { KitContext } from '../suites/harness/context.js';
import type { FixturesClient } from '../suites/harness/fixtures-client.js';
import { Ledger, type LedgerEntry, pendingInJournal } from '../suites/harness/ledger.js';

/**
 * The run's final sweep: deletes everything the journal still lists, whichever process created
 * it (workers journal to the same file); returns what it could not delete (left over).
 */
export async function sweep(
  ctx: KitContext,
  client: TargetClient,
  fixtures: FixturesClient | undefined,
): Promise<LedgerEntry[]> {
  const ledger = new Ledger(ctx.runDir);
  ledger.adopt(pendingInJournal(ctx.runDir));
  // Deletes only: no schema is compiled unless an answer is validated.
  const schemas = createSchemaRegistry(undefined, { compile: 'use' });
  const api = new Api(client, ctx.profile, schemas, ledger, ctx.tokens.primary, 'primary', false);
  const users = new Set(
    ledger
      .pending()
      .filter((e) => e.kind === 'user')
      .map((e) => e.id),
  );
  for (const entry of ledger.pending()) {
    try {
      if (entry.kind === 'user') {
        if (!fixtures) continue;
        await fixtures.deleteUser(entry.id);
        ledger.deleted('user', entry.id); // and, in the ledger, the user's data with it
        continue;
      }
      if (entry.owner.startsWith('user:')) {
        // Goes with its fixture user below; if that user is already deleted, it went then.
        if (!users.has(entry.owner.slice(5))) ledger.deleted(entry.kind, entry.id);
        continue;
      }
      const as = entry.owner === 'secondary' && ctx.tokens.secondary ? api.as(ctx.tokens.secondary, 'secondary') : api;
      if (entry.kind === 'note') await as.deleteNote(entry.id);
      else await as.deleteCollection(entry.id);
    } catch {
      // stays pending: a leftover
    }
  }
  return pendingInJournal(ctx.runDir);
}
