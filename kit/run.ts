import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createVitest } from 'vitest/node';
import { renderHtml } from '../reporters/render-html.js';
import { renderJson } from '../reporters/render-json.js';
import { renderJunit } from '../reporters/render-junit.js';
import { renderMarkdown } from '../reporters/render-markdown.js';
import { renderTerminal } from '../reporters/render-terminal.js';
import { OutcomeCollector } from '../reporters/collector.js';
import { type ConformanceReport, buildReport } from '../reporters/report.js';
import { packageRoot } from '../spec/paths.js';
import { loadRules } from '../spec/rules.js';
import { type KitConfig, RUN_USAGE, readKitConfig, wantsHelp } from '../suites/harness/config.js';
import { UsageError } from '../suites/harness/errors.js';
import type { KitContext } from '../suites/harness/context.js';
import { type RunTotals, startRun } from '../suites/harness/run.js';
import { Interrupt } from './interrupt.js';

export interface RunResult {
  exitCode: number;
  report: ConformanceReport;
}

/** notes-conformance [options]: runs every check against the target and reports per rule. */
export async function runCommand(argv: string[]): Promise<number> {
  if (wantsHelp(argv)) {
    process.stdout.write(`${RUN_USAGE}\n`);
    return 0;
  }
  const { exitCode } = await runKit(argv, process.env, (text) => process.stdout.write(text));
  return exitCode;
}

/** The whole run, usable in-process (tests, the fault matrix): config -> target -> vitest -> report. */
export async function runKit(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, print: (text: string) => void): Promise<RunResult> {
  const config = readKitConfig(argv, env);
  const ruleIds = loadRules().map((r) => r.id);
  for (const prefix of config.only) {
    if (!ruleIds.some((id) => id === prefix || id.startsWith(`${prefix}.`))) {
      throw new UsageError(`--only ${prefix} matches no rule id (give a rule id or a dotted prefix such as notes.create)`);
    }
  }
  const interrupt = new Interrupt((text) => process.stderr.write(text));
  try {
    return await runAndSweep(config, interrupt, print);
  } finally {
    // Only now: a signal during the sweep must not end the process before it is done.
    interrupt.dispose();
  }
}

async function runAndSweep(config: KitConfig, interrupt: Interrupt, print: (text: string) => void): Promise<RunResult> {
  const run = await startRun(config);
  const ctx = run.context;
  let done = 0;
  const collector = new OutcomeCollector('conformance', () => {
    done++;
    if (!config.quiet && done % 25 === 0) process.stderr.write(`  ${done} checks done\n`);
  });
  let totals: RunTotals;
  try {
    await runChecks(config, ctx, collector, interrupt);
  } finally {
    // Whatever happened to the checks (failed, threw, cancelled), the sweep runs.
    totals = await run.finish();
  }
  if (interrupt.signal) process.stderr.write(`notes-conformance: run interrupted; ${totals.leftovers} resource(s) left behind\n`);
  process.exitCode = 0;
  const version = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const report = buildReport({
    version,
    target: ctx.targetLabel,
    profileName: ctx.profile.name,
    profileDeclared: ctx.profileDeclared,
    seed: ctx.seed,
    only: config.only,
    rules: loadRules(),
    outcomes: collector.outcomes,
    requests: totals.requests,
    leftovers: totals.leftovers,
    runErrors: collector.runErrors,
  });
  const outputs: Array<[string | undefined, (r: ConformanceReport) => string]> = [
    [config.outputs.json, renderJson], [config.outputs.junit, renderJunit], [config.outputs.markdown, renderMarkdown], [config.outputs.html, renderHtml],
  ];
  for (const [path, render] of outputs) {
    if (!path) continue;
    const file = resolve(path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, render(report));
  }
  print(renderTerminal(report, { quiet: config.quiet }));
  return { exitCode: interrupt.exitCode ?? report.exit_code, report };
}

async function runChecks(config: KitConfig, ctx: KitContext, collector: OutcomeCollector, interrupt: Interrupt): Promise<void> {
  if (interrupt.signal) return; // interrupted while the run was starting
  const onlyPattern = config.only.length > 0 ? `\\[[^\\]]*(${config.only.map(escapeRegex).join('|')})(\\.|[\\] ])` : undefined;
  const vitest = await interrupt.createVitest(() => createVitest('test', {
    root: packageRoot,
    config: join(packageRoot, 'vitest.config.ts'),
    project: ['conformance'],
    watch: false,
    reporters: [collector],
    ...(onlyPattern ? { testNamePattern: onlyPattern } : {}),
    // One file at a time in one worker that keeps its modules: against a remote target one client
    // keeps pacing and budget for the run, and against the fake it is several times faster than
    // parallel isolated workers on a small machine (which re-import the kit for every file).
    fileParallelism: false, isolate: false, maxWorkers: 1,
  }));
  // Workers leave the signals sent to the whole process group to this process, which cancels
  // them and sweeps (suites/harness/signals.ts says how).
  for (const project of vitest.projects) project.provide('kit', { ...ctx, parentHandlesInterrupt: true });
  try {
    if (!interrupt.signal) await vitest.start();
  } finally {
    await vitest.close();
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
