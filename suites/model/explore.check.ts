import { explore } from '../../kit/core/explore/explorer.js';
import { allTargets, opNeeds } from '../../kit/core/explore/space.js';
import type { OracleRecord } from '../../kit/core/oracle/oracle.js';
import { oracleRecords } from '../../kit/core/run-folder.js';
import type { Op } from '../../kit/core/sequences/ops.js';
import { runOps } from '../../kit/core/sequences/sequence.js';
import { unmetNeed } from '../harness/check.js';
import { checks } from '../harness/index.js';
import { checkRunner } from './runner.js';

const { check, kit } = checks();

/**
 * The explorer (kit/core/explore/): after the checks of this worker, it sends what visits the
 * behaviour targets their traffic left (spec/behaviour-space.yaml), within budgets.explore_requests.
 * The oracle judges every answer; a walk during which it found a rule broken is shortened (each
 * step left out in turn, kept out while the rest still breaks a rule, within model_shrink_runs)
 * and its steps are added to what the oracle found, so the report shows a short replay.
 */
check(
  'the explorer visits the states, inputs, views and paging boundaries the other checks did not (behaviour coverage)',
  { oracle: ['membership.collection-ids.current', 'notes.delete.permanent'], generalist: true, timeout: 600_000 },
  async (t) => {
    const shared = { since: new Date(Date.now() - t.ctx.clockToleranceMs).toISOString(), edgesSent: new Map() };
    const oracle = kit.oracle;
    const answered = () =>
      Object.values(oracle.operations).reduce(
        (sum, statuses) => sum + Object.values(statuses).reduce((a, b) => a + b, 0),
        0,
      );
    const targets = allTargets().filter((target) => target.needs.every((need) => t.declares(need)));
    let shrinkRuns = 0;
    const reported = new Set<string>();
    const result = await explore({
      fresh: () => checkRunner(t, shared),
      coverage: oracle.coverage,
      targets,
      sendable: (op) => opNeeds(op).every((need) => t.declares(need)),
      budget: t.budgets.explore_requests,
      ...(kit.secondary ? { stranger: kit.secondary } : {}),
      ...(unmetNeed(kit, 'fixtures:attachments') === undefined
        ? {
            async attach(noteId: string) {
              const added = await t.fixtures().addAttachment(noteId, { attachment_kind: 'pdf', page_count: 1 });
              return typeof added.attachment_id === 'string' ? added.attachment_id : undefined;
            },
          }
        : {}),
      ...(unmetNeed(kit, 'fixtures:users') === undefined && unmetNeed(kit, 'fixtures:quota') === undefined
        ? { quotaUser: async (limit: number) => (await t.fixtureUser({ quota: { limit } })).api }
        : {}),
      ...(unmetNeed(kit, 'fixtures:users') === undefined && unmetNeed(kit, 'fixtures:rate_limit') === undefined
        ? {
            limited: async () => (await t.fixtureUser({ rate_limit: { requests: 3, requests_per_second: 1 } })).api,
          }
        : {}),
      ...(unmetNeed(kit, 'fixtures:users') === undefined && unmetNeed(kit, 'fixtures:grants') === undefined
        ? {
            async grantee() {
              const { user, api } = await t.fixtureUser();
              return { api, grant: (resource, id, level) => t.fixtures().grant(resource, id, user.user_id, level) };
            },
          }
        : {}),
      answered,
      // Two workers against the embedded fake: what the other's finished files visited is left to them.
      coveredElsewhere: () => new Set(oracleRecords(t.ctx.runDir).flatMap((r) => (r as OracleRecord).coverage ?? [])),
      async onFailure(ops, steps, since) {
        // A few failures are shortened and replayed; the rest keep their steps as they were sent.
        let line = steps.join(' ; ');
        if (reported.size < 3 && shrinkRuns < t.budgets.model_shrink_runs) {
          const shortest = await shorten([...ops], (candidate) => {
            if (shrinkRuns >= t.budgets.model_shrink_runs) return Promise.resolve(false);
            shrinkRuns++;
            return runOps(checkRunner(t, shared), candidate).then((at) => at !== undefined);
          });
          if (shortest.length < ops.length) {
            const replay = checkRunner(t, shared);
            await runOps(replay, shortest);
            line = replay.steps.join(' ; ');
          }
        }
        reported.add(line);
        oracle.judgements.annotateSince(since, `found by the explorer (--seed ${t.ctx.seed}); steps: ${line}`);
      },
    });
    oracle.explored = { requests: result.requests, budgetSpent: result.budgetSpent };
  },
);

/** Leaves out each operation in turn while the rest still breaks a rule (one pass: a short replay, not the shortest). */
async function shorten(ops: Op[], breaks: (ops: Op[]) => Promise<boolean>): Promise<Op[]> {
  let kept = ops;
  for (let i = kept.length - 1; i >= 0; i--) {
    const without = [...kept.slice(0, i), ...kept.slice(i + 1)];
    if (without.length > 0 && (await breaks(without))) kept = without;
  }
  return kept;
}
