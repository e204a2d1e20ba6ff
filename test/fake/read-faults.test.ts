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

type Scenario = (typeof SCENARIOS)[number];

function run(scenario: Scenario, faults: FaultName[]): { notes: string[]; steps: string[] } {
  const session = new Session({ ...scenario.options, faults });
  scenario.run(session);
  return { notes: storedNotes(session), steps: session.observed.map((o) => (o as { step: string }).step) };
}

/** A fault acts only in its operation: a scenario that never calls it cannot show what the fault pretends. */
const OPERATIONS: [Record<string, unknown>, RegExp][] = [
  [NOTES_LIST_FAULTS, /^GET \/v2\/notes(\?|$)/],
  [NOTES_SEARCH_FAULTS, /^POST \/v2\/notes\/search/],
  [NOTES_RELATED_FAULTS, /^GET \/v2\/notes\/[^/?]+\/related-notes/],
];

describe('read faults leave the stored notes as they found them', () => {
  const clean = new Map(SCENARIOS.map((scenario) => [scenario, run(scenario, [])]));
  const cases = OPERATIONS.flatMap(([faults, calls]) => {
    const scenarios = SCENARIOS.filter((s) => clean.get(s)!.steps.some((step) => calls.test(step)));
    return Object.keys(faults).map((fault) => ({ fault: fault as FaultName, scenarios }));
  });

  it.each(cases)('$fault', ({ fault, scenarios }) => {
    expect(scenarios.length).toBeGreaterThan(0);
    for (const scenario of scenarios) expect(run(scenario, [fault]).notes).toEqual(clean.get(scenario)!.notes);
  });
});
