import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../fake/index.js';
import { runKit } from '../../kit/run.js';
import type { ConformanceReport } from '../../reporters/report.js';
import { partialServer, type Route } from './partial-server.js';
import { targetArgs } from './target-args.js';

/**
 * --as-of (issue 35 item 3): a server that tracks the API as of 2026-04-01 has neither the
 * set-created-at endpoint (2026-05-15) nor the membership and move endpoints (2026-05-09). Made
 * here from the fake, with those routes answering 404 as a server without them would; judged
 * --as-of 2026-04-01 it fails nothing, and the rules of those endpoints read skipped with the date.
 */
const tokens = ['asof-primary-token', 'asof-secondary-token'];
const GONE: readonly Route[] = [
  ['PATCH', /^\/v2\/notes\/[^/]+\/created-at$/],
  ['PUT', /^\/v2\/collections\/[^/]+\/notes\/[^/]+$/],
  ['DELETE', /^\/v2\/collections\/[^/]+\/notes\/[^/]+$/],
  ['POST', /^\/v2\/collections\/[^/]+\/notes\/[^/]+\/move$/],
];
let fake: Fake;
let older: Awaited<ReturnType<typeof partialServer>>;
let url: string;

beforeAll(async () => {
  fake = await createFake({ users: tokens });
  older = await partialServer(fake.url!, GONE);
  url = older.url;
});
afterAll(async () => {
  await older.close();
  await fake.close();
});

const notPassing = (report: ConformanceReport) =>
  report.rules
    .filter((r) => r.verdict !== 'pass' && r.verdict !== 'skipped')
    .map((r) => `${r.id}: ${r.verdict} (${r.reason})`);

describe('--as-of 2026-04-01 against a server of that date', () => {
  it('fails nothing the whole server does not fail, and skips the rules that came later with their date', async () => {
    const asOf = (target: string) =>
      runKit(targetArgs({ url: target } as Fake, tokens, '--as-of', '2026-04-01', '--seed', '7'), {}, () => {});
    // The server of 2026-04-01 fails or errs on nothing the whole fake, judged as of that date, does not.
    const whole = new Set(notPassing((await asOf(fake.url!)).report).map((line) => line.split(':')[0]));
    const { exitCode, report } = await asOf(url);
    expect(exitCode).toBe(whole.size === 0 ? 0 : 1);
    expect(notPassing(report).filter((line) => !whole.has(line.split(':')[0]!))).toEqual([]);
    expect({ runErrors: report.run_errors, leftovers: report.leftovers }).toEqual({
      runErrors: [],
      leftovers: 0,
    });
    expect({ as_of: report.as_of, api_revision: report.api_revision }).toEqual({
      as_of: '2026-04-01',
      api_revision: '2026-04-01',
    });
    const moves = report.rules.find((r) => r.id === 'membership.move.moves')!;
    expect(moves).toMatchObject({ verdict: 'skipped', since: '2026-05-09' });
    expect(moves.reason).toBe(
      'not yet in the API on 2026-04-01 (2026-05-09: Added the move endpoint and membership endpoints)',
    );
    expect(report.rules.find((r) => r.id === 'notes.create.id-conflict-409')?.verdict).toBe('pass');
    // A check of an older rule that needs a newer operation (set-created-at to backdate, say) is
    // skipped naming the operation, never judged against a server that need not have it.
    const byOperation = report.rules.filter((r) => /^needs \w+, not yet in the API on 2026-04-01 /.test(r.reason));
    expect(byOperation.length).toBeGreaterThan(0);
    for (const r of byOperation)
      expect({ id: r.id, verdict: r.verdict, older: r.since <= '2026-04-01' }).toEqual({
        id: r.id,
        verdict: 'skipped',
        older: true,
      });
  }, 600_000);

  it('judged as of today, the same server fails the rules of the endpoints it lacks', async () => {
    const { exitCode, report } = await runKit(targetArgs({ url } as Fake, tokens), {}, () => {});
    expect(exitCode).toBe(1);
    expect(report.api_revision).toBe('2026-05-15');
    expect(report.as_of).toBeUndefined();
    const lacking = notPassing(report).filter((l) =>
      /^(membership\.|notes\.set-created-at\.)[^:]*: (fail|error) /.test(l),
    );
    expect(lacking.length).toBeGreaterThan(0);
  }, 600_000);
});
