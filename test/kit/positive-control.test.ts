import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../fake/index.js';
import { runKit } from '../../kit/run.js';
import { renderTerminal } from '../../reporters/render-terminal.js';
import type { ConformanceReport } from '../../reporters/report.js';
import { loadRules } from '../../spec/rules.js';
import { partialServer, type Route } from './partial-server.js';
import { targetArgs } from './target-args.js';

/**
 * No pass without a positive control (issue 33): a server that answers 404 to collection
 * creates, note searches and set-created-at (everything else the fake's) refuses every request of
 * those operations, bad ones included. None of their rules may then read pass: a refusal from an
 * operation that refuses everything proves nothing. They read fail where an answer broke them,
 * else error, naming the operation and its answers.
 */
const tokens = ['control-primary-token', 'control-secondary-token'];
const MISSING: readonly Route[] = [
  ['POST', /^\/v2\/collections$/],
  ['POST', /^\/v2\/notes\/search$/],
  ['PATCH', /^\/v2\/notes\/[^/]+\/created-at$/],
];
const MISSING_OPS = new Set(['createCollection', 'searchNotes', 'setNoteCreatedAt']);
let fake: Fake;
let partial: Awaited<ReturnType<typeof partialServer>>;

beforeAll(async () => {
  fake = await createFake({ users: tokens });
  partial = await partialServer(fake.url!, MISSING);
});
afterAll(async () => {
  await partial.close();
  await fake.close();
});

describe('a partial server whose collection create, note search and set-created-at answer 404', () => {
  it('passes no rule of those operations; each reads fail, or error naming the operation that never accepted', async () => {
    const { report } = await runKit(targetArgs({ url: partial.url } as Fake, tokens), {}, () => {});
    // The rules about those operations (a rule across four or more is about any of them: not these).
    const about = new Set(
      loadRules()
        .filter((r) => r.operations.length < 4 && MISSING_OPS.has(r.operations[0]!))
        .map((r) => r.id),
    );
    const theirs = report.rules.filter((r) => about.has(r.id));
    const line = (r: ConformanceReport['rules'][number]) => `${r.id}: ${r.verdict} (${r.reason.slice(0, 160)})`;
    expect(theirs.filter((r) => r.verdict === 'pass').map(line)).toEqual([]);
    const errors = theirs.filter((r) => r.verdict === 'error');
    expect(errors.length).toBeGreaterThan(10);
    for (const r of errors.filter((e) => /never accepted/.test(e.reason)))
      expect(r.reason).toMatch(
        /^cannot judge: (POST \/v2\/collections|POST \/v2\/notes\/search|PATCH \/v2\/notes\/\{note_id\}\/created-at) never accepted a request in this run \(404 to all \d+\)/,
      );
    expect(errors.filter((e) => /never accepted/.test(e.reason)).length).toBeGreaterThan(10);
    // The terminal leads with the causes, one each with its rules, which are not listed again below.
    const printed = renderTerminal(report);
    const causes = printed.split('\n').filter((l) => l.startsWith('  CAUSE '));
    expect(causes.join('\n')).toMatch(
      /CAUSE POST \/v2\/collections answered 404 to all \d+ and never accepted a request: \d+ rules/,
    );
    expect(causes.join('\n')).toMatch(/CAUSE POST \/v2\/notes\/search answered 404 to all \d+/);
    const firstRule = printed.search(/^ {2}(FAIL|ERROR) /m);
    expect(printed.indexOf('  causes:')).toBeLessThan(firstRule === -1 ? Number.POSITIVE_INFINITY : firstRule);
    // A partial server's report is a short to-do list: the causes, then the failures each with its quote.
    expect(printed.split('\n').length, printed).toBeLessThanOrEqual(80);
    // The operations it does implement are still judged: their rules pass.
    expect(report.rules.filter((r) => r.id.startsWith('notes.update.') && r.verdict === 'pass').length).toBeGreaterThan(
      5,
    );
  }, 300_000);
});
