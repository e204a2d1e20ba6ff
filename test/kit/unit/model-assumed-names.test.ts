import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../../fake/index.js';
import { Api } from '../../../kit/core/api.js';
import { type Exchange, TargetClient } from '../../../kit/core/client.js';
import { Ledger } from '../../../kit/core/ledger.js';
import { Oracle } from '../../../kit/core/oracle/oracle.js';
import { EDGE_INPUT_KINDS } from '../../../kit/core/sequences/edges.js';
import { opsArbitrary } from '../../../kit/core/sequences/ops.js';
import type { Runner } from '../../../kit/core/sequences/runner.js';
import { runOps } from '../../../kit/core/sequences/sequence.js';
import { loadBuiltinProfile } from '../../../spec/profile.js';
import { createSchemaRegistry } from '../../../spec/schemas.js';
import { DataFactory } from '../../../suites/harness/data.js';

/**
 * With no profile, the model-based runs may send only what the document shows: the kit assumes the
 * reference fake's names, and a request under a name the target never chose (the divergent fake
 * names the collection search query `q`) is refused, which the model took for the target's fault
 * and reported every rule of its check as an error (CI, seed-dependent). Every command the model
 * can generate runs here against the divergent fake, nothing declared, and no answer may be a
 * refusal of a name.
 */
const TOKEN = 'assumed-names-token';
let fake: Fake;
let runDir: string;

beforeAll(async () => {
  fake = await createFake({ profile: 'fake-divergent', users: [TOKEN], adminToken: 'assumed-names-admin' });
  runDir = mkdtempSync(join(tmpdir(), 'nc-assumed-names-'));
});
afterAll(async () => {
  await fake.close();
  rmSync(runDir, { recursive: true, force: true });
});

describe('model-based runs without a profile', () => {
  it('never send a name the profile did not declare, whatever the sequence', async () => {
    const refusedNames: string[] = [];
    const client = new TargetClient({
      baseUrl: fake.url!,
      timeoutMs: 5_000,
      requestBudget: 1_000_000,
      secrets: [TOKEN],
    });
    // The run's oracle keeps the state the sequences pick from; every answer is also looked at here.
    const oracle = new Oracle({ precisionMs: 1, lagMs: 0 });
    const observer = {
      sending: (sent: Parameters<Oracle['sending']>[0]) => oracle.sending(sent),
      answered: (pending: ReturnType<Oracle['sending']>, x: Exchange) => {
        if (x.status >= 400 && /unknown (field|parameter)|did you mean/.test(x.text))
          refusedNames.push(`${x.method} ${x.path}: ${x.text.slice(0, 160)}`);
        oracle.answered(pending, x);
      },
      unanswered: (pending: ReturnType<Oracle['sending']>) => oracle.unanswered(pending),
      touchedByFixture: () => {},
      granted: () => {},
      quotaSet: () => {},
      attachmentAdded: () => {},
    };
    const profile = loadBuiltinProfile('fake');
    const schemas = createSchemaRegistry(undefined, { compile: 'use' });
    const api = new Api(
      client,
      profile,
      schemas,
      new Ledger(runDir),
      TOKEN,
      'primary',
      false,
      undefined,
      false,
      observer,
    );
    const data = new DataFactory(api, 'assumed');
    // What a run holds when no profile was given (kit/core/needs.ts): no name, endpoint or marker.
    const declares = (field: string) => !/^(names|endpoints|content_markers)(\.|$)/.test(field);
    const since = new Date(Date.now() - 2_000).toISOString();
    const edgesSent = new Map<string, number>();
    let stamps = 0;
    const runner = (): Runner => ({
      api,
      world: oracle.world,
      owner: 'primary',
      mine: { notes: [], collections: [] },
      steps: [],
      content: (title, body) => data.content(title, body),
      word: () => data.word(),
      stamp: () => Date.UTC(2011, 0, 1) + ++stamps * 60_000,
      clock: { toleranceMs: 2_000, precisionMs: 1 },
      since,
      declares,
      profile,
      fillers: { made: 0, max: 12 },
      edgesSent,
      failures: () => 0,
    });
    // The run with restore and remove needs their endpoints declared: without a profile it is left out.
    const ops = opsArbitrary({ restore: false, remove: false, headings: false, edges: EDGE_INPUT_KINDS, maxOps: 40 });
    await fc.assert(
      fc.asyncProperty(ops, async (sequence) => {
        await runOps(runner(), sequence);
      }),
      { numRuns: 20, seed: 48, endOnFailure: true },
    );
    expect(refusedNames).toEqual([]);
  }, 120_000);
});
