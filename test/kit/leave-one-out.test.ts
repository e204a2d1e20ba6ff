import { describe, expect, it } from 'vitest';
import type { FaultName } from '../../fake/faults/catalogue.js';
import { runLeaveOneOut } from '../../kit/leave-one-out.js';

/**
 * Generalisation, sampled: faults of different kinds, each run with every check that declares its
 * rules switched off. The oracle and the model-based runs must still catch each under its own
 * rule: views (a count, a page's next_page, request_id on a list, collection_ids after a move) and,
 * since the model-based runs send requests at the edges of the document, refusals and boundaries
 * (a byte limit lifted, a refusal skipped, a refusal's status changed, a value on the limit
 * refused, a refused create stored anyway). The whole table is `node
 * scripts/measure-leave-one-out.js` (a kit run per fault; docs/proving.md).
 */
const SAMPLE: readonly FaultName[] = [
  'collections.read.note-count-zero',
  'collections.list.next-page-omitted-at-end',
  'conventions.request-id.missing-on-lists',
  'membership.collection-ids.stale-after-move',
  'collections.create.title-bytes-unchecked',
  'notes.update.version-zero-forces',
  'errors.status.trashed-wrong',
  'notes.set-created-at.bound-exclusive',
  'notes.create.future-refused-but-stored',
  // A grant's level (kit/core/behaviour/grants.ts; the explorer's grant sweep sends it).
  'notes.update.access-level-can-edit',
];

describe('leave-one-out', () => {
  it('catches sampled faults with the checks of their rules switched off', { timeout: 1_800_000 }, async () => {
    const rows = await runLeaveOneOut({ faults: SAMPLE });
    const table = rows.map(
      (r) =>
        `${r.caught ? `caught by ${r.caughtBy.join('+')}` : 'MISSED'} ${r.fault} (${r.rule}: ${r.verdict}) ${r.ms} ms`,
    );
    console.log(table.join('\n'));
    expect(rows.filter((r) => !r.caught).map((r) => `${r.fault}: ${r.rule} ${r.verdict} (seed ${r.seed})`)).toEqual([]);
    // Caught by a generalist, not by a dedicated check left on by mistake.
    expect(rows.filter((r) => r.caughtBy.length === 0).map((r) => r.fault)).toEqual([]);
  });
});
