import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestModule, TestSpecification, Vitest } from 'vitest/node';
import { OutcomeCollector } from '../reporters/collector.js';
import type { CheckOutcome } from '../reporters/report.js';
import type { KitConfig } from './config.js';
import { withOracleVerdicts } from './oracle-verdicts.js';
import type { RunHandle } from './start.js';
import { startRun } from './start.js';
import { QuotaLastSequencer } from './tier.js';

/** One row of the fault matrix: a kit run with its own config (fault, --only) over some check files. */
export interface RowPlan {
  config: KitConfig;
  /** Absolute paths of the check files, in the order they run. */
  files: readonly string[];
}

export interface RowResult {
  outcomes: CheckOutcome[];
  /** Errors of the row's files (an import that failed, a hook that threw), one line each. */
  errors: string[];
  ms: number;
  /** The seed of the row's property and model-based runs: `--seed` replays them. */
  seed?: number;
}

/**
 * Runs many rows in one vitest run, so that one worker serves them all: a worker costs about a
 * second to start, as much as a typical row's checks. Each row runs its check files as
 * `file.check.ts?matrix-row=7` (a query makes each a module of its own, whose checks register
 * again); before each, the conformance project's setup file (suites/harness/matrix-row.ts) asks
 * this process for the row's run: the first to ask ends the row before (its files have all ended:
 * one worker, one file at a time) and starts this one, with its own fake, run folder and --only,
 * as a run of its own would. Nothing is written but the runs' own folders.
 */
export async function runRows(
  vitest: Vitest,
  collector: RowCollector,
  plans: readonly RowPlan[],
  onRow?: (index: number, result: RowResult) => void,
): Promise<RowResult[]> {
  const results: RowResult[] = plans.map(() => ({ outcomes: [], errors: [], ms: 0 }));
  let current: { index: number; run: RunHandle; started: number } | undefined;
  let switching = Promise.resolve();
  const rowModules = plans.map((plan, index) => plan.files.map((file) => `${file}?matrix-row=${index}`));

  /** Ends the current row: waits for its files' results, sweeps its run, and hands its outcomes on. */
  async function endRow(): Promise<void> {
    if (!current) return;
    const { index, run, started } = current;
    current = undefined;
    await collector.ended(rowModules[index]!);
    const totals = await run.finish();
    const result = results[index]!;
    result.outcomes = withOracleVerdicts(
      collector.outcomes.filter((o) => rowOf(o.file) === index),
      totals.oracle,
    );
    result.errors = collector.runErrors.filter((e) => rowOf(e) === index);
    result.ms = Math.round(performance.now() - started);
    result.seed = run.context.seed;
    onRow?.(index, result);
  }

  async function enterRow(index: number): Promise<RunHandle> {
    if (current?.index === index) return current.run;
    await endRow();
    const started = performance.now();
    const run = await startRun(plans[index]!.config);
    current = { index, run, started };
    return run;
  }

  const server = createServer((req, res) => {
    const index = Number(/^\/row\/(\d+)$/.exec(req.url ?? '')?.[1] ?? Number.NaN);
    if (!(index >= 0 && index < plans.length)) {
      res.writeHead(404).end(`no row ${req.url}`);
      return;
    }
    // One switch at a time (the files of a row ask in turn, but never let two overlap).
    const switched = switching.then(() => enterRow(index));
    switching = switched.then(
      () => undefined,
      () => undefined,
    );
    switched.then(
      (run) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(run.context)),
      (error: unknown) => res.writeHead(500).end(error instanceof Error ? error.message : String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const controlUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    // The first row starts before the run: vitest needs a provided run (or kit/global-setup.ts starts one).
    const first = plans.findIndex((plan) => plan.files.length > 0);
    if (first < 0) return results;
    const run = await enterRow(first);
    for (const project of vitest.projects) {
      project.provide('kit', run.context);
      project.provide('matrixControl', controlUrl);
    }
    const project = vitest.projects.find((p) => p.name === 'conformance')!;
    await vitest.runTestSpecifications(rowModules.flat().map((file) => project.createSpecification(file)));
    await switching;
    await endRow();
    return results;
  } finally {
    // A row left running (vitest stopped early) still has its run swept and its fake stopped.
    await current?.run.finish().catch(() => undefined);
    server.close();
  }
}

/** The row a check file's outcome or error line belongs to (its module ends `?matrix-row=N`). */
function rowOf(text: string): number {
  const m = /\?matrix-row=(\d+)/.exec(text);
  return m ? Number(m[1]) : -1;
}

/** The outcome collector, which also knows which files have ended (their results are all in). */
export class RowCollector extends OutcomeCollector {
  private readonly endedFiles = new Set<string>();
  private waiters: Array<() => void> = [];

  override onTestModuleEnd(module: TestModule): void {
    super.onTestModuleEnd(module);
    this.endedFiles.add(module.moduleId);
    for (const wake of this.waiters.splice(0)) wake();
  }

  /**
   * Resolves once every file given has ended, or after a bound: vitest reports a file's end before
   * the worker starts the next one, so the bound is only a guard against a file that never ran.
   */
  async ended(files: readonly string[]): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!files.every((f) => this.endedFiles.has(f)) && Date.now() < deadline)
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100).unref();
      });
  }
}

/** Rows in order, each's files in the order the matrix planned (a stable sort); other runs as in a kit run. */
export class RowOrderSequencer extends QuotaLastSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    if (!files.every((f) => rowOf(f.moduleId) >= 0)) return super.sort(files);
    return [...files].sort((a, b) => rowOf(a.moduleId) - rowOf(b.moduleId));
  }
}
