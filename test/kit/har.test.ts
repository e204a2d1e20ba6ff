import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../fake/index.js';
import type { HarEntry } from '../../kit/core/har.js';
import { runKit } from '../../kit/run.js';
import { packageRoot } from '../../spec/paths.js';
import { readReportFile } from '../report-file.js';

/**
 * `--har FILE` records every exchange of the run as HAR 1.2, valid against the HAR schema (the
 * har-schema package, as har-validator uses it), tokens redacted; the HTML report links each
 * failing rule's judged exchange to its entry, and the entry names the rule.
 */
const require = createRequire(import.meta.url);
const TOKENS = ['har-primary-token-0001', 'har-secondary-token-0002'];
const ADMIN = 'har-admin-token-0003';

/** ajv's draft-07 class (HAR's schemas are draft-06) with formats; loose, since har-schema uses keywords of its own. */
function harValidator() {
  const { default: Ajv } = require('ajv') as typeof import('ajv');
  const addFormats = require('ajv-formats') as (ajv: InstanceType<typeof Ajv>) => unknown;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
  const schemas = require('har-schema') as Record<string, { $id: string }>;
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  return ajv.getSchema('har.json#')!;
}

describe('the run recorded as HAR 1.2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nc-har-'));
  let fake: Fake | undefined;
  afterAll(async () => {
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds every exchange, validates against the HAR schema, hides the tokens and is linked from the HTML report', async () => {
    fake = await createFake({ faults: ['notes.update.stale-version-accepted'], users: TOKENS, adminToken: ADMIN });
    const files = { json: join(dir, 'r.json'), html: join(dir, 'html/r.html'), har: join(dir, 'run.har') };
    await runKit(
      [
        '--quiet',
        ...['--target', fake.url!, '--token', TOKENS[0]!, '--secondary-token', TOKENS[1]!, '--fixtures-token', ADMIN],
        ...['--profile', join(packageRoot, 'spec/profiles/fake.yaml'), '--requests-per-second', '1000'],
        ...['--only', 'notes.update', '--only', 'auth.bearer'],
        ...['--json', files.json, '--html', files.html, '--har', files.har],
      ],
      {},
      () => {},
    );
    const text = readFileSync(files.har, 'utf8');
    const har = JSON.parse(text) as { log: { version: string; entries: HarEntry[] } };
    const validate = harValidator();
    expect(validate(har), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    expect(har.log.version).toBe('1.2');
    const report = readReportFile(files.json);
    // Every request the run sent was answered by the fake, and each is an entry, in the order sent.
    const seqs = new Map<string, number[]>();
    for (const e of har.log.entries) {
      const at = e._id.lastIndexOf('.');
      seqs.set(e._id.slice(0, at), [...(seqs.get(e._id.slice(0, at)) ?? []), Number(e._id.slice(at + 1))]);
    }
    const gaps = [...seqs].map(([p, n]) => `${p}: ${n.length} of ${Math.max(...n)}`);
    // The cleanup's requests are counted apart in the report, and recorded all the same.
    expect(har.log.entries.length, gaps.join('; ')).toBe(report.requests + (report.cleanup_requests ?? 0));
    const started = har.log.entries.map((e) => e.startedDateTime);
    expect(started).toEqual([...started].sort());
    expect(new Set(har.log.entries.map((e) => e._id)).size).toBe(har.log.entries.length);
    for (const token of [...TOKENS, ADMIN]) expect(text).not.toContain(token);
    expect(text).toContain('Bearer ***');
    // The failing rule's judged exchange: linked from the HTML, and its entry names the rule.
    const rule = report.rules.find((r) => r.id === 'notes.update.version-stale-refused')!;
    expect(rule.verdict).toBe('fail');
    const judged = rule.checks.flatMap((c) => c.evidence ?? []).find((x) => x.judged)!;
    expect(judged.har_entry?.file).toBe('../run.har');
    const entry = har.log.entries.find((e) => e._id === judged.har_entry!.id)!;
    expect(entry, 'the judged exchange is an entry').toBeDefined();
    expect(entry.comment).toContain('notes.update.version-stale-refused (fail)');
    expect(`${entry.request.method} ${new URL(entry.request.url).pathname}`).toBe(
      `${judged.method} ${judged.path.split('?')[0]}`,
    );
    expect(entry.response.status).toBe(judged.status);
    const html = readFileSync(files.html, 'utf8');
    expect(html).toContain(`href="../run.har"`);
    expect(html).toContain(`HAR entry ${judged.har_entry!.id}`);
  }, 300_000);
});
