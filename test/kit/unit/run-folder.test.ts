import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  claimUnit,
  countRequests,
  harLines,
  harPath,
  learnedSecrets,
  otherExplorers,
  recordedCoverage,
  secretsWriter,
  spentQuota,
  workerPids,
  writeExplorerProgress,
  writeOracleRecord,
  writeRequestCount,
  writeSpentQuota,
  writeWorkerFile,
} from '../../../kit/core/run-folder.js';

const dirs: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'run-folder-test-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the run folder (the one owner of what workers and the run command exchange)', () => {
  it('reads back what workers wrote, across files of several workers', () => {
    const dir = folder();
    writeRequestCount(dir, 1, 0, 40);
    writeRequestCount(dir, 2, 3, 2, 7);
    secretsWriter(dir, 1)('tok-a');
    secretsWriter(dir, 2)('tok "b"\nc');
    writeWorkerFile(dir);
    writeSpentQuota(dir, { used: 5, limit: 5 });
    expect(countRequests(dir)).toEqual({ requests: 42, cleanup: 7 });
    expect(learnedSecrets(dir).sort()).toEqual(['tok "b"\nc', 'tok-a']);
    expect(workerPids(dir)).toEqual([process.pid]);
    expect(spentQuota(dir)).toEqual({ used: 5, limit: 5 });
    expect(harLines(dir)).toEqual([]);
    expect(harPath(dir, 'run')).toBe(join(dir, 'har-run.jsonl'));
  });

  it('writes files holding tokens for the owner only, and reads nothing from a folder that is gone', () => {
    const dir = folder();
    secretsWriter(dir, 1)('tok');
    writeRequestCount(dir, 1, 0, 1);
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    rmSync(dir, { recursive: true });
    expect(workerPids(dir)).toEqual([]);
    expect(countRequests(dir)).toEqual({ requests: 0, cleanup: 0 });
    expect(spentQuota(dir)).toBeUndefined();
  });

  it('gives each unit of exploration to one explorer, and shows each explorer what the others did', () => {
    const dir = folder();
    expect([claimUnit(dir, 'walk-note-0'), claimUnit(dir, 'walk-note-0'), claimUnit(dir, 'walk-note-1')]).toEqual([
      true,
      false,
      true,
    ]);
    writeExplorerProgress(dir, 'first', 1, { requests: 40, covered: ['a'] });
    writeExplorerProgress(dir, 'beside', 1, { requests: 2, covered: ['b'] });
    writeExplorerProgress(dir, 'first', 1, { requests: 50, covered: ['a', 'c'] });
    expect(otherExplorers(dir, 'beside', 1)).toEqual([{ requests: 50, covered: ['a', 'c'] }]);
    expect(otherExplorers(dir, 'first', 1)).toEqual([{ requests: 2, covered: ['b'] }]);
  });

  it("reads a worker's recorded coverage again once the record is rewritten", () => {
    const dir = folder();
    writeOracleRecord(dir, 1, { coverage: ['x'] });
    expect(recordedCoverage(dir)).toEqual(['x']);
    writeOracleRecord(dir, 1, { coverage: ['x', 'y', 'z'] });
    expect(recordedCoverage(dir)).toEqual(['x', 'y', 'z']);
  });
});
