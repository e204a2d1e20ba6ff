import type { Api } from './api.js';
import type { FixturesClient } from './fixtures-client.js';
import type { Ledger, LedgerEntry } from './ledger.js';

/** Who can delete what a ledger lists: the tokens' APIs and, for fixture users, the fixture API. */
export interface Deleters {
  readonly primary: Api;
  readonly secondary?: Api | undefined;
  readonly fixtures?: FixturesClient | undefined;
}

/**
 * Deletes everything the ledger still lists, in the order created (notes before the collections
 * made after them, data of a fixture user with the user). The one mechanism of the worker's
 * cleanup at the end of a file, the run's final sweep over the journal every process wrote, and
 * the differential run's cleanup. What fails stays pending: the sweep tries again, and what is
 * pending after it is counted as left behind.
 */
export async function deletePending(ledger: Ledger, by: Deleters): Promise<void> {
  const users = new Set(
    ledger
      .pending()
      .filter((e) => e.kind === 'user')
      .map((e) => e.id),
  );
  for (const entry of ledger.pending()) {
    try {
      await deleteEntry(ledger, by, entry, users);
    } catch {
      // Stays pending: a later sweep tries again, and the report counts it if it stays.
    }
  }
}

async function deleteEntry(ledger: Ledger, by: Deleters, entry: LedgerEntry, users: Set<string>): Promise<void> {
  if (entry.kind === 'user') {
    if (!by.fixtures) return;
    await by.fixtures.deleteUser(entry.id);
    ledger.deleted('user', entry.id); // and, in the ledger, the user's data with it
    return;
  }
  if (entry.owner.startsWith('user:')) {
    // Goes with its fixture user; if that user is not pending, it went then.
    if (!users.has(entry.owner.slice('user:'.length))) ledger.deleted(entry.kind, entry.id);
    return;
  }
  const api = entry.owner === 'secondary' ? by.secondary : by.primary;
  if (!api) return;
  if (entry.kind === 'note') await api.deleteNote(entry.id);
  else await api.deleteCollection(entry.id);
}
