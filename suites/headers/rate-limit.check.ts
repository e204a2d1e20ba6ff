import { expect } from 'vitest';
import { sleep } from '../../kit/core/client.js';
import { noteRef } from '../harness/data.js';
import { checks, type Exchange, setupOk, show } from '../harness/index.js';
import { perFile } from '../harness/shared.js';

const { check } = checks();

const family = (x: Exchange, prefix: string) => Object.keys(x.headers).filter((h) => h.startsWith(prefix));

/**
 * One round of requests over several operations, shared by the two header checks of this file. The
 * smoke tier samples three reads that need no note of their own (nothing to create and delete), and
 * so does a run whose profile names no operations that must carry the headers: the families check
 * asks only that some answer carries each family, which three reads show as well as seven (a note
 * created and deleted for the other four was five requests of a remote run).
 */
const sampleHeaders = perFile(async (t): Promise<Array<[string, Exchange]>> => {
  const lists: Array<[string, Exchange]> = [
    ['listNotes', await t.api.listNotes({ limit: 1 })],
    ['listCollections', await t.api.listCollections({ limit: 1 })],
    ['searchCollections', await t.api.searchCollections({})],
  ];
  if (t.ctx.tier === 'smoke' || !t.declares('capabilities.rate_limit_headers.operations')) return lists;
  // The create is sampled too, and its note serves the reads.
  const created = await t.api.createNote({ content: t.data.content('Headers') });
  const note = noteRef(created, 'create a note');
  return [
    ['createNote', created],
    ['searchNotes', await t.api.searchNotes({ limit: 1 }, { query: t.data.word() })],
    ['getRelatedNotes', await t.api.relatedNotes(note.id, { limit: 1 })],
    ...lists,
    ['getNote', await t.api.getNote(note.id)],
  ] as Array<[string, Exchange]>;
});

// First in the file: the shared sample is sent here, so the oracle's judgements of the declared names
// (kit/core/oracle/headers.ts) count for this check.
check(
  'the operations the profile names carry the header names it declares',
  {
    oracle: ['headers.rate-limit.declared'],
    needs: ['profile:capabilities.rate_limit_headers.operations', 'profile:capabilities.rate_limit_headers.names'],
  },
  async (t) => {
    await sampleHeaders(t);
  },
);

check(
  'responses carry X-RateLimit-* and X-Complexity-* headers',
  { rules: ['headers.rate-limit.families'], smoke: true },
  async (t) => {
    const seen = await sampleHeaders(t);
    await t.verify('headers.rate-limit.families', () => {
      const rate = seen.filter(([, x]) => family(x, 'x-ratelimit-').length > 0).map(([op]) => op);
      const complexity = seen.filter(([, x]) => family(x, 'x-complexity-').length > 0).map(([op]) => op);
      expect(
        rate.length,
        `some response carries an X-RateLimit-* header (checked ${seen.map(([op]) => op).join(', ')})`,
      ).toBeGreaterThan(0);
      expect(complexity.length, 'some response carries an X-Complexity-* header').toBeGreaterThan(0);
    });
  },
);

check(
  'an exhausted bucket is answered with the declared status and Retry-After, and recovers',
  {
    rules: ['headers.rate-limit.exhausted'],
    needs: ['fixtures:users', 'fixtures:rate_limit'],
    timeout: 60_000,
  },
  async (t) => {
    const status = t.profile.statuses?.rate_limited;
    if (status === undefined) t.skip('the profile declares no status for an exhausted rate limit');
    if (t.profile.capabilities?.rate_limit_headers?.retry_after !== true)
      t.skip('the profile does not declare Retry-After on an exhausted bucket');
    const { api } = await t.fixtureUser({ rate_limit: { requests: 3, requests_per_second: 1 } });
    let limited: Exchange | undefined;
    for (let i = 0; i < 8 && !limited; i++) {
      const x = await api.quickRead();
      if (x.status === status) limited = x;
      else setupOk(x, 'list notes while filling the bucket');
    }
    await t.verify('headers.rate-limit.exhausted', () => {
      expect(limited, 'eight quick requests against a bucket of three are refused at some point').toBeDefined();
      expect(limited!.headers['retry-after'] ?? '(none)', `the refusal says when to retry: ${show(limited!)}`).toMatch(
        /^\d+$/,
      );
    });
    if (!limited) return;
    await sleep(Number(limited.headers['retry-after']) * 1000 + 200);
    const again = await api.quickRead();
    await t.verify('headers.rate-limit.exhausted', () =>
      expect(again.status, `after Retry-After the request succeeds: ${show(again)}`).toBe(200),
    );
  },
);
