import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification } from 'vitest/node';
import { checkDurations, readCheckDurations } from '../../../kit/check-durations.js';
import { QuotaLastSequencer } from '../../../kit/tier.js';
import { packageRoot } from '../../../spec/paths.js';

/** Every check file of the package, relative to its root. */
function checkFiles(): string[] {
  return readdirSync(join(packageRoot, 'suites'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.check.ts'))
    .map((f) => `suites/${f.split('\\').join('/')}`)
    .sort();
}

const spec = (file: string) => ({ moduleId: join(packageRoot, file) }) as TestSpecification;
const order = async (files: string[]) =>
  (await new QuotaLastSequencer({} as never).sort(files.map(spec))).map((s) =>
    s.moduleId.slice(packageRoot.length + 1),
  );

describe('the order of a run (kit/tier.ts, kit/check-durations.json)', () => {
  it('names only check files that exist (a new file runs first until measured: node scripts/measure-check-durations.js)', () => {
    const files = new Set(checkFiles());
    expect(Object.keys(checkDurations()).filter((f) => !files.has(f))).toEqual([]);
    expect(Object.keys(checkDurations()).length).toBeGreaterThan(30);
  });

  it('starts the longest first and ends with the two explorer files, then the quota file, the same from any order given', async () => {
    const files = checkFiles();
    const sorted = await order(files);
    expect(await order([...files].reverse())).toEqual(sorted);
    // The explorer fills what the other checks left; the quota check spends the quota.
    expect(sorted.slice(-3)).toEqual([
      'suites/model/explore.check.ts',
      'suites/model/explore-beside.check.ts',
      'suites/errors/quota.check.ts',
    ]);
    const ms = checkDurations();
    const early = sorted.slice(0, -3).map((f) => ms[f] ?? Number.POSITIVE_INFINITY);
    expect(early).toEqual([...early].sort((a, b) => b - a));
    const late = new Set(sorted.slice(-3));
    expect(sorted[0]).toBe(
      Object.entries(ms)
        .filter(([f]) => !late.has(f))
        .sort((a, b) => b[1] - a[1])[0]![0],
    );
  });

  it('starts a file the table does not know (a new check) first, whatever the others measure', async () => {
    const sorted = await order([
      'suites/model/model.check.ts',
      'suites/new/unmeasured.check.ts',
      'suites/notes/read.check.ts',
    ]);
    expect(sorted).toEqual([
      'suites/new/unmeasured.check.ts',
      'suites/model/model.check.ts',
      'suites/notes/read.check.ts',
    ]);
  });

  it('reads a missing or damaged table as empty, so that it costs the order, never the run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'check-order-test-'));
    try {
      const file = (name: string, text: string) => {
        writeFileSync(join(dir, name), text);
        return join(dir, name);
      };
      expect(readCheckDurations(join(dir, 'absent.json'))).toEqual({});
      expect(readCheckDurations(file('cut.json', '{"ms": {"suites/a.check.ts": 1'))).toEqual({});
      expect(readCheckDurations(file('text.json', '{"ms": {"suites/a.check.ts": "long"}}'))).toEqual({});
      expect(readCheckDurations(file('no-ms.json', '{"about": "x"}'))).toEqual({});
      expect(readCheckDurations(file('good.json', '{"ms": {"suites/a.check.ts": 20}}'))).toEqual({
        'suites/a.check.ts': 20,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
