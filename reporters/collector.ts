import { relative } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node';
import '../spec/check-meta.js';
import type { CheckOutcome } from './report.js';

/**
 * A vitest reporter that gathers the conformance checks' outcomes (through the public TestCase
 * API: meta() and result()) for the report. It ignores other projects' tests.
 */
export class OutcomeCollector implements Reporter {
  readonly outcomes: CheckOutcome[] = [];
  readonly runErrors: string[] = [];
  private root = process.cwd();

  constructor(
    private readonly project = 'conformance',
    private readonly onCheck?: (outcome: CheckOutcome) => void,
  ) {}

  onInit(vitest: { config: { root: string } }): void {
    this.root = vitest.config.root;
  }

  onTestCaseResult(test: TestCase): void {
    if (test.project.name !== this.project) return;
    const meta = test.meta();
    if (!meta.rules) return;
    const result = test.result();
    if (result.state === 'pending') return;
    // Checks skipped without a reason are outside the run's --only selection (check() skips them so).
    if (result.state === 'skipped' && !result.note) return;
    const outcome: CheckOutcome = {
      name: test.name.replace(/ \[[^\]]*\]$/, ''),
      file: relative(this.root, test.module.moduleId),
      rules: meta.rules,
      ...(meta.oracle ? { oracle: meta.oracle, ...(meta.generalist ? { generalist: true } : {}) } : {}),
      ...(meta.unjudged ? { unjudged: meta.unjudged } : {}),
      state: result.state,
      ...(result.state === 'skipped' && result.note ? { note: result.note } : {}),
      errors: (result.errors ?? []).map((e) => ({ ...(e.name ? { name: e.name } : {}), message: e.message })),
      ...(meta.evidence ? { evidence: meta.evidence } : {}),
      ...(meta.verdicts ? { verdicts: meta.verdicts } : {}),
      ...(meta.seed !== undefined ? { seed: meta.seed } : {}),
      ...(meta.requests !== undefined ? { requests: meta.requests } : {}),
      ...(meta.notes !== undefined ? { notes: meta.notes } : {}),
      // diagnostic() is undefined for a test that did not run; its duration is in milliseconds.
      ...(test.diagnostic()?.duration !== undefined ? { durationMs: test.diagnostic()!.duration } : {}),
    };
    this.outcomes.push(outcome);
    this.onCheck?.(outcome);
  }

  onTestModuleEnd(module: TestModule): void {
    if (module.project.name !== this.project) return;
    for (const error of module.errors())
      this.runErrors.push(`${relative(this.root, module.moduleId)}: ${firstLine(error)}`);
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    for (const error of unhandledErrors) this.runErrors.push(`unhandled: ${firstLine(error)}`);
  }
}

function firstLine(error: SerializedError): string {
  return `${error.name ?? 'Error'}: ${String(error.message).split('\n')[0]}`;
}
