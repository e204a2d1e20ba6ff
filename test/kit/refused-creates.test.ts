import { afterAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../fake/index.js';
import { runKit } from '../../kit/run.js';
import type { ConformanceReport } from '../../reporters/report.js';
import { targetArgs } from './target-args.js';

/**
 * "Refused and creates nothing" is judged with one list read for a batch of refused creates when
 * the caller's list fits one page (suites/harness/patterns.ts expectCreatesRefused), and with a
 * read per id otherwise. The fault matrix proves the list path (the account is nearly empty there);
 * this proves the other: an account with more notes and collections than a page holds, where a
 * target that refuses but stores is still caught, and a conforming one still passes.
 */
const tokens = ['busy-primary-token', 'busy-secondary-token'];
const RULES = ['notes.create.created-at-not-future', 'collections.create.description-max-chars'];
const FAULTS = ['notes.create.future-refused-but-stored', 'collections.create.long-description-stored'];
const busy = {
  collections: Array.from({ length: 110 }, (_, i) => ({ title: `Existing collection ${i}` })),
  notes: Array.from({ length: 110 }, (_, i) => ({ content: `Existing note ${i}\nkept by someone else` })),
};
const fakes: Fake[] = [];
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

async function runOn(faults: string[]): Promise<ConformanceReport> {
  const fake = await createFake({ users: tokens, data: busy, faults });
  fakes.push(fake);
  const only = RULES.flatMap((id) => ['--only', id]);
  const { report } = await runKit(targetArgs(fake, tokens, ...only), {}, () => {});
  // What a create refused but stored all the same is deleted too: the account holds what it held.
  expect([fake.store.notes.size, fake.store.collections.size, report.leftovers]).toEqual([110, 110, 0]);
  return report;
}

const verdict = (report: ConformanceReport, id: string) => report.rules.find((r) => r.id === id)!;

describe('refused creates in an account whose list does not fit one page', () => {
  it('a target that refuses but stores fails the rules, found on the list page or by reading each id', async () => {
    const report = await runOn(FAULTS);
    for (const id of RULES) {
      expect(verdict(report, id).verdict, id).toBe('fail');
      // Found by the oracle: on the list page read first (the newest change heads it, so it shows there
      // even when the list is longer than a page), or on the read of each id that follows it.
      expect(verdict(report, id).reason, id).toMatch(
        /^GET \/v2\/(notes|collections)\S* lists the (note|collection) \S+, though its create was refused|^GET \/v2\/(notes|collections)\/\S+: a (note|collection) whose create was refused .*; the target accepted it \(200\)/,
      );
    }
  }, 120_000);

  it('a conforming target passes them', async () => {
    const report = await runOn([]);
    for (const id of RULES) expect(verdict(report, id).verdict, id).toBe('pass');
  }, 120_000);
});
