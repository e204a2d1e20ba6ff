import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { createVitest } from 'vitest/node';
import { OutcomeCollector } from '../reporters/collector.js';
import { interruptionOf, markInterrupted } from '../reporters/interrupted.js';
import { RuleProgress } from '../reporters/progress.js';
import { renderHtml } from '../reporters/render-html.js';
import { renderJson } from '../reporters/render-json.js';
import { renderMarkdown } from '../reporters/render-markdown.js';
import { renderSpecHtml } from '../reporters/render-spec.js';
import { renderTerminal, useColour } from '../reporters/render-terminal.js';
import { buildReport, type CheckOutcome, type ConformanceReport } from '../reporters/report.js';
import { formatProgress } from '../reporters/text.js';
import { didYouMean } from '../spec/did-you-mean.js';
import { specFile } from '../spec/paths.js';
import { notInForce } from '../spec/revisions.js';
import { loadRules, ruleSelectors, rulesById, selectedByOnly } from '../spec/rules.js';
import { UsageError } from '../spec/verdicts.js';
import { kitVersion } from '../spec/version.js';
import { behaviourCoverage } from './behaviour-coverage.js';
import { checkWorkers, type KitConfig, readKitConfig } from './config.js';
import { confirmFailures } from './confirm.js';
import type { KitContext } from './core/context.js';
import { unmetNeedIn } from './core/needs.js';
import { redactDeep } from './core/redact.js';
import { rateLimitStretch } from './core/run-folder.js';
import { collectChecks, type DeclaredCheck, filesForOnly } from './coverage.js';
import { harText, linkHar } from './har-output.js';
import { CHECKS_WIND_DOWN_MS, causedByInterrupt, Interrupt, pendingSignalsDispatched } from './interrupt.js';
import { loadNoteCosts } from './note-costs.js';
import { withOracleVerdicts } from './oracle-verdicts.js';
import { planLine as capPlanLine, planUnderCap } from './plan.js';
import { makeDirectories } from './report-paths.js';
import { type RunTotals, startRun } from './start.js';
import { planLine, QuotaLastSequencer } from './tier.js';
import { checkRunOptions, sharedParsedYaml } from './vitest-run.js';

export interface RunResult {
  exitCode: number;
  report: ConformanceReport;
}

/** The whole run, usable in-process (tests, the fault matrix): config -> target -> vitest -> report. */
export async function runKit(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  print: (text: string) => void,
): Promise<RunResult> {
  sharedParsedYaml(); // before the first spec file is read: the workers then find it parsed
  const config = readKitConfig(argv, env);
  const ruleIds = loadRules().map((r) => r.id);
  for (const prefix of config.only) {
    if (!ruleIds.some((id) => selectedByOnly(id, [prefix]))) {
      throw new UsageError(
        `--only ${prefix} matches no rule id${didYouMean(prefix, ruleSelectors())} (give a rule id or a dotted prefix such as notes.create)`,
      );
    }
  }
  const interrupt = new Interrupt((text) => process.stderr.write(text));
  try {
    return await runAndSweep(config, interrupt, print);
  } finally {
    // Only now: a signal during the sweep must not end the process before it is done.
    interrupt.dispose();
    await pendingSignalsDispatched();
  }
}

async function runAndSweep(config: KitConfig, interrupt: Interrupt, print: (text: string) => void): Promise<RunResult> {
  const started = performance.now();
  // The JUnit renderer's XML library is a tenth of a second to load: only for a run that asks for
  // a JUnit report, loading while the run starts, and settled before the reports' stretch (which
  // has no await: a signal during it is left to the end, kit/interrupt.ts).
  const junit = config.outputs.junit ? junitRenderer() : undefined;
  const run = await startRun(config, interrupt.stopped);
  // After the start-up probe (which only reads) and before the first check creates anything; a
  // target the kit cannot reach is then one line, not a plan and a line.
  announcePlan(config);
  const ctx = run.context;
  interrupt.watchWorkers(ctx.runDir);
  const stretch = rateLimitStretch(ctx.runDir);
  const progress = new Progress(
    config.quiet ? undefined : process.stderr,
    () => interrupt.signal !== undefined,
    () => {
      const since = stretch.read();
      return since === undefined
        ? undefined
        : `waiting for the target's rate limit (429 since ${Math.round((Date.now() - since) / 1000)} s)`;
    },
  );
  const collector = new OutcomeCollector('conformance', (outcome) => progress.checkDone(outcome.rules));
  let totals: RunTotals;
  let outcomes: CheckOutcome[] | undefined;
  try {
    await runChecks(config, ctx, collector, interrupt, progress);
    outcomes = withOracleVerdicts(collector.outcomes, run.judgements());
    // Each failure replayed once, before the sweep deletes what the replays make (kit/confirm.ts).
    if (!interrupt.signal && !ctx.targetProblem) {
      try {
        outcomes = (await confirmFailures(outcomes, ctx, { sentSoFar: run.sentSoFar(), stop: interrupt.stopped }))
          .outcomes;
      } catch (error) {
        // The failures stand unconfirmed; the report says why.
        collector.runErrors.push(`the replay of failed rules stopped: ${(error as Error).message.split('\n')[0]}`);
      }
    }
  } finally {
    progress.end();
    // Whatever happened to the checks (failed, threw, cancelled), the sweep runs.
    totals = await run.finish({ interrupted: interrupt.signal !== undefined });
  }
  const renderJunit = await junit;
  process.exitCode = 0;
  // The final pass: a target may reflect a token into anything (a title, an error message, a
  // header) and a check's assertion message may quote it; no string of any report keeps one.
  const secrets = [
    config.token,
    config.secondaryToken,
    config.fixturesToken,
    ctx.tokens.primary,
    ctx.tokens.secondary,
    ctx.fixtures?.adminToken,
    ...totals.secrets,
  ].filter((s): s is string => typeof s === 'string');
  const built = buildReport({
    version: kitVersion(),
    target: ctx.targetLabel,
    profileName: ctx.profile.name,
    profileDeclared: ctx.profileDeclared,
    tier: ctx.tier,
    ...(config.asOf ? { asOf: config.asOf } : {}),
    seed: ctx.seed,
    only: config.only,
    rules: loadRules(),
    outcomes: outcomes ?? withOracleVerdicts(collector.outcomes, totals.oracle),
    requests: totals.requests,
    cleanupRequests: totals.cleanupRequests,
    created: totals.created,
    ...(totals.quota ? { quota: totals.quota } : {}),
    leftovers: totals.leftovers,
    leftoverIds: totals.leftoverIds,
    // After a signal, workers stopped mid-request and vitest's pool complaints are the interrupt's
    // echo, not errors of the run: the report says "interrupted" once.
    runErrors: interrupt.signal ? collector.runErrors.filter((e) => !causedByInterrupt(e)) : collector.runErrors,
    ...(totals.oracle ? { behaviourCoverage: behaviourCoverage(ctx, totals.oracle) } : {}),
    durationMs: performance.now() - started,
  });
  // A signal ended the run early: the report says so, with 130/143 and unrun checks "not run".
  // Redaction is the last step, so nothing added after it (the interruption's words) escapes it.
  const withUnknown = totals.unconfirmed.length > 0 ? { ...built, leftovers_unconfirmed: totals.unconfirmed } : built;
  const redacted = redactDeep(
    interrupt.signal
      ? markInterrupted(withUnknown, interruptionOf(interrupt.signal as 'SIGINT' | 'SIGTERM'))
      : withUnknown,
    secrets,
  );
  const { outputs } = config;
  const report = outputs.har && totals.har ? linkHar(redacted, outputs.har, outputs.html) : redacted;
  const written: Array<[string | undefined, (r: ConformanceReport) => string]> = [
    [outputs.json, renderJson],
    [outputs.junit, renderJunit ?? (() => '')],
    [outputs.html, renderHtml],
    [
      outputs.markdown,
      (r) =>
        renderMarkdown(r, { ...((outputs.html ?? outputs.json) ? { fullReport: outputs.html ?? outputs.json } : {}) }),
    ],
    [outputs['html-spec'], (r) => renderSpecHtml(r, readFileSync(specFile('api', 'notes-collections-v2.md'), 'utf8'))],
  ];
  const unwritten = written.flatMap(([path, render]) => (path ? writeReport(path, () => render(report)) : []));
  if (outputs.har && totals.har)
    unwritten.push(...writeReport(outputs.har, () => harText(totals.har!, report, kitVersion(), secrets)));
  // An interrupted run says one line (the reports on file have the rest): whoever stopped it wants
  // to know how far it got and that it cleaned up, not a partial summary.
  if (interrupt.signal) print(`${interrupt.line(progress.counts, totals)}\n`);
  else print(renderTerminal(report, { quiet: config.quiet, color: useColour(process.stdout, process.env) }));
  // The paths were checked before the run (report-paths.ts): this is rare (a full disk), and the
  // other reports and the summary are out before it is said.
  if (unwritten.length > 0) throw new UsageError(unwritten.join('; '));
  return { exitCode: interrupt.exitCode ?? report.exit_code, report };
}

/**
 * The JUnit renderer, loaded on demand (runAndSweep). A renderer that cannot load fails the JUnit
 * report alone, as a report that cannot be written does: the other reports and the summary stand.
 */
function junitRenderer(): Promise<(report: ConformanceReport) => string> {
  return import('../reporters/render-junit.js').then(
    (m) => m.renderJunit,
    (error: unknown) => () => {
      throw new Error(`the JUnit renderer did not load: ${(error as Error).message.split('\n')[0]}`);
    },
  );
}

/** Before the first request: the tier and the most the run will create (kit/tier.ts). */
function announcePlan(config: KitConfig): void {
  process.stderr.write(planLine(config));
}

/** Plans the checks that fit the run's note cap and prints the plan in one line (kit/plan.ts). */
function announceCapPlan(config: KitConfig, ctx: KitContext, inRun: DeclaredCheck[]): Record<string, string> {
  const cap = ctx.createCaps!.notes;
  const plan = planUnderCap({
    checks: inRun,
    costs: loadNoteCosts(),
    cap,
    capWhat: config.maxNotes !== undefined ? `--max-notes ${cap}` : `the run's cap of ${cap} notes`,
    levels: new Map(loadRules().map((r) => [r.id, r.level])),
    only: config.only,
    // Checks that will skip whatever the cap (another tier, rules newer than --as-of, a declaration or
    // a token missing) take no notes.
    inRun: (c) =>
      (ctx.tier !== 'smoke' || c.smoke === true) &&
      !c.rules.every((id) => notInForce(rulesById().get(id)!, ctx.asOf)) &&
      !(c.needs ?? []).some((need) => unmetNeedIn(ctx, need, Number.POSITIVE_INFINITY)),
  });
  process.stderr.write(capPlanLine(cap, plan));
  return plan.skipped;
}

/** The quota checks run last, so that a quota spent during the run is judged by them (kit/tier.ts). */
function tierSequence(): { sequence: { sequencer: typeof QuotaLastSequencer } } {
  return { sequence: { sequencer: QuotaLastSequencer } };
}

/**
 * Writes one report, creating its directory; returns the problem, if any, in one line. The text
 * goes to a new file beside it, renamed over the path: whatever appeared at the path since the
 * up-front check (a named pipe nobody reads, say) cannot block the process in a write that no
 * signal interrupts, and a reader never sees half a report.
 */
function writeReport(path: string, render: () => string): string[] {
  const file = resolve(path);
  const fresh = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    makeDirectories(dirname(file));
    writeFileSync(fresh, render(), { flag: 'wx' });
    renameSync(fresh, file);
    return [];
  } catch (error) {
    rmSync(fresh, { force: true });
    return [`cannot write the report ${path}: ${(error as Error).message.split('\n')[0]}`];
  }
}

/**
 * "37/266 rules, 0:42 elapsed" as checks finish (rules, as every report counts): rewritten in place
 * on a terminal, a line every 25 rules elsewhere (CI logs). The total is known once the checks are
 * collected. The line moves at least every two seconds on a terminal (every 30 s in a log) while
 * the run goes on, and says what it waits for when it waits (a rate limit).
 */
class Progress {
  private rules = new RuleProgress([]);
  private printed = 0;
  private lastLine = 0;
  private readonly started = performance.now();
  private readonly ticker: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: (NodeJS.WritableStream & { isTTY?: boolean }) | undefined,
    /** After a signal, checks end cancelled: they are not "done", and nothing more is printed. */
    private readonly stopped: () => boolean,
    /** What the run waits for now, if anything (the run folder's rate-limit stretch). */
    private readonly waiting: () => string | undefined = () => undefined,
  ) {
    if (stream) {
      this.ticker = setInterval(() => this.tick(), 2_000);
      this.ticker.unref();
    }
  }

  setChecks(checks: readonly DeclaredCheck[], only: readonly string[]): void {
    this.rules = new RuleProgress(checks, (id) => selectedByOnly(id, only));
  }

  /** The line again, with the time and what the run waits for: a terminal every tick, a log every 30 s. */
  private tick(): void {
    if (!this.stream || this.stopped() || this.rules.total === 0 || this.rules.done === this.rules.total) return;
    const now = performance.now();
    if (!this.stream.isTTY && now - this.lastLine < 30_000) return;
    const wait = this.waiting();
    const line = `${formatProgress(this.rules.done, this.rules.total, now - this.started)}${wait ? `; ${wait}` : ''}`;
    this.lastLine = now;
    this.stream.write(this.stream.isTTY ? `\r\x1b[K  ${line}` : `  ${line}\n`);
  }

  get counts(): { done: number; total: number } {
    return { done: this.rules.done, total: this.rules.total };
  }

  checkDone(rules: readonly string[]): void {
    if (this.stopped()) return;
    const before = this.rules.done;
    this.rules.checkDone(rules);
    const { done, total } = this.rules;
    if (!this.stream || done === before) return;
    const line = formatProgress(done, total, performance.now() - this.started);
    if (this.stream.isTTY) this.stream.write(`\r\x1b[K  ${line}`);
    else if (done - this.printed >= 25 || done === total) {
      this.printed = done;
      this.lastLine = performance.now();
      this.stream.write(`  ${line}\n`);
    }
  }

  end(): void {
    if (this.ticker) clearInterval(this.ticker);
    // Interrupted: the progress line is erased, so the run's one line stands alone.
    if (this.stream?.isTTY && this.rules.done > 0) this.stream.write(this.stopped() ? '\r\x1b[K' : '\n');
  }
}

async function runChecks(
  config: KitConfig,
  ctx: KitContext,
  collector: OutcomeCollector,
  interrupt: Interrupt,
  progress: Progress,
): Promise<void> {
  if (interrupt.signal) return; // interrupted while the run was starting
  // --only: run the files whose checks declare a selected rule (meta.rules); within them, check()
  // skips the checks of other rules, and the collector leaves those out of the report. The
  // progress line needs the checks' rules too (collecting takes a second or two).
  let declared: DeclaredCheck[] = [];
  if (config.only.length > 0 || !config.quiet || ctx.createCaps)
    declared = (await collectChecks((create) => interrupt.createVitest(create))).checks;
  const inRun = declared.filter(
    (c) => config.only.length === 0 || c.rules.some((id) => selectedByOnly(id, config.only)),
  );
  progress.setChecks(inRun, config.only);
  // Under a note cap, the checks that fit are chosen now, the same way every time (kit/plan.ts).
  const capPlan = ctx.createCaps ? announceCapPlan(config, ctx, inRun) : undefined;
  const files = config.only.length > 0 ? filesForOnly(declared, config.only) : [];
  if (interrupt.signal) return;
  // Several workers only with a user pair each (the embedded fake's), else one (checkWorkers: one
  // under a cap on creates too, which the plan divides among the checks of one worker).
  const workers = Math.min(checkWorkers(config), ctx.workerTokens?.length ?? 1);
  const vitest = await interrupt.createVitest(() =>
    createVitest(
      'test',
      checkRunOptions(collector, {
        ...tierSequence(),
        ...(workers > 1 ? { maxWorkers: workers, fileParallelism: true } : {}),
      }),
    ),
  );
  // Workers leave the signals sent to the whole process group to this process, which cancels
  // them and sweeps (kit/core/signals.ts says how).
  for (const project of vitest.projects)
    project.provide('kit', {
      ...ctx,
      parentHandlesInterrupt: true,
      ...(capPlan ? { capPlan } : {}),
      ...(workers > 1 ? { workers } : {}),
    });
  try {
    // Bounded too: a signal between the last check and vitest's own wind-down of the run (a pool
    // waiting on a worker the signal ended) must not hold the sweep and the exit for 60 s.
    if (!interrupt.signal && (await interrupt.bounded(vitest.start(files), CHECKS_WIND_DOWN_MS))) interrupt.endChecks();
  } finally {
    await interrupt.bounded(vitest.close());
  }
}
