import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Profile, loadBuiltinProfile, loadProfile } from '../../spec/profile.js';
import { createSchemaRegistry } from '../../spec/schemas.js';
import { Api } from './api.js';
import { TargetClient } from './client.js';
import type { KitConfig } from './config.js';
import { type Budgets, type KitContext, REMOTE_BUDGETS } from './context.js';
import { UsageError } from './errors.js';
import { FixturesClient } from './fixtures-client.js';
import { Ledger, type LedgerEntry, pendingInJournal } from './ledger.js';
import { probeTarget, probeToken } from './probe.js';

export interface RunHandle {
  readonly context: KitContext;
  /** Sweeps what the checks left, stops what the run started, and counts requests and leftovers. */
  finish(): Promise<RunTotals>;
}

export interface RunTotals {
  requests: number;
  leftovers: number;
  leftoverDetail: LedgerEntry[];
}

interface Started {
  url: string;
  label: string;
  embedded: boolean;
  profile: Profile;
  declared: boolean;
  fixtures?: { prefix: string; adminToken: string; offers: string[] };
  tokens: { primary?: string; secondary?: string };
  stop(): Promise<void>;
}

/**
 * Starts a run: resolves the target (the embedded fake when none is given; this bootstrap is the
 * one place the suites touch the fake other than over HTTP), its profile, tokens and budgets.
 */
export async function startRun(config: KitConfig): Promise<RunHandle> {
  const started = config.image ? await startContainer(config) : config.target ? remote(config) : await startEmbeddedFake(config);
  const runDir = mkdtempSync(join(tmpdir(), 'notes-conformance-'));
  const budgets = { ...resolveBudgets(started.profile, started.embedded), ...config.budgetOverrides };
  const setupClient = new TargetClient({
    baseUrl: started.url, timeoutMs: budgets.request_timeout_ms, requestBudget: Number.MAX_SAFE_INTEGER,
    secrets: [config.token, config.secondaryToken, started.fixtures?.adminToken].filter((s): s is string => !!s),
  });
  const ledger = new Ledger(runDir);
  const fixtures = started.fixtures ? new FixturesClient(setupClient, started.fixtures.prefix, started.fixtures.adminToken) : undefined;
  let tokens = started.tokens;
  let targetProblem: string | undefined;
  try {
    targetProblem = await probeTarget(setupClient, tokens.primary);
    // Without tokens, a fixture API can make the test users (fully isolated from other data).
    if (!tokens.primary && fixtures) tokens = { ...tokens, primary: await fixtureUser(fixtures, ledger) };
    if (!tokens.secondary && fixtures && (started.fixtures?.offers.includes('users') ?? false)) tokens = { ...tokens, secondary: await fixtureUser(fixtures, ledger) };
    else if (tokens.secondary && !targetProblem) await probeToken(setupClient, tokens.secondary, 'secondary');
    // Inside the try: a container started for the run must not outlive this refusal.
    if (!tokens.primary) throw new UsageError('no token for the main test user: give --token');
  } catch (error) {
    await started.stop();
    await setupClient.close();
    rmSync(runDir, { recursive: true, force: true });
    throw error;
  }
  if (!tokens.primary) throw new UsageError('no token for the main test user: give --token');
  const context: KitContext = {
    targetUrl: started.url,
    targetLabel: started.label,
    embedded: started.embedded,
    profile: started.profile,
    profileDeclared: started.declared,
    tokens: { primary: tokens.primary, ...(tokens.secondary ? { secondary: tokens.secondary } : {}) },
    ...(started.fixtures ? { fixtures: started.fixtures } : {}),
    budgets,
    clockToleranceMs: started.profile.clock_tolerance_ms ?? (started.embedded ? 2000 : 60_000),
    strict: started.profile.strict_responses === true,
    seed: config.seed ?? randomInt(0, 2 ** 31 - 1),
    runId: randomBytes(4).toString('hex'),
    runDir,
    only: config.only,
    ...(targetProblem ? { targetProblem } : {}),
  };
  return {
    context,
    async finish() {
      const swept = await sweep(context, setupClient, fixtures);
      await setupClient.close();
      await started.stop();
      const requests = countRequests(runDir) + setupClient.sent;
      rmSync(runDir, { recursive: true, force: true });
      return { requests, leftovers: swept.length, leftoverDetail: swept };
    },
  };
}

function remote(config: KitConfig): Started {
  const profile = config.profile ?? assumedProfile();
  return {
    url: config.target!,
    label: config.target!,
    embedded: false,
    profile,
    declared: config.profile !== undefined,
    ...fixturesOf(profile, config.fixturesToken),
    tokens: { ...(config.token ? { primary: config.token } : {}), ...(config.secondaryToken ? { secondary: config.secondaryToken } : {}) },
    stop: async () => {},
  };
}

/**
 * With no profile, the kit assumes the fake's choices (its profile rules then only report), but
 * never endpoints the document does not show (restore, remove, the attachment question): a
 * check that needs one is skipped, since calling a guessed path would fail a conforming server.
 */
function assumedProfile(): Profile {
  const { budgets: _budgets, fake: _fake, endpoints: _endpoints, capabilities, ...rest } = loadBuiltinProfile('fake');
  // A remote target offers nothing it did not declare: no fixture API, no promise of which
  // rate-limit headers (their names are not shown) on which operations.
  const { fixtures: _fixtures, rate_limit_headers: _headers, ...caps } = capabilities ?? {};
  return { ...rest, name: 'assumed (reference fake defaults)', capabilities: caps };
}

function fixturesOf(profile: Profile, adminToken: string | undefined): Pick<Started, 'fixtures'> {
  const decl = profile.capabilities?.fixtures;
  if (!decl || !adminToken) return {};
  return { fixtures: { prefix: decl.path_prefix, adminToken, offers: [...(decl.offers ?? [])] } };
}

async function startEmbeddedFake(config: KitConfig): Promise<Started> {
  const { createFake } = await import('../../fake/index.js');
  const fakeProfile = config.fakeProfile ?? 'fake';
  const primary = `tok_${randomBytes(12).toString('hex')}`;
  const secondary = `tok_${randomBytes(12).toString('hex')}`;
  const adminToken = `adm_${randomBytes(12).toString('hex')}`;
  let fake;
  try {
    fake = await createFake({ profile: fakeProfile, faults: config.fakeFaults, users: [primary, secondary], adminToken });
  } catch (error) {
    throw new UsageError(`cannot start the embedded fake: ${(error as Error).message}`);
  }
  // The kit judges the fake by the profile it is given (to prove false positives), else by the fake's own.
  const profile = config.profile ?? fake.config.profile;
  return {
    url: fake.url!,
    label: `embedded fake (${fake.config.profile.name}${config.fakeFaults.length ? `, faults: ${config.fakeFaults.join(', ')}` : ''})`,
    embedded: true,
    profile,
    declared: true,
    ...fixturesOf(profile, adminToken),
    tokens: { primary, secondary },
    stop: () => fake.close(),
  };
}

async function startContainer(config: KitConfig): Promise<Started> {
  const { startImage } = await import('./container.js');
  const profile = config.profile ?? assumedProfile();
  const container = await startImage(config.image!, config.imagePort);
  return {
    url: container.url,
    label: `image ${config.image}`,
    embedded: false,
    profile,
    declared: config.profile !== undefined,
    ...fixturesOf(profile, config.fixturesToken),
    tokens: { ...(config.token ? { primary: config.token } : {}), ...(config.secondaryToken ? { secondary: config.secondaryToken } : {}) },
    stop: () => container.stop(),
  };
}

function resolveBudgets(profile: Profile, embedded: boolean): Budgets {
  const base = embedded ? { ...REMOTE_BUDGETS, ...loadBuiltinProfile('fake').budgets, requests_per_second: undefined } : REMOTE_BUDGETS;
  const declared = profile.budgets ?? {};
  return { ...base, ...declared } as Budgets;
}

async function fixtureUser(fixtures: FixturesClient, ledger: Ledger): Promise<string> {
  const user = await fixtures.createUser();
  ledger.created('user', user.user_id, 'primary');
  return user.token;
}

/**
 * Deletes everything the journal still lists, whichever process created it (workers journal to
 * the same file); what it cannot delete is left over.
 */
async function sweep(ctx: KitContext, client: TargetClient, fixtures: FixturesClient | undefined): Promise<LedgerEntry[]> {
  const ledger = new Ledger(ctx.runDir);
  ledger.adopt(pendingInJournal(ctx.runDir));
  const api = new Api(client, ctx.profile, createSchemaRegistry(), ledger, ctx.tokens.primary, 'primary', false);
  const users = new Set(ledger.pending().filter((e) => e.kind === 'user').map((e) => e.id));
  for (const entry of ledger.pending()) {
    try {
      if (entry.kind === 'user') {
        if (!fixtures) continue;
        await fixtures.deleteUser(entry.id);
        ledger.deleted('user', entry.id); // and, in the ledger, the user's data with it
        continue;
      }
      if (entry.owner.startsWith('user:')) {
        // Goes with its fixture user below; if that user is already deleted, it went then.
        if (!users.has(entry.owner.slice(5))) ledger.deleted(entry.kind, entry.id);
        continue;
      }
      const as = entry.owner === 'secondary' && ctx.tokens.secondary ? api.as(ctx.tokens.secondary, 'secondary') : api;
      if (entry.kind === 'note') await as.deleteNote(entry.id);
      else await as.deleteCollection(entry.id);
    } catch {
      // stays pending: a leftover
    }
  }
  return pendingInJournal(ctx.runDir);
}

function countRequests(runDir: string): number {
  let total = 0;
  for (const name of readdirSync(runDir)) {
    if (name.startsWith('requests-')) total += (JSON.parse(readFileSync(join(runDir, name), 'utf8')) as { requests: number }).requests;
  }
  return total;
}
