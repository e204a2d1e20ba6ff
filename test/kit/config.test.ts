import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkWorkers, readKitConfig } from '../../kit/config.js';
import { builtinProfilePath } from '../../spec/profile.js';
import { UsageError } from '../../suites/harness/errors.js';

describe('kit configuration', () => {
  it('reads flags and environment, flags winning, into a frozen object', () => {
    const config = readKitConfig(['--target', 'http://flag.example/', '--only', 'notes.create', '--seed', '12'], {
      NOTES_TARGET_URL: 'http://env.example',
      NOTES_TOKEN: 'env-token',
      NOTES_SECONDARY_TOKEN: 'second',
      NOTES_ONLY: 'auth',
    });
    expect(config).toMatchObject({
      target: 'http://flag.example',
      token: 'env-token',
      secondaryToken: 'second',
      seed: 12,
      only: ['notes.create', 'auth'],
    });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.only)).toBe(true);
  });

  it('refuses what cannot start: bad flags, URLs, seeds, a target without a token, a bad profile', () => {
    const bad: Array<[string[], Record<string, string>, RegExp]> = [
      [['--nope'], {}, /unknown option --nope/],
      [['--target', 'not a url'], { NOTES_TOKEN: 't' }, /absolute http/],
      [['--target', 'ftp://x'], { NOTES_TOKEN: 't' }, /http or https/],
      [['--target', 'http://u:p@x'], { NOTES_TOKEN: 't' }, /credentials/],
      [['--target', 'http://x'], {}, /needs a token/],
      [['--seed', '-1'], {}, /--seed/],
      [['--only', 'Notes!'], {}, /--only/],
      [['--profile', '/nonexistent.yaml'], {}, /cannot read the file/],
      [['--target', 'http://x', '--image', 'y'], { NOTES_TOKEN: 't' }, /not both/],
      [['--image', 'y', '--image-port', '0'], { NOTES_TOKEN: 't' }, /1\.\.65535/],
      [['--image', 'y', '--image-port', '99999'], { NOTES_TOKEN: 't' }, /1\.\.65535/],
      [['--request-budget', '1.5'], {}, /positive integer/],
    ];
    for (const [argv, env, message] of bad) expect(() => readKitConfig(argv, env), argv.join(' ')).toThrow(message);
    expect(() => readKitConfig(['--nope'], {})).toThrow(UsageError);
  });

  it('gives the embedded fake two check workers by default, --workers 1 or 2, and a target or image one', () => {
    expect(checkWorkers(readKitConfig([], {}))).toBe(Math.min(2, availableParallelism()));
    expect(checkWorkers(readKitConfig(['--workers', '2'], {}))).toBe(2);
    expect(checkWorkers(readKitConfig([], { NOTES_WORKERS: '1' }))).toBe(1);
    expect(checkWorkers(readKitConfig(['--target', 'http://x'], { NOTES_TOKEN: 't' }))).toBe(1);
    expect(checkWorkers(readKitConfig(['--target', 'http://x', '--workers', '1'], { NOTES_TOKEN: 't' }))).toBe(1);
    expect(checkWorkers(readKitConfig(['--target', 'http://x'], { NOTES_TOKEN: 't', NOTES_WORKERS: '2' }))).toBe(1);
    // Under a cap on creates one worker (the plan divides the cap among its checks), so the embedded
    // fake makes one user pair, not one for a worker that never starts.
    expect(checkWorkers(readKitConfig(['--max-notes', '10'], {}))).toBe(1);
    expect(checkWorkers(readKitConfig(['--max-notes', '10', '--workers', '2'], {}))).toBe(1);
    for (const [argv, message] of [
      [['--workers', '0'], /--workers must be a positive integer/],
      [['--workers', '1.5'], /--workers must be a positive integer/],
      [['--workers', '3'], /--workers must be at most 2/],
      [['--target', 'http://x', '--workers', '2'], /--workers applies to the embedded fake/],
      [['--image', 'y', '--workers', '2'], /--workers applies to the embedded fake/],
    ] as const)
      expect(() => readKitConfig([...argv], { NOTES_TOKEN: 't' }), argv.join(' ')).toThrow(message);
  });

  it('loads the profile and takes the fixture token from the variable it names', () => {
    const config = readKitConfig(['--profile', builtinProfilePath('fake')], { NOTES_FIXTURES_TOKEN: 'admin-xyz' });
    expect(config.profile?.name).toBe('reference-fake');
    expect(config.fixturesToken).toBe('admin-xyz');
  });

  it('reads --max-duration as a duration (plain numbers are seconds), from the flag or NOTES_MAX_DURATION', () => {
    const cases: Array<[string, number]> = [
      ['90s', 90_000],
      ['20m', 1_200_000],
      ['1h', 3_600_000],
      ['45', 45_000],
      ['1.5m', 90_000],
    ];
    for (const [raw, ms] of cases) expect(readKitConfig(['--max-duration', raw], {}).maxDurationMs, raw).toBe(ms);
    expect(readKitConfig([], { NOTES_MAX_DURATION: '2m' }).maxDurationMs).toBe(120_000);
    expect(readKitConfig([], {}).maxDurationMs).toBeUndefined();
    for (const raw of ['0', '-5', 'soon', '10x', '500ms'])
      expect(() => readKitConfig([`--max-duration=${raw}`], {}), raw).toThrow(/--max-duration must be a duration/);
  });

  it('refuses report paths the run could not write, before anything is sent, in one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nc-paths-'));
    try {
      writeFileSync(join(dir, 'a-file'), 'x');
      mkdirSync(join(dir, 'locked'));
      chmodSync(join(dir, 'locked'), 0o500);
      const bad: Array<[string[], RegExp]> = [
        [['--json', `${dir}/some-dir/`], /^--json .*some-dir\/: is a directory/],
        [['--json', dir], /^--json .*: is a directory/],
        [['--junit', `${dir}/a-file/j.xml`], /^--junit .*a-file\/j\.xml: .*a-file is not a directory/],
        [['--html', `${dir}/a-file/deeper/r.html`], /^--html .*: .*a-file is not a directory/],
        [
          ['--markdown', `${dir}/r.md`, '--html-spec', `${dir}/r.md`],
          /^--html-spec .*: --markdown writes the same file/,
        ],
      ];
      // root may write anywhere: the permission case only means something for other users.
      if (process.getuid?.() !== 0) bad.push([['--html-spec', `${dir}/locked/spec.html`], /no write permission/]);
      for (const [argv, message] of bad) {
        let error: unknown;
        try {
          readKitConfig(argv, {});
        } catch (e) {
          error = e;
        }
        expect(error, argv.join(' ')).toBeInstanceOf(UsageError);
        expect((error as Error).message, argv.join(' ')).toMatch(message);
        expect((error as Error).message).not.toContain('\n');
      }
      // A directory that does not exist yet is created when the reports are written.
      expect(
        readKitConfig(['--json', `${dir}/new/deeper/r.json`, '--html-spec', `${dir}/spec.html`], {}).outputs,
      ).toEqual({ json: `${dir}/new/deeper/r.json`, 'html-spec': `${dir}/spec.html` });
    } finally {
      chmodSync(join(dir, 'locked'), 0o700);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
