import { threadId } from 'node:worker_threads';
import { explore } from '../../kit/core/explore/explorer.js';
import { allTargets, opNeeds } from '../../kit/core/explore/space.js';
import { claimUnit, otherExplorers, recordedCoverage, writeExplorerProgress } from '../../kit/core/run-folder.js';
import type { Op } from '../../kit/core/sequences/ops.js';
import { runOps } from '../../kit/core/sequences/sequence.js';
import { unmetNeed } from '../harness/check.js';
import { checks } from '../harness/index.js';
import { checkRunner } from './runner.js';

/**
 * The explorer (kit/core/explore/): after the checks of this worker, it sends what visits the
 * behaviour targets their traffic left (spec/behaviour-space.yaml), within budgets.explore_requests.
 * The oracle judges every answer; a walk during which it found a rule broken is shortened (each
 * step left out in turn, kept out while the rest still breaks a rule, within model_shrink_runs)
 * and its steps are added to what the oracle found, so the report shows a short replay.
 *
 * Two files register it (explore.check.ts, explore-beside.check.ts): with two workers, the one
 * that finishes its other files first starts exploring, the other joins when it is free, and the
 * two take the units of the exploration in turn (claimUnit), sharing the budget and what they
 * visited through the run folder. With one worker the first takes every unit, and the second
 * finds them taken and sends nothing.
 */
export function exploreCheck(name: string, title: string): void {
  const { check, kit } = checks();
  check(
    title,
    { oracle: ['membership.collection-ids.current', 'notes.delete.permanent'], generalist: true, timeout: 600_000 },
    async (t) => {
      const shared = { since: new Date(Date.now() - t.ctx.clockToleranceMs).toISOString(), edgesSent: new Map() };
      const oracle = kit.oracle;
      const targets = allTargets().filter((target) => target.needs.every((need) => t.declares(need)));
      let shrinkRuns = 0;
      const reported = new Set<string>();
      let units = 0;
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
        answered: () => oracle.answeredCount,
        // Two workers against the embedded fake: what the other's finished files and explorer visited is left to them.
        elsewhere(sent) {
          writeExplorerProgress(t.ctx.runDir, name, threadId, {
            requests: sent,
            covered: [...oracle.coverage.covered],
          });
          const explorers = otherExplorers(t.ctx.runDir, name, threadId);
          return {
            covered: new Set([...recordedCoverage(t.ctx.runDir), ...explorers.flatMap((e) => e.covered)]),
            requests: explorers.reduce((sum, e) => sum + e.requests, 0),
          };
        },
        claim(unit) {
          const taken = claimUnit(t.ctx.runDir, unit);
          if (taken) units++;
          return taken;
        },
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
      writeExplorerProgress(t.ctx.runDir, name, threadId, {
        requests: result.requests,
        covered: [...oracle.coverage.covered],
      });
      // Both explorers may run in one worker: its record tells what they sent together.
      oracle.explored = {
        requests: (oracle.explored?.requests ?? 0) + result.requests,
        budgetSpent: oracle.explored?.budgetSpent === true || result.budgetSpent,
      };
      // A check that sent nothing does not stand in the report as a pass.
      if (units === 0)
        t.skip('took no unit of the exploration: the other explorer file took them all, or none was left to explore');
    },
  );
}

/** Leaves out each operation in turn while the rest still breaks a rule (one pass: a short replay, not the shortest). */
async function shorten(ops: Op[], breaks: (ops: Op[]) => Promise<boolean>): Promise<Op[]> {
  let kept = ops;
  for (let i = kept.length - 1; i >= 0; i--) {
    const without = [...kept.slice(0, i), ...kept.slice(i + 1)];
    if (without.length > 0 && (await breaks(without))) kept = without;
  }
  return kept;
}
