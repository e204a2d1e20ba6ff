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
import { RUN_USAGE, readKitConfig, wantsHelp } from '../suites/harness/config.js';
import { UsageError } from '../suites/harness/errors.js';
import { startRun } from '../suites/harness/run.js';

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
  const run = await startRun(config);
  const ctx = run.context;
  let done = 0;
  const collector = new OutcomeCollector('conformance', () => {
    done++;
    if (!config.quiet && done % 25 === 0) process.stderr.write(`  ${done} checks done\n`);
  });
  const onlyPattern = config.only.length > 0 ? `\\[[^\\]]*(${config.only.map(escapeRegex).join('|')})(\\.|[\\] ])` : undefined;
  const vitest = await createVitest('test', {
    root: packageRoot,
    config: join(packageRoot, 'vitest.config.ts'),
    project: ['conformance'],
    watch: false,
    reporters: [collector],
    ...(onlyPattern ? { testNamePattern: onlyPattern } : {}),
    // Against a remote target: one file at a time, one client, so pacing and budget hold for the run.
    ...(ctx.embedded ? {} : { fileParallelism: false, isolate: false, maxWorkers: 1 }),
  });
  for (const project of vitest.projects) project.provide('kit', ctx);
  const interrupt = () => {
    process.stderr.write('\nnotes-conformance: interrupted; cleaning up what the run created...\n');
    void vitest.cancelCurrentRun('keyboard-input');
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    await vitest.start();
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await vitest.close();
  }
  const totals = await run.finish();
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
  return { exitCode: report.exit_code, report };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
