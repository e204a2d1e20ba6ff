import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkReportPaths, makeDirectories } from '../../../kit/report-paths.js';
import { UsageError } from '../../../suites/harness/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'nc-report-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refusal(outputs: Record<string, string>): string {
  try {
    checkReportPaths(outputs);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  return 'accepted';
}

describe('report paths', () => {
  it('refuses, in one line, any place the run could not write: a pseudo-filesystem, a file as a directory, a directory', () => {
    writeFileSync(join(dir, 'a-file'), 'x');
    const cases: Array<[Record<string, string>, RegExp]> = [
      // /proc exists and root may "write" there by its permission bits; no file can be created in it.
      [{ json: '/proc/nope/x.json' }, /^--json \/proc\/nope\/x\.json: cannot create files in \/proc /],
      [{ junit: '/proc/x.xml' }, /^--junit \/proc\/x\.xml: cannot create files in \/proc /],
      [{ html: '/sys/x.html' }, /^--html \/sys\/x\.html: cannot create files in \/sys /],
      [{ markdown: `${dir}/a-file/deeper/r.md` }, /a-file is not a directory/],
      [{ json: dir }, /is a directory/],
      [{ json: '/dev/null/x.json' }, /\/dev\/null is not a directory/],
    ];
    for (const [outputs, message] of cases) {
      const said = refusal(outputs);
      expect(said, JSON.stringify(outputs)).toMatch(message);
      expect(said).not.toContain('\n');
    }
    // The probe file the check creates is gone again.
    expect(refusal({ json: `${dir}/new/deeper/r.json` })).toBe('accepted');
    expect(existsSync(join(dir, 'new'))).toBe(false);
  });

  it('creates missing directories one level at a time, and fails at once where none can be made', () => {
    makeDirectories(join(dir, 'made/a/b'));
    expect(existsSync(join(dir, 'made/a/b'))).toBe(true);
    makeDirectories(join(dir, 'made/a/b'));
    // Node's mkdirSync(..., { recursive: true }) spins for ever here.
    const started = performance.now();
    expect(() => makeDirectories('/proc/nope/deeper')).toThrow(/ENOENT/);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
