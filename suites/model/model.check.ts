import fc from 'fast-check';
import { EDGE_INPUT_KINDS } from '../../kit/core/sequences/edges.js';
import { opsArbitrary } from '../../kit/core/sequences/ops.js';
import { runOps } from '../../kit/core/sequences/sequence.js';
import { runStep } from '../../kit/core/sequences/steps.js';
import { LIMITS } from '../../spec/limits.js';
import type { CheckContext } from '../harness/check.js';
import { isKitError } from '../harness/errors.js';
import { checks, KitError } from '../harness/index.js';
import { checkRunner } from './runner.js';

const { check, kit } = checks();

/**
 * The rules whose situations the random sequences set up (their verdicts are the oracle's, on the
 * sequences' answers): ids, versions, backdates, trash, deletes, membership, the views.
 */
const CORE_RULES = [
  'notes.create.id-conflict-409',
  'notes.create.id-honoured',
  'notes.create.content-stored',
  'collections.create.id-conflict-409',
  'notes.update.version-stale-refused',
  'notes.update.version-ahead-refused',
  'notes.update.version-changes',
  'notes.update.content-replaced',
  'notes.update.trashed-refused',
  'notes.set-created-at.applied',
  'notes.set-created-at.backdate-only',
  'notes.set-created-at.not-future',
  'notes.set-created-at.trashed-refused',
  'notes.set-created-at.original-creation-bound',
  'notes.set-created-at.version-unchanged',
  'notes.trash.readable-by-id',
  'notes.delete.permanent',
  'membership.add.links',
  'membership.move.moves',
  'membership.collection-ids.current',
  'collections.read.note-count',
  'collections.delete.permanent',
  'notes.search.response-fields',
  'notes.related.response-fields',
  'notes.list.response-fields',
] as const;

/**
 * Random sequences of operations (kit/core/sequences/), sent through the run's API: the oracle
 * judges every answer. A sequence after whose step the oracle found a rule broken fails the
 * property, which fast-check shrinks to a short one; its seed, path and steps are added to what
 * the oracle found, so the report shows how to replay it.
 */
async function runModel(t: CheckContext, withRestoreAndRemove: boolean): Promise<void> {
  const shared = {
    since: new Date(Date.now() - t.ctx.clockToleranceMs).toISOString(),
    edgesSent: new Map<string, number>(),
    // Notes a walk of the largest page may make to pass it, within what one check may create; not under a cap.
    ...(t.ctx.createCaps ? {} : { fillers: { made: 0, max: t.budgets.max_seed_notes } }),
  };
  const mark = kit.oracle.judgements.failures;
  let failingSteps: string[] = [];
  let failed = false;
  let shrinkRuns = 0;
  // Each shrinking step re-sends a sequence: unbounded, one seed once replayed 2,287 of them; 100
  // still shorten a failing run to a few steps.
  const shrinkBudget = t.budgets.model_shrink_runs;
  const ops = opsArbitrary({
    restore: withRestoreAndRemove,
    remove: withRestoreAndRemove,
    headings: false,
    edges: EDGE_INPUT_KINDS,
    maxOps: t.budgets.model_max_commands,
  });
  const property = fc.asyncProperty(ops, async (sequence) => {
    // Once shrinking has spent its budget, a sequence passes unsent: fast-check keeps the shortest failure so far.
    if (failed && shrinkRuns >= shrinkBudget) return;
    if (failed) shrinkRuns++;
    const run = checkRunner(t, shared);
    const brokenAt = await runOps(run, sequence);
    if (brokenAt === undefined) return;
    failed = true;
    failingSteps = run.steps.slice(0, brokenAt);
    throw new Error(`the oracle found a rule broken after step ${brokenAt}`);
  });
  await walkLargestPage(t, shared);
  const details = await fc.check(property, { numRuns: t.budgets.model_runs, seed: t.ctx.seed, endOnFailure: false });
  if (!details.failed) return;
  const error = details.errorInstance;
  // The kit could not go on (a timeout, a budget): the sequences judged nothing more.
  if (isKitError(error)) throw error;
  if (!failed) throw new KitError(`the model-based run stopped on ${String(error)}`);
  const shrunk = shrinkRuns >= shrinkBudget ? `, shrinking stopped after ${shrinkRuns} sequences` : '';
  kit.oracle.judgements.annotateSince(
    mark,
    `found by a model-based sequence; replay with --seed ${details.seed}` +
      ` (path ${details.counterexamplePath ?? '?'}${shrunk}); steps: ${failingSteps.join(' ; ')}`,
  );
}

/**
 * One walk of the largest page in every run, not left to the seed: the random sequences ask for a
 * page of 100 one list in ten, and a run whose seed never did looked past a server that ends its
 * walk at a full page of 100. The oracle judges each page like any other.
 */
async function walkLargestPage(t: CheckContext, shared: Parameters<typeof checkRunner>[1]): Promise<void> {
  const run = checkRunner(t, shared);
  const max = LIMITS.notesListLimit.max;
  await runStep(run, { kind: 'listNotes', pageSize: max, order: 'default', filter: 'created-after-run', coll: 0 });
}

check(
  'random sequences of creates, updates, backdates, trash, deletes and moves behave as documented (model-based)',
  { oracle: CORE_RULES, generalist: true, timeout: 600_000 },
  (t) => runModel(t, false),
);

check(
  'the same with restore and remove in the mix (model-based)',
  {
    oracle: [...CORE_RULES, 'notes.restore.returns-to-active', 'membership.remove.unlinks'],
    needs: ['profile:endpoints.restore_note', 'profile:endpoints.remove_note_from_collection'],
    generalist: true,
    timeout: 600_000,
  },
  (t) => runModel(t, true),
);
