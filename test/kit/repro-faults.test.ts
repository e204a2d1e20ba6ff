import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { type Fake, createFake } from '../../fake/index.js';
import { runKit } from '../../kit/run.js';
import type { ConformanceReport } from '../../reporters/report.js';
import { packageRoot } from '../../spec/paths.js';

/**
 * The reports' repro commands reproduce: the kit runs against a fake with faults of several kinds
 * (a refusal expected but 200 given, a size limit, a deliberately invalid token, a missing token),
 * and each failing check's repro, run by bash with curl and the run's tokens in NOTES_TOKEN and
 * NOTES_SECONDARY_TOKEN, gets the status of the exchange the failure judged.
 * The faults are ones whose judged request does not name data the run created: the kit deletes
 * what it created when each file ends, so a repro of a request on such a note answers 404 after
 * the run (README "Reproductions" says so); e.g. auth.scope.notes-unchecked is not here for that.
 */
const run = promisify(execFile);
const FAULTS = [
  'auth.bearer.any-token-accepted', 'notes.create.content-limit-off-by-one', 'notes.list.default-limit-20',
  'errors.bad-input.crashes-on-malformed-json', 'errors.missing.note-delete-succeeds',
];
const RULES = ['auth.bearer.invalid-refused', 'notes.create.content-max-chars', 'notes.list.limit-default-50', 'errors.bad-input.no-5xx', 'errors.missing.note-refused'];
const TOKENS = { NOTES_TOKEN: 'repro-primary-token-0001', NOTES_SECONDARY_TOKEN: 'repro-secondary-token-0002' };

describe('repro commands of failing checks', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'nc-repro-faults-'));
  let fake: Fake | undefined;
  afterAll(async () => {
    await fake?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('each gets the status of the exchange that failed, from the faulted fake', async () => {
    fake = await createFake({ faults: FAULTS, users: [TOKENS.NOTES_TOKEN, TOKENS.NOTES_SECONDARY_TOKEN], adminToken: 'repro-admin-token-0003' });
    const json = join(scratch, 'report.json');
    await runKit([
      '--quiet', '--target', fake.url!, '--token', TOKENS.NOTES_TOKEN, '--secondary-token', TOKENS.NOTES_SECONDARY_TOKEN,
      '--profile', join(packageRoot, 'spec/profiles/fake.yaml'), '--fixtures-token', 'repro-admin-token-0003',
      '--requests-per-second', '1000', '--request-budget', '100000', '--json', json, ...RULES.flatMap((r) => ['--only', r]),
    ], {}, () => {});
    const report = JSON.parse(readFileSync(json, 'utf8')) as ConformanceReport;
    const failing = report.rules.flatMap((rule) => rule.checks.filter((c) => c.verdict === 'fail').map((check) => ({ rule: rule.id, check })));
    // Every fault shows, each through at least one failing check.
    expect([...new Set(failing.map((f) => f.rule))].sort()).toEqual([...RULES].sort());
    for (const { rule, check } of failing) {
      const what = `${rule} / ${check.name}`;
      expect(check.repro, `${what} has a repro`).toBeDefined();
      const judged = check.evidence?.find((x) => x.judged);
      expect(judged, `${what} marks the exchange it judged`).toBeDefined();
      expect(check.evidence![0], `${what}: the judged exchange comes first`).toBe(judged);
      // The real base URL and no token of the run in the clear.
      expect(check.repro).toContain(fake.url!);
      for (const token of Object.values(TOKENS)) expect(check.repro).not.toContain(token);
      const file = join(scratch, 'repro.sh');
      writeFileSync(file, `${check.repro}\n`);
      const { stdout } = await run('bash', [file], { env: { PATH: process.env.PATH, ...TOKENS }, maxBuffer: 64 * 1024 * 1024 });
      const status = Number(/^HTTP\/\S+ (\d{3})/.exec(stdout)?.[1]);
      expect(status, `${what}: the repro answered\n${stdout.slice(0, 400)}\nto\n${check.repro!.slice(0, 600)}`).toBe(judged!.status);
    }
  }, 300_000);
});
