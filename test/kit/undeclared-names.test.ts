import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { runKit } from '../../kit/run.js';
import { specFile } from '../../spec/paths.js';

/**
 * A profile that declares some names and not others, as one inferred from an independent server
 * does (issue 35 item 7): a check that needs a name the profile lacks is skipped naming the key,
 * never an error. Here the fake's own profile without names.notes_search.response_shape, which two
 * search checks need beside the names they declare.
 */
const scratch = mkdtempSync(join(tmpdir(), 'nc-undeclared-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a name the profile does not declare', () => {
  it('skips the checks that need it, naming the key, and errs on none', async () => {
    const profile = parse(readFileSync(specFile('profiles', 'fake.yaml'), 'utf8')) as {
      names: { notes_search: Record<string, unknown> };
    };
    delete profile.names.notes_search.response_shape;
    delete profile.names.notes_search.response_shape_fields;
    const file = join(scratch, 'partial.yaml');
    writeFileSync(file, stringify(profile));
    const { report } = await runKit(['--quiet', '--only', 'notes.search', '--profile', file], {}, () => {});
    const errors = report.rules.filter((r) => r.verdict === 'error').map((r) => `${r.id}: ${r.reason}`);
    expect(errors).toEqual([]);
    const named = report.rules.filter((r) =>
      /the profile declares no names\.notes_search\.response_shape/.test(r.reason),
    );
    expect(named.map((r) => r.id)).toEqual(expect.arrayContaining(['notes.search.parameter-names']));
    for (const r of named) expect(['skipped', 'pass'], r.id).toContain(r.verdict);
  }, 300_000);
});
