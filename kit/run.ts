import { mkdirSync, writeFileSync } from 'node:fs';
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
import { loadRules, selectedByOnly } from '../spec/rules.js';
import { kitVersion } from '../spec/version.js';
import type { KitContext } from '../suites/harness/context.js';
import { UsageError } from '../suites/harness/errors.js';
import { redactDeep } from '../suites/harness/redact.js';
import { type KitConfig, readKitConfig } from './config.js';
import { collectChecks, filesForOnly } from './coverage.js';
import { Interrupt } from './interrupt.js';
import { type RunTotals, startRun } from './start.js';
import { QuotaLastSequencer, planLine } from './tier.js';

export interface RunResult {
  exitCode: number;
  report: ConformanceReport;
}

/** The whole run, usable in-process (tests, the fault matrix): config -> target -> vitest -> report. */
export async function runKit(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, print: (text: string) => void): Promise<RunResult> {
  const config = readKitConfig(argv, env);
  const ruleIds = loadRules().map((r) => r.id);
  for (const prefix of config.only) {
    if (!ruleIds.some((id) => selectedByOnly(id, [prefix]))) {
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
  announcePlan(config);
  const run = await startRun(config, interrupt.stopped);
  const ctx = run.context;
  interrupt.watchWorkers(ctx.runDir);
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
    totals = await run.finish({ interrupted: interrupt.signal !== undefined });
  }
  if (interrupt.signal) process.stderr.write(`notes-conformance: run interrupted; ${totals.leftovers} resource(s) left behind\n`);
  process.exitCode = 0;
  // The final pass: a target may reflect a token into anything (a title, an error message, a
  // header) and a check's assertion message may quote it; no string of any report keeps one.
  const secrets = [config.token, config.secondaryToken, config.fixturesToken, ctx.tokens.primary, ctx.tokens.secondary, ctx.fixtures?.adminToken, ...totals.secrets]
    .filter((s): s is string => typeof s === 'string');
  const report = redactDeep(buildReport({
    version: kitVersion(),
    target: ctx.targetLabel,
    profileName: ctx.profile.name,
    profileDeclared: ctx.profileDeclared,
    seed: ctx.seed,
    only: config.only,
    rules: loadRules(),
    outcomes: collector.outcomes,
    requests: totals.requests,
    created: totals.created,
    ...(totals.quota ? { quota: totals.quota } : {}),
    leftovers: totals.leftovers,
    runErrors: collector.runErrors,
  }), secrets);
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

/** Before the first request: the tier and the most the run will create (kit/tier.ts). */
function announcePlan(config: KitConfig): void {
  process.stderr.write(planLine(config));
}

/** The quota checks run last, so that a quota spent during the run is judged by them (kit/tier.ts). */
function tierSequence(): { sequence: { sequencer: typeof QuotaLastSequencer } } {
  return { sequence: { sequencer: QuotaLastSequencer } };
}

async function runChecks(config: KitConfig, ctx: KitContext, collector: OutcomeCollector, interrupt: Interrupt): Promise<void> {
  if (interrupt.signal) return; // interrupted while the run was starting
  // --only: run the files whose checks declare a selected rule (meta.rules); within them, check()
  // skips the checks of other rules, and the collector leaves those out of the report.
  const files = config.only.length > 0 ? filesForOnly((await collectChecks()).checks, config.only) : [];
  if (interrupt.signal) return;
  const vitest = await interrupt.createVitest(() => createVitest('test', {
    root: packageRoot,
    config: join(packageRoot, 'vitest.config.ts'),
    project: ['conformance'],
    watch: false,
    reporters: [collector],
    // One file at a time in one worker that keeps its modules: against a remote target one client
    // keeps pacing and budget for the run, and against the fake it is several times faster than
    // parallel isolated workers on a small machine (which re-import the kit for every file).
    fileParallelism: false, isolate: false, maxWorkers: 1,
    ...tierSequence(),
  }));
  // Workers leave the signals sent to the whole process group to this process, which cancels
  // them and sweeps (suites/harness/signals.ts says how).
  for (const project of vitest.projects) project.provide('kit', { ...ctx, parentHandlesInterrupt: true });
  try {
    if (!interrupt.signal) await vitest.start(files);
  } finally {
    await vitest.close();
  }
}
