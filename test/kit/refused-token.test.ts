import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../fake/index.js';
import { runKit } from '../../kit/run.js';

/**
 * A token the target refuses, or a base URL without the API, is a start-up problem (exit 2 with
 * the reason), not hundreds of verdicts: every check would otherwise misjudge the target.
 */
describe('the start-up probe', () => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await createFake({ users: ['probe-token-good-1', 'probe-token-good-2'], adminToken: 'probe-admin-token' });
  });
  afterAll(() => fake.close());
  const run = (...args: string[]) => runKit(['--quiet', '--requests-per-second', '1000', ...args], {}, () => {});

  it('stops when the target refuses the main token', async () => {
    await expect(run('--target', fake.url!, '--token', 'probe-token-wrong')).rejects.toThrow(
      /refuses the token: GET \/v2\/notes.* answered 401/,
    );
  });

  it('stops when the target refuses the second token', async () => {
    await expect(
      run('--target', fake.url!, '--token', 'probe-token-good-1', '--secondary-token', 'probe-token-wrong'),
    ).rejects.toThrow(/refuses the secondary token/);
  });

  it('stops when the base URL does not lead to the API', async () => {
    await expect(run('--target', `${fake.url}/api`, '--token', 'probe-token-good-1')).rejects.toThrow(/no note list/);
  });

  it('never prints the token in the reason', async () => {
    const error = await run('--target', fake.url!, '--token', 'probe-token-wrong').catch((e: Error) => e);
    expect(String((error as Error).message)).not.toContain('probe-token-wrong');
  });
});
