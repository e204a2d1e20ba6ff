import type { Runner } from '../../kit/core/sequences/runner.js';
import type { CheckContext } from '../harness/check.js';

/**
 * A sequence's runner in a check (kit/core/sequences/runner.ts): the check's API, whose oracle
 * keeps the one state of the run, and a time window of the check's own for the instants the
 * sequence supplies (in the past, so lists bounded by the check's start tell them apart).
 */
export function checkRunner(
  t: CheckContext,
  shared: { since: string; edgesSent: Map<string, number>; fillers?: { made: number; max: number } },
): Runner {
  const window = t.data.window();
  let stamps = 0;
  return {
    api: t.api,
    world: t.kit.oracle.world,
    owner: 'primary',
    mine: { notes: [], collections: [] },
    steps: [],
    content: (title, body) => t.data.content(title, body),
    word: () => t.data.word(),
    // A minute apart, in the window's units: supplied instants only grow, so created_at comes before updated_at.
    stamp: () => window.ms(++stamps * 60),
    clock: { toleranceMs: t.ctx.clockToleranceMs, precisionMs: t.precisionMs },
    since: shared.since,
    declares: (field) => t.declares(field),
    profile: t.profile,
    ...(shared.fillers ? { fillers: shared.fillers } : {}),
    edgesSent: shared.edgesSent,
    failures: () => t.kit.oracle.judgements.failures,
  };
}
