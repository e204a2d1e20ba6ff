import { describe, expect, it } from 'vitest';
import { unmetNeed } from '../../../suites/harness/check.js';
import type { Kit } from '../../../suites/harness/kit.js';

/** Just what unmetNeed reads of a kit: the seed budget, the run's caps and what is left of them. */
function kitWith(left: { notes: number; collections: number }): Kit {
  return {
    ctx: {
      budgets: { max_seed_notes: 60 },
      budgetSources: { max_seed_notes: 'the default for a remote target' },
      createCaps: { notes: 150, collections: 120 },
      capSources: { notes: '--max-notes', collections: 'the default for a remote target in the full tier' },
    },
    guard: { notesLeft: left.notes, collectionsLeft: left.collections },
  } as unknown as Kit;
}

describe('the skip reason of a check that needs many resources', () => {
  it('names the resource the check needs: collections for collections, notes for notes', () => {
    const kit = kitWith({ notes: 100, collections: 10 });
    expect(unmetNeed(kit, { collections: 51 })).toBe(
      "needs 51 collections; the run's cap on collections allows 10 more (of 120: the default for a remote target in the full tier)",
    );
    expect(unmetNeed(kit, { notes: 51 })).toBeUndefined();
    expect(unmetNeed(kitWith({ notes: 5, collections: 100 }), { notes: 51 })).toBe(
      "needs 51 notes; the run's cap on notes allows 5 more (of 150: --max-notes)",
    );
    // Where the seed budget came from, never a profile's key when none was given (issue 35).
    expect(unmetNeed(kit, { collections: 61 })).toBe(
      'needs 61 collections; the seed budget (the most one check may create) allows 60 (the default for a remote target)',
    );
    expect(unmetNeed(kitWith({ notes: 100, collections: 100 }), { collections: 51 })).toBeUndefined();
  });
});
