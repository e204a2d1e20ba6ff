import type { Api } from './api.js';
import type { TargetClient } from './client.js';
import type { FixturesClient } from './fixtures-client.js';
import type { Ledger, LedgerEntry } from './ledger.js';

/** What cleaning up needs of the worker's kit (kit.ts calls cleanUp with itself; no import back). */
type Kit = {
  readonly client: TargetClient;
  readonly api: Api;
  readonly secondary: Api | undefined;
  readonly fixtures: FixturesClient | undefined;
  readonly ledger: Ledger;
};

/** Deletes what this worker created and has not deleted yet; a failure leaves it for the run's sweep. */
export async function cleanUp(kit: Kit): Promise<void> {
  kit.client.record(undefined);
  for (const entry of kit.ledger.pending()) {
    try {
      await deleteEntry(kit, entry);
    } catch {
      // Left in the journal: the run's final sweep tries again and counts it if it stays.
    }
  }
}

async function deleteEntry(kit: Kit, entry: LedgerEntry): Promise<void> {
  if (entry.kind === 'user') {
    if (!kit.fixtures) return;
    await kit.fixtures.deleteUser(entry.id);
    kit.ledger.deleted('user', entry.id);
    return;
  }
  if (entry.owner.startsWith('user:')) return; // goes with its fixture user
  const api = entry.owner === 'secondary' ? kit.secondary : kit.api;
  if (!api) return;
  if (entry.kind === 'note') await api.deleteNote(entry.id);
  else await api.deleteCollection(entry.id);
}
