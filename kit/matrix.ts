import { createVitest, type Vitest } from 'vitest/node';
import { FAULT_NAMES, FAULTS, type FaultName } from '../fake/faults/catalogue.js';
import { OutcomeCollector } from '../reporters/collector.js';
import { buildReport, type CheckOutcome, type Verdict } from '../reporters/report.js';
import { loadRules } from '../spec/rules.js';
import { readKitConfig } from './config.js';
import { checkFilesByRule, collectChecks } from './coverage.js';
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
 * fault's rules, in one vitest instance (no startup per fault).
 */
export async function runFaultMatrix(
  options: MatrixOptions = {},
): Promise<{ clean: Map<string, Verdict>; rows: MatrixRow[] }> {
  sharedParsedYaml(); // a worker per row: each then reads the spec files parsed
  const rules = loadRules();
  const collector = new OutcomeCollector();
  // Which files to run for a fault: those whose checks declare its rules (vitest meta.rules).
  const collected = await collectChecks();
  if (collected.errors.length > 0) throw new Error(`check files failed to collect: ${collected.errors.join('; ')}`);
  const filesOf = checkFilesByRule(collected.checks);
  // As in a kit run (the kit is made anew for each row).
  const vitest = await createVitest('test', checkRunOptions(collector));
  try {
    // Every check file, the oracle's last (kit/tier.ts): a clean baseline and the faults only the oracle sees run them all.
    const allFiles = (await vitest.globTestSpecifications())
      .map((s) => s.moduleId)
      .sort((a, b) => runsLate(a) - runsLate(b));
    const cleanVerdicts: Map<string, Verdict> =
      options.baseline === 'assume-pass'
        ? new Map(rules.map((r) => [r.id, 'pass']))
        : verdicts(await runOnce(vitest, collector, [], [], allFiles), rules);
    const { index, count } = options.shard ?? { index: 0, count: 1 };
    const faults = (options.faults ?? FAULT_NAMES).filter((_, i) => i % count === index);
    const rows: MatrixRow[] = [];
    for (const fault of faults) {
      const started = performance.now();
      const targets: string[] = [...FAULTS[fault].rules];
      const files = [...new Set(targets.flatMap((id) => filesOf.get(id) ?? []))].sort(
        (a, b) => runsLate(a) - runsLate(b),
      );
      // A fault only the oracle can see is proved by a whole run: the traffic of every check, no --only.
      const whole = FAULTS[fault].judgedBy === 'oracle';
      const outcomes = whole
        ? await runOnce(vitest, collector, [fault], [], allFiles)
        : files.length === 0
          ? []
          : await runOnce(vitest, collector, [fault], targets, files);
      const got = verdicts(outcomes, rules);
      const row: MatrixRow = {
        fault,
        rules: targets.map((id) => ({ id, verdict: got.get(id) ?? 'error', reason: reasonOf(outcomes, rules, id) })),
        killed: ['fail', 'warn'].includes(got.get(targets[0]!) ?? 'error'),
        alsoChanged: [...got]
          .filter(([id, v]) => !targets.includes(id) && cleanVerdicts.get(id) !== v)
          .map(([id, v]) => `${id}:${v}`)
          .sort(),
        ms: Math.round(performance.now() - started),
      };
      rows.push(row);
      options.onRow?.(row, rows.length, faults.length);
    }
    return { clean: cleanVerdicts, rows };
  } finally {
    await vitest.close();
  }
}

async function runOnce(
  vitest: Vitest,
  collector: OutcomeCollector,
  faults: string[],
  only: string[],
  files: string[],
): Promise<CheckOutcome[]> {
  const config = readKitConfig(
    [...faults.flatMap((f) => ['--fake-fault', f]), ...only.flatMap((id) => ['--only', id])],
    {},
  );
  const run = await startRun(config);
  collector.outcomes.length = 0;
  for (const project of vitest.projects) project.provide('kit', run.context);
  const project = vitest.projects.find((p) => p.name === 'conformance')!;
  try {
    await vitest.runTestSpecifications(files.map((file) => project.createSpecification(file)));
  } finally {
    await run.finish();
  }
  return [...collector.outcomes];
}

function verdicts(outcomes: readonly CheckOutcome[], rules: ReturnType<typeof loadRules>): Map<string, Verdict> {
  const report = buildReport({
    version: '',
    target: '',
    profileName: '',
    profileDeclared: true,
    seed: 0,
    only: [],
    rules,
    outcomes,
    requests: 0,
    leftovers: 0,
    runErrors: [],
  });
  const seen = new Set(outcomes.flatMap((o) => o.rules));
  return new Map(report.rules.filter((r) => seen.has(r.id)).map((r) => [r.id, r.verdict]));
}

function reasonOf(outcomes: readonly CheckOutcome[], rules: ReturnType<typeof loadRules>, id: string): string {
  const report = buildReport({
    version: '',
    target: '',
    profileName: '',
    profileDeclared: true,
    seed: 0,
    only: [id],
    rules,
    outcomes,
    requests: 0,
    leftovers: 0,
    runErrors: [],
  });
  return report.rules[0]?.reason ?? '';
}
