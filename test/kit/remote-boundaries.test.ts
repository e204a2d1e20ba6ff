import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFake, FAULT_NAMES, FAULTS, type Fake } from '../../fake/index.js';
import { runKit } from '../../kit/run.js';
import { packageRoot } from '../../spec/paths.js';
import { targetArgs } from './target-args.js';

/**
 * Against a remote target no random property runs are budgeted, and a size or limit property whose
 * boundary examples another check already sends is skipped with that check named (the cost of a
 * run). The fault matrix runs with the embedded fake's budgets, where the properties run too; this
 * proves that, with remote budgets, the checks named in the skip reasons still catch every fault
 * of those rules.
 */
const source = readFileSync(join(packageRoot, 'suites/limits/limits.property.check.ts'), 'utf8');
const table = source.slice(
  source.indexOf('const SAME_EXAMPLES_JUDGED_BY'),
  source.indexOf('};', source.indexOf('const SAME_EXAMPLES_JUDGED_BY')),
);
const SKIPPED_RULES = [...table.matchAll(/^\s*'([a-z0-9.-]+)':/gm)].map((m) => m[1]!);
const tokens = ['remote-primary-token', 'remote-secondary-token'];
const faults = FAULT_NAMES.filter((name) => FAULTS[name].rules.some((r) => SKIPPED_RULES.includes(r)));
const fakes: Fake[] = [];
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

describe('boundaries left to other checks when no random runs are budgeted', () => {
  it('the table of skipped properties is read from the check file', () => {
    expect(SKIPPED_RULES.length).toBeGreaterThanOrEqual(17);
    expect(faults.length).toBeGreaterThan(10);
  });

  it.each(faults)(
    '%s is caught with remote budgets',
    async (fault) => {
      const fake = await createFake({ users: tokens, faults: [fault] });
      fakes.push(fake);
      const broken = FAULTS[fault].rules.filter((r) => SKIPPED_RULES.includes(r));
      const { report } = await runKit(
        targetArgs(fake, tokens, ...broken.flatMap((id) => ['--only', id])),
        {},
        () => {},
      );
      for (const id of broken) {
        const rule = report.rules.find((r) => r.id === id)!;
        expect(rule.verdict, `${id} under ${fault}`).toBe('fail');
        // Judged by the named check, not by the property (skipped with remote budgets).
        const property = rule.checks.find((c) => c.file.endsWith('limits.property.check.ts'));
        expect(property?.verdict ?? 'skipped', `${id}: the property is skipped`).toBe('skipped');
      }
    },
    120_000,
  );
});
