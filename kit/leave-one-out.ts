import { createVitest } from 'vitest/node';
import { FAULT_NAMES, FAULTS, type FaultName } from '../fake/faults/catalogue.js';
import { OutcomeCollector } from '../reporters/collector.js';
import { ruleResults, type Verdict } from '../reporters/report.js';
import { loadRules } from '../spec/rules.js';
import { checkWorkers, readKitConfig } from './config.js';
import { ORACLE_CHECK, withOracleVerdicts } from './oracle-verdicts.js';
import { startRun } from './start.js';
import { checkRunOptions } from './vitest-run.js';

/** One fault run with every check that declares its rules switched off. */
export interface LeaveOneOutRow {
  fault: FaultName;
  /** The rule the fault is written to break (its first). */
  rule: string;
  verdict: Verdict;
  /** The fault's own rule failed: the oracle or a model-based run caught it without its checks. */
  caught: boolean;
  /** Which generalists failed the fault's own rule: the run's oracle, the model-based runs (both may). */
  caughtBy: Array<'oracle' | 'model'>;
  /** Documented rules that failed (the fault showed, perhaps under another rule's name). */
  failed: string[];
  ms: number;
  /** The seed of the run's property and model-based runs: a miss replays with it. */
  seed: number;
}

/**
 * The leave-one-out measure of generalisation: for each fault, a whole kit run against the fake
 * with that fault, in which every check declaring one of the fault's rules is switched off. What
 * still fails was caught by the generalists: the oracle, which judges every exchange the other
 * checks make, and the model-based runs. A whole run per fault: the measure is slow by nature
 * (about a kit run per fault), so the proofs test samples it and `npm run measure:leave-one-out`
 * runs it whole.
 */
export async function runLeaveOneOut(
  options: { faults?: readonly FaultName[]; onRow?: (row: LeaveOneOutRow, done: number, total: number) => void } = {},
): Promise<LeaveOneOutRow[]> {
  const rules = loadRules();
  const levels = new Map(rules.map((r) => [r.id, r.level]));
  const collector = new OutcomeCollector();
  // As a run against the embedded fake: two workers, each as its own users, the run joining their
  // oracles' records (so that this measure proves that path too).
  const workers = checkWorkers({});
  const vitest = await createVitest(
    'test',
    checkRunOptions(collector, workers > 1 ? { maxWorkers: workers, fileParallelism: true } : {}),
  );
  const rows: LeaveOneOutRow[] = [];
  try {
    const specs = await vitest.globTestSpecifications();
    const faults = options.faults ?? FAULT_NAMES;
    for (const fault of faults) {
      const started = performance.now();
      const off = [...FAULTS[fault].rules];
      const run = await startRun(readKitConfig(['--fake-fault', fault], {}));
      collector.outcomes.length = 0;
      const pairs = run.context.workerTokens?.length ?? 1;
      for (const project of vitest.projects)
        project.provide('kit', {
          ...run.context,
          switchedOff: off,
          ...(workers > 1 && pairs >= workers ? { workers } : {}),
        });
      let totals: Awaited<ReturnType<typeof run.finish>> | undefined;
      try {
        await vitest.runTestSpecifications(specs);
      } finally {
        totals = await run.finish();
      }
      const results = ruleResults(withOracleVerdicts(collector.outcomes, totals.oracle), rules);
      const byId = new Map(results.map((r) => [r.id, r]));
      const rule = off[0]!;
      const verdict = byId.get(rule)?.verdict ?? 'error';
      const failing = (byId.get(rule)?.checks ?? []).filter((c) => c.verdict === 'fail' || c.verdict === 'warn');
      const caughtBy = (['oracle', 'model'] as const).filter((who) =>
        failing.some((c) => (who === 'oracle' ? c.file === ORACLE_CHECK.file : c.file.includes('suites/model/'))),
      );
      const row: LeaveOneOutRow = {
        fault,
        rule,
        verdict,
        caught: verdict === 'fail' || verdict === 'warn',
        caughtBy: [...caughtBy],
        failed: results
          .filter((r) => r.verdict === 'fail' && levels.get(r.id) === 'documented')
          .map((r) => r.id)
          .sort(),
        ms: Math.round(performance.now() - started),
        seed: run.context.seed,
      };
      rows.push(row);
      options.onRow?.(row, rows.length, faults.length);
    }
  } finally {
    await vitest.close();
  }
  return rows;
}
