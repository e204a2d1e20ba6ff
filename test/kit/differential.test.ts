import { afterEach, describe, expect, it } from 'vitest';
import { diffCommand } from '../../cli/diff-command.js';
import { assumedProfile } from '../../kit/assumed-profile.js';
import { formatResult } from '../../kit/differential/format.js';
import { type DiffOptions, runDifferential } from '../../kit/differential/run.js';
import { type EmbeddedTarget, embeddedTarget } from '../../kit/differential/target.js';
import { UsageError } from '../../suites/harness/errors.js';

const started: EmbeddedTarget[] = [];
afterEach(async () => {
  for (const t of started.splice(0)) await t.close();
});

async function target(options: Parameters<typeof embeddedTarget>[0] = {}): Promise<EmbeddedTarget> {
  const t = await embeddedTarget(options);
  started.push(t);
  return t;
}

function options(t: EmbeddedTarget, extra: Partial<DiffOptions> = {}): DiffOptions {
  return {
    target: t,
    runs: 20,
    maxOps: 25,
    seed: 3,
    shrinkBudget: 30,
    requestBudget: Number.MAX_SAFE_INTEGER,
    timeoutMs: 10_000,
    ...extra,
  };
}

describe('differential check (notes-conformance diff)', () => {
  it('finds no difference between a clean fake and the reference, and leaves nothing behind', async () => {
    const t = await target();
    const result = await runDifferential(options(t));
    expect(result.difference, formatResult(result, t).join('\n')).toBeUndefined();
    expect(result.sequences).toBe(20);
    expect(result.requests).toBeGreaterThan(200);
    expect(result.leftovers).toBe(0);
    expect(t.fake.fixtures.stats()).toMatchObject({ notes: 0, collections: 0 });
  });

  it('finds no difference when target and reference share other not-shown choices (divergent profile)', async () => {
    const t = await target({ profile: 'fake-divergent' });
    const result = await runDifferential(options(t, { seed: 11 }));
    expect(result.difference, formatResult(result, t).join('\n')).toBeUndefined();
  });

  it('given no profile, finds no difference on a target with other not-shown choices', async () => {
    // The divergent fake by URL, judged with the assumed profile: names, endpoints and title
    // derivation are not guessed, so operations that need them are left out.
    const t = await target({ profile: 'fake-divergent' });
    const remote = {
      url: t.url,
      token: t.token,
      profile: assumedProfile(),
      declared: false,
      label: t.url,
      embedded: false,
    };
    for (const seed of [3, 5]) {
      const result = await runDifferential({
        ...options(t, { seed, runs: 10 }),
        target: remote,
        requestsPerSecond: 10_000,
      });
      expect(result.difference, formatResult(result, remote).join('\n')).toBeUndefined();
      expect(result.leftovers).toBe(0);
    }
  });

  it('starts no sequence the request budget could not finish and clean up after', async () => {
    const t = await target();
    const result = await runDifferential(options(t, { requestBudget: 120, maxOps: 10 }));
    expect(result.stopped).toMatch(/request budget of 120/);
    expect(result.requests).toBeLessThanOrEqual(120);
    expect(result.leftovers).toBe(0);
    expect(t.fake.fixtures.stats()).toMatchObject({ notes: 0, collections: 0 });
  });

  // One fault per family the sequences reach: versions, create-only ids, membership moves.
  it.each([
    [
      'notes.update.stale-version-accepted',
      /UpdateNote\(\S+, version \d+ \[stale/,
      'notes.update.version-stale-refused',
    ],
    ['notes.create.id-upsert', /CreateNote\(duplicate of \S+\)/, 'notes.create.id-conflict-409'],
    // A copy leaves collection_ids holding the source: the general rule is judged before the move's own.
    ['membership.move.copies', /MoveNote\(\S+: \S+ -> \S+\)/, /^membership\.(move\.moves|collection-ids\.current)$/],
  ])('reports the step at which a fake with %s breaks a rule, and the rule', async (fault, step, rule) => {
    const t = await target({ faults: [fault] });
    const result = await runDifferential(options(t));
    const d = result.difference;
    expect(d, `no difference found for ${fault}`).toBeDefined();
    expect(d!.steps.at(-1)).toMatch(step);
    expect(d!.rule).toMatch(rule);
    expect(d!.target.length).toBeGreaterThan(0);
    expect(d!.reference.length).toBeGreaterThan(0);
    expect(d!.path).toMatch(/^\d+(:\d+)*$/);
    expect(result.leftovers).toBe(0);
  });

  it('the command exits 1 and prints the steps and both observations; 2 on usage errors', async () => {
    const lines: string[] = [];
    const code = await diffCommand(['--fake-fault', 'notes.create.id-upsert', '--seed', '7', '--runs', '20'], {}, (l) =>
      lines.push(l),
    );
    const text = lines.join('\n');
    expect(code, text).toBe(1);
    expect(text).toMatch(/DIFFERENCE at step \d+: .* breaks notes\.create\.id-conflict-409/);
    expect(text).toMatch(/--seed 7 --path \S+/);
    expect(text).toMatch(/target:\n +POST \/v2\/notes -> 200 /);
    expect(text).toMatch(/reference \(a fresh reference fake, the same steps\):\n +POST \/v2\/notes -> 409 /);
    expect(await diffCommand(['--runs', '3', '--seed', '1'], {}, () => {})).toBe(0);
    const refused: string[] = [];
    expect(
      await diffCommand(['--target', 'http://127.0.0.1:9', '--token', 't', '--runs', '1'], {}, (l) => refused.push(l)),
    ).toBe(2);
    expect(refused.join('\n')).toMatch(/could not judge: .*connection refused/);
    const t = await target();
    const wrongToken: string[] = [];
    expect(
      await diffCommand(['--target', t.url, '--token', 'not-a-known-token', '--profile', 'fake'], {}, (l) =>
        wrongToken.push(l),
      ),
    ).toBe(2);
    expect(wrongToken.join('\n')).toMatch(/answers GET \/v2\/notes with 401 for this token/);
    await expect(diffCommand(['--runs', 'x'], {}, () => {})).rejects.toThrow(UsageError);
    await expect(
      diffCommand(
        ['--target', 'http://127.0.0.1:9', '--fake-fault', 'notes.create.id-upsert', '--token', 't'],
        {},
        () => {},
      ),
    ).rejects.toThrow(/embedded target only/);
    await expect(diffCommand(['--target', 'http://127.0.0.1:9'], {}, () => {})).rejects.toThrow(/needs a token/);
    await expect(diffCommand(['--fake-fault', 'no.such.fault'], {}, () => {})).rejects.toThrow(/unknown fault/);
  });
});
