import { describe, expect, it } from 'vitest';
import type { FaultName } from '../../fake/faults/catalogue.js';
import { NOTES_LIST_FAULTS } from '../../fake/faults/notes-list.js';
import { NOTES_RELATED_FAULTS } from '../../fake/faults/notes-related.js';
import { NOTES_SEARCH_FAULTS } from '../../fake/faults/notes-search.js';
import { SCENARIOS } from './fault-scenarios.js';
import { Session } from './fault-session.js';

/**
 * The list, search and related-notes faults run the reference as if notes looked different
 * (owners, features, collections, the trash, the search index) for one request. Whatever they
 * pretend must be undone: after a scenario the stored notes and their index entries are those
 * of a clean run. Ids are left out (a fault may draw extra snapshot ids from the same sequence).
 */
function storedNotes(session: Session): string[] {
  const { store } = session.core.ctx;
  return [...store.notes.values()]
    .map((n) =>
      JSON.stringify([
        n.ownerId,
        n.content,
        n.title,
        n.features,
        n.createdAt,
        n.updatedAt,
        n.version,
        n.trashedAt,
        n.collectionIds.size,
        [...store.search.vector(n.seq)].sort(([a], [b]) => (a < b ? -1 : 1)),
      ]),
    )
    .sort();
}

function run(faults: FaultName[]): string[][] {
  return SCENARIOS.map((scenario) => {
    const session = new Session({ ...scenario.options, faults });
    scenario.run(session);
    return storedNotes(session);
  });
}

describe('read faults leave the stored notes as they found them', () => {
  const clean = run([]);
  const faults = Object.keys({ ...NOTES_LIST_FAULTS, ...NOTES_SEARCH_FAULTS, ...NOTES_RELATED_FAULTS }) as FaultName[];

  it.each(faults)('%s', (fault) => {
    expect(run([fault])).toEqual(clean);
  });
});
