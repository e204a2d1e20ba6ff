import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKit } from '../../kit/run.js';
import { packageRoot } from '../../spec/paths.js';

/**
 * --image: the kit starts a target from a Docker image with testcontainers, runs against it and
 * removes it. The image is the fake itself, built without any registry by
 * scripts/build-fake-image.js. Needs a running Docker engine: .ci/run starts one; elsewhere the
 * test is skipped with the reason printed.
 */

const TAG = 'notes-conformance-fake:test';

function engineProblem(): string | undefined {
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8', timeout: 15_000 });
  if (info.error) return `no docker command (${info.error.message})`;
  if (info.status !== 0) return `no Docker engine answers (${(info.stderr || info.stdout).trim().split('\n')[0]})`;
  return undefined;
}

const problem = engineProblem();
if (problem) console.warn(`container tests skipped: ${problem}; .ci/run starts an engine (dockerd --bridge=none)`);

// Runs everywhere: the image's file system is staged and its fake started with this machine's
// node, so a package the image lacks fails here with node's message even where Docker is absent.
it('stages an image whose fake starts and answers HTTP', () => {
  const out = execFileSync(process.execPath, [join(packageRoot, 'scripts/build-fake-image.js'), '--check'], {
    cwd: packageRoot,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(out).toMatch(/staged app answers HTTP 401/);
}, 150_000);

describe.skipIf(problem !== undefined)('the kit against a Docker image', () => {
  it('starts the image, judges it, and leaves no container behind', async () => {
    execFileSync(process.execPath, [join(packageRoot, 'scripts/build-fake-image.js'), TAG], {
      cwd: packageRoot,
      stdio: 'pipe',
      timeout: 120_000,
    });
    const { exitCode, report } = await runKit(
      [
        '--quiet',
        '--image',
        TAG,
        '--profile',
        join(packageRoot, 'spec/profiles/fake.yaml'),
        // The image's entry starts the fake with these fixed test tokens.
        '--token',
        'image-token-primary',
        '--secondary-token',
        'image-token-secondary',
        '--fixtures-token',
        'image-admin-token',
        '--only',
        'notes.create',
        '--only',
        'membership',
      ],
      {},
      () => {},
    );
    expect(report.target).toBe(`image ${TAG}`);
    expect(report.rules.filter((r) => r.verdict !== 'pass').map((r) => `${r.id}: ${r.verdict} (${r.reason})`)).toEqual(
      [],
    );
    expect(report.rules.length).toBeGreaterThan(20);
    expect({ exitCode, leftovers: report.leftovers }).toEqual({ exitCode: 0, leftovers: 0 });
    const left = execFileSync('docker', ['ps', '-aq', '--filter', `ancestor=${TAG}`], { encoding: 'utf8' }).trim();
    expect(left, 'the kit removed its container').toBe('');
  }, 300_000);

  it('reports an image that cannot start as a start-up problem, not a verdict', async () => {
    await expect(
      runKit(['--quiet', '--image', 'notes-conformance-no-such-image:none', '--token', 'whatever-token'], {}, () => {}),
    ).rejects.toThrow(/cannot start image notes-conformance-no-such-image:none/);
  }, 120_000);
});
