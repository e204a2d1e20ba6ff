import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../../fake/index.js';
import { Api } from '../../../kit/core/api.js';
import { type Exchange, TargetClient } from '../../../kit/core/client.js';
import { Ledger } from '../../../kit/core/ledger.js';
import { loadBuiltinProfile } from '../../../spec/profile.js';
import { createSchemaRegistry } from '../../../spec/schemas.js';
import type { CheckContext } from '../../../suites/harness/check.js';
import { DataFactory } from '../../../suites/harness/data.js';
import { commands } from '../../../suites/model/commands/all.js';
import { emptyModel } from '../../../suites/model/model.js';

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
    const observer = {
      sending: () => undefined,
      answered: (_pending: unknown, x: Exchange) => {
        if (x.status >= 400 && /unknown (field|parameter)|did you mean/.test(x.text))
          refusedNames.push(`${x.method} ${x.path}: ${x.text.slice(0, 160)}`);
      },
      unanswered: () => {},
      touchedByFixture: () => {},
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
    // What a check's context holds when no profile was given (kit/core/needs.ts): no name, endpoint or marker.
    const t = {
      data,
      api,
      profile,
      ctx: { clockToleranceMs: 2_000 },
      precisionMs: 1,
      declares: (field: string) => !/^(names|endpoints|content_markers)(\.|$)/.test(field),
    } as unknown as CheckContext;
    const since = new Date(Date.now() - 2_000).toISOString();
    const edgeInputsSent = new Map<string, number>();
    // The run with restore and remove needs their endpoints declared: without a profile it is skipped.
    await fc.assert(
      fc.asyncProperty(fc.commands(commands(false), { maxCommands: 40, size: 'max' }), (cmds) =>
        fc.asyncModelRun(
          () => ({
            model: emptyModel(false, false),
            real: { t, api, steps: [], since, edgeInputsSent, fillers: { made: 0 } },
          }),
          cmds,
        ),
      ),
      { numRuns: 20, seed: 48, endOnFailure: true },
    );
    expect(refusedNames).toEqual([]);
  }, 120_000);
});
