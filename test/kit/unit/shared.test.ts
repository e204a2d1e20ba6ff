import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../suites/harness/check.js';
import { perFile } from '../../../suites/harness/shared.js';

const inRun = (runId: string) => ({ ctx: { runId } }) as unknown as CheckContext;

describe('perFile: a resource the checks of one file share', () => {
  it('is made once per run, by the first check that asks', async () => {
    let made = 0;
    const shared = perFile(async () => ++made);
    const t = inRun('run-1');
    expect(await shared(t)).toBe(1);
    expect(await shared(t)).toBe(1);
    expect(made).toBe(1);
  });

  it('is made again in the next run (a worker keeps its modules between runs)', async () => {
    let made = 0;
    const shared = perFile(async () => ++made);
    expect(await shared(inRun('run-1'))).toBe(1);
    expect(await shared(inRun('run-2'))).toBe(2);
  });

  it('is made again after a failed attempt, so one failing setup does not fail every later check', async () => {
    let attempts = 0;
    const shared = perFile(async () => {
      attempts++;
      if (attempts === 1) throw new Error('the target refused the create');
      return 'made';
    });
    const t = inRun('run-1');
    await expect(shared(t)).rejects.toThrow('refused');
    expect(await shared(t)).toBe('made');
    expect(attempts).toBe(2);
  });
});
