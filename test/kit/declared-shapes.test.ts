import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runKit } from '../../kit/run.js';
import type { ConformanceReport } from '../../reporters/report.js';
import { loadBuiltinProfile, type Profile } from '../../spec/profile.js';

/**
 * The checks of what a profile newly declares can fail: the kit run against the reference fake,
 * told something the fake does not do, fails the rule that judges it (and passes when told the truth).
 */

const dir = mkdtempSync(join(tmpdir(), 'declared-shapes-'));
const fakeProfile = loadBuiltinProfile('fake');

async function judge(over: Partial<Profile>, only: string[]): Promise<Record<string, string>> {
  const file = join(dir, `${only.join('+')}-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, stringify({ ...fakeProfile, ...over }));
  const { report } = await runKit(['--quiet', '--profile', file, ...only.flatMap((o) => ['--only', o])], {}, () => {});
  return verdicts(report, only);
}
const verdicts = (report: ConformanceReport, only: string[]) =>
  Object.fromEntries(report.rules.filter((r) => only.includes(r.id)).map((r) => [r.id, r.verdict]));

describe('what a profile declares is judged, and a wrong declaration fails', () => {
  it('an error body with a message and no kind: passes where the message is, fails where it is not', async () => {
    const shape = 'errors.body.shape';
    expect(await judge({ error_body: { message_pointer: '/error/message' } }, [shape])).toEqual({ [shape]: 'pass' });
    expect(await judge({ error_body: { message_pointer: '/detail' } }, [shape])).toEqual({ [shape]: 'fail' });
  }, 120_000);

  it('the response-shape include-content field: a field that does not add content fails', async () => {
    const rule = 'notes.search.parameter-names';
    const names = fakeProfile.names!;
    const wrong = {
      ...names,
      notes_search: { ...names.notes_search, response_shape_fields: { include_content: 'include_snippet' } },
    };
    expect(await judge({ names: wrong }, [rule])).toEqual({ [rule]: 'fail' });
  }, 120_000);

  it('capture under field names the target does not read fails; the right names pass', async () => {
    const rule = 'notes.capture.request-id';
    const names = fakeProfile.names!;
    expect(await judge({ names: { ...names, capture: { input: 'text' } } }, [rule])).toEqual({ [rule]: 'fail' });
    expect(await judge({}, [rule])).toEqual({ [rule]: 'pass' });
  }, 120_000);
});
