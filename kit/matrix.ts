import { createVitest, type Vitest } from 'vitest/node';
import { FAULT_NAMES, FAULTS, type FaultName } from '../fake/faults/catalogue.js';
import type { OutcomeCollector } from '../reporters/collector.js';
import { type CheckOutcome, ruleResults, type Verdict } from '../reporters/report.js';
import { loadRules } from '../spec/rules.js';
import { type KitConfig, readKitConfig } from './config.js';
import { checkFilesByRule, collectChecks } from './coverage.js';
import { RowCollector, RowOrderSequencer, runRows } from './matrix-rows.js';
import { withOracleVerdicts } from './oracle-verdicts.js';
import { startRun } from './start.js';
import { runsLate } from './tier.js';
import { checkRunOptions, sharedParsedYaml } from './vitest-run.js';

export interface MatrixRow {
  fault: FaultName;
  /** The rules the fault is written to break, with the verdict each got. */
  rules: Array<{ id: string; verdict: Verdict; reason: string }>;
  /** Whether the fault's first rule failed (or warned, for advisory rules): the fault is killed. */
  killed: boolean;
  /** Other rules of the files that ran whose verdict differs from the clean run. */
  alsoChanged: string[];
  ms: number;
  /** The seed of the row's property and model-based runs: a fault left alive replays with `--fake-fault F --seed S`. */
  seed?: number;
}

export interface MatrixOptions {
  faults?: readonly FaultName[];
  /** Run only every count-th fault starting at index (0-based), to spread the matrix over processes. */
  shard?: { index: number; count: number };
  /**
   * 'run': a clean run first gives the baseline verdicts; 'assume-pass': every rule is taken to
   * pass on the clean fake (proved by its own test), which saves a full run per shard.
   */
  baseline?: 'run' | 'assume-pass';
  /** Called after each fault, for progress output. */
  onRow?: (row: MatrixRow, done: number, total: number) => void;
}

/**
 * Runs the kit against the fake once per fault, narrowed to the files holding the checks of the
 * fault's rules, in one vitest instance and one run of it, whose one worker serves every row
 * (kit/matrix-rows.ts). A row whose files report nothing at all (a worker lost mid-run) runs
 * again on its own.
 */
export async function runFaultMatrix(
  options: MatrixOptions = {},
): Promise<{ clean: Map<string, Verdict>; rows: MatrixRow[] }> {
  sharedParsedYaml(); // each worker then reads the spec files parsed
  const rules = loadRules();
  const collector = new RowCollector();
  // Which files to run for a fault: those whose checks declare its rules (vitest meta.rules).
  const collected = await collectChecks();
  if (collected.errors.length > 0) throw new Error(`check files failed to collect: ${collected.errors.join('; ')}`);
  const filesOf = checkFilesByRule(collected.checks);
  // As in a kit run, but for the order of the rows' files.
  const vitest = await createVitest('test', checkRunOptions(collector, { sequence: { sequencer: RowOrderSequencer } }));
  try {
    // Every check file: a clean baseline and the faults only the oracle sees run them all.
    const allFiles = (await vitest.globTestSpecifications())
      .map((s) => s.moduleId)
      .sort((a, b) => runsLate(a) - runsLate(b));
    const cleanVerdicts: Map<string, Verdict> =
      options.baseline === 'assume-pass'
        ? new Map(rules.map((r) => [r.id, 'pass']))
        : verdicts((await runOnce(vitest, collector, [], [], allFiles)).outcomes, rules);
    const { index, count } = options.shard ?? { index: 0, count: 1 };
    const faults = (options.faults ?? FAULT_NAMES).filter((_, i) => i % count === index);
    const plans = faults.map((fault) => {
      const targets: string[] = [...FAULTS[fault].rules];
      // A fault only the oracle can see, or of a rule no check names, is proved by a whole run: the
      // traffic of every check, no --only.
      const whole = FAULTS[fault].judgedBy === 'oracle' || targets.some((id) => !filesOf.has(id));
      const files = whole
        ? allFiles
        : [...new Set(targets.flatMap((id) => filesOf.get(id) ?? []))].sort((a, b) => runsLate(a) - runsLate(b));
      return { fault, targets, whole, files, config: rowConfig([fault], whole ? [] : targets) };
    });
    const rows: MatrixRow[] = [];
    const byPlan: MatrixRow[] = [];
    // A file of the row that failed to load or whose hooks threw is named in a survivor's reason.
    const rowOf = (
      i: number,
      outcomes: readonly CheckOutcome[],
      ms: number,
      errors: readonly string[] = [],
      seed?: number,
    ): MatrixRow => {
      const { fault, targets } = plans[i]!;
      const got = verdicts(outcomes, rules);
      const withErrors = (id: string) =>
        errors.length > 0 && got.get(id) !== 'fail' ? `; errors in the row's files: ${errors.join('; ')}` : '';
      return {
        fault,
        rules: targets.map((id) => ({
          id,
          verdict: got.get(id) ?? 'error',
          reason: `${reasonOf(outcomes, rules, id)}${withErrors(id)}`,
        })),
        killed: ['fail', 'warn'].includes(got.get(targets[0]!) ?? 'error'),
        alsoChanged: [...got]
          .filter(([id, v]) => !targets.includes(id) && cleanVerdicts.get(id) !== v)
          .map(([id, v]) => `${id}:${v}`)
          .sort(),
        ms,
        ...(seed === undefined ? {} : { seed }),
      };
    };
    const results = await runRows(vitest, collector, plans, (i, result) => {
      if (result.outcomes.length === 0) return; // run again below
      rows.push((byPlan[i] = rowOf(i, result.outcomes, result.ms, result.errors, result.seed)));
      options.onRow?.(byPlan[i], rows.length, plans.length);
    });
    for (const [i, result] of results.entries()) {
      if (result.outcomes.length > 0) continue;
      const started = performance.now();
      const { fault, targets, whole, files } = plans[i]!;
      const { outcomes, seed } =
        files.length === 0
          ? { outcomes: [], seed: undefined }
          : await runOnce(vitest, collector, [fault], whole ? [] : targets, files);
      rows.push((byPlan[i] = rowOf(i, outcomes, Math.round(performance.now() - started), [], seed)));
      options.onRow?.(byPlan[i], rows.length, plans.length);
    }
    return { clean: cleanVerdicts, rows: byPlan };
  } finally {
    await vitest.close();
  }
}

/**
 * The kit config of one row: the embedded fake with these faults, narrowed to these rules. A row
 * needs a failure, not its shortest form: model-based runs do not shrink (up to 100 sequences more).
 */
function rowConfig(faults: readonly string[], only: readonly string[]): KitConfig {
  const config = readKitConfig(
    [...faults.flatMap((f) => ['--fake-fault', f]), ...only.flatMap((id) => ['--only', id])],
    {},
  );
  return { ...config, budgetOverrides: { ...config.budgetOverrides, model_shrink_runs: 0 } };
}

async function runOnce(
  vitest: Vitest,
  collector: OutcomeCollector,
  faults: string[],
  only: string[],
  files: string[],
): Promise<{ outcomes: CheckOutcome[]; seed: number }> {
  const run = await startRun(rowConfig(faults, only));
  collector.outcomes.length = 0;
  for (const project of vitest.projects) project.provide('kit', run.context);
  const project = vitest.projects.find((p) => p.name === 'conformance')!;
  let totals: Awaited<ReturnType<typeof run.finish>> | undefined;
  try {
    await vitest.runTestSpecifications(files.map((file) => project.createSpecification(file)));
  } finally {
    totals = await run.finish();
  }
  return { outcomes: withOracleVerdicts(collector.outcomes, totals.oracle), seed: run.context.seed };
}

function verdicts(outcomes: readonly CheckOutcome[], rules: ReturnType<typeof loadRules>): Map<string, Verdict> {
  const seen = new Set(outcomes.flatMap((o) => o.rules));
  return new Map(
    ruleResults(outcomes, rules)
      .filter((r) => seen.has(r.id))
      .map((r) => [r.id, r.verdict]),
  );
}

function reasonOf(outcomes: readonly CheckOutcome[], rules: ReturnType<typeof loadRules>, id: string): string {
  return ruleResults(outcomes, rules, [id])[0]?.reason ?? '';
}
