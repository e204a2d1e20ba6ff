import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { flagProblem } from '../spec/did-you-mean.js';
import { loadProfileArgument, type Profile, ProfileError } from '../spec/profile.js';
import { UsageError } from '../spec/verdicts.js';
import type { Tier } from './core/context.js';
import { environmentHelp, type FlagDecl, flagOrEnv, flagsHelp, parseOptions } from './flags.js';
import { checkReportPaths } from './report-paths.js';
import { RUN_FLAGS, type RunFlagName } from './run-flags.js';

/**
 * The kit's settings, read once from the command line and the environment (flags win) into a
 * frozen object. This is the only module that reads either.
 */
export interface KitConfig {
  readonly target?: string;
  readonly image?: string;
  /** Where the image's server listens (passed as PORT); default a free port. */
  readonly imagePort?: number;
  readonly token?: string;
  readonly secondaryToken?: string;
  readonly fixturesToken?: string;
  readonly profilePath?: string;
  /** The profile file's content, validated (undefined: none given). */
  readonly profile?: Profile;
  readonly only: readonly string[];
  readonly seed?: number;
  readonly outputs: {
    readonly json?: string;
    readonly junit?: string;
    readonly markdown?: string;
    readonly html?: string;
    readonly 'html-spec'?: string;
    readonly har?: string;
  };
  readonly quiet: boolean;
  /** The embedded fake's own profile and faults (for proving the kit: divergent runs, the fault matrix). */
  readonly fakeProfile?: string;
  readonly fakeFaults: readonly string[];
  /** Budget overrides from the command line; they win over the profile's `budgets`. */
  readonly budgetOverrides: {
    readonly requests_per_second?: number;
    readonly request_budget?: number;
    readonly request_timeout_ms?: number;
    /** Not a flag: the fault matrix needs a failure, not its shortest form. */
    readonly model_shrink_runs?: number;
  };
  /** --max-duration: how long the run may take before it stops sending (undefined: the default for the target). */
  readonly maxDurationMs?: number;
  /** `smoke`: only the checks marked for it (one cheap judgement per area); default `full`. */
  readonly tier: Tier;
  /** Check workers against the embedded fake (--workers); unset: checkWorkers() decides. */
  readonly workers?: number;
  /** At most this many notes created in the tokens' accounts (--max-notes); default: the tier's cap for a remote target. */
  readonly maxNotes?: number;
}

export const RUN_USAGE = `Usage: notes-conformance [options]            run every check (against the embedded fake if no target)
       notes-conformance fake [options]       serve the reference fake (see notes-conformance fake --help)
       notes-conformance diff [options]       replay random operation sequences on a target and on the fake, report the first difference
       notes-conformance matrix [options]     run the kit once per fault of the fake and show which check catches it
       notes-conformance profile init [options]  probe a target and write a commented profile of what it observed
       notes-conformance rules [--area A] [--json]  list the rule ids with their level and the document's words
       notes-conformance compare OLD.json NEW.json  what changed between two runs' JSON reports (exit 1: worse)

${flagsHelp(RUN_FLAGS)}

Exit status: 0 when no documented rule (and no rule the profile declares) fails or errors,
1 when one does, 2 when the kit cannot start, 3 when the account's note quota ran out (quota_exceeded)
and no rule failed (the rules that still needed new notes are errors naming the quota, not failures),
130/143 when interrupted (SIGINT/SIGTERM).

Environment (a flag wins over its variable):
${environmentHelp(RUN_FLAGS)}
  NOTES_DEBUG=1            an unexpected error prints its stack
  NOTES_CPU_PROFILE=DIR    V8 CPU profiles of the check worker are written to DIR (bench/profile-kit-run.js)
  NO_COLOR                 set to anything: no colours, also on a terminal (https://no-color.org)`;

/** The flags declared: what a mistyped flag is told it most likely meant. */
const FLAG_NAMES = RUN_FLAGS.map((f) => f.name);

/**
 * Check workers at most. The fake answers them all in the run process's one thread: on the 2-core
 * machines this is measured on, three workers were no faster than two (13.8 and 10.4 s against
 * 11.2 and 10.6 s, alternating) for more CPU.
 */
export const MAX_WORKERS = 2;

/**
 * The run's check workers: one against a target or image (one client paces the requests and
 * counts the budget), and one under --max-notes (the cap plan divides the creates among the checks
 * of one worker); against the embedded fake --workers, else two where there are two cores (the
 * fake answers in the run process while the workers check). The embedded fake gets a user pair
 * for each.
 */
export function checkWorkers(config: Pick<KitConfig, 'target' | 'image' | 'workers' | 'maxNotes'>): number {
  if (config.target !== undefined || config.image !== undefined || config.maxNotes !== undefined) return 1;
  return config.workers ?? Math.min(2, availableParallelism());
}

type Env = Readonly<Record<string, string | undefined>>;

export function readKitConfig(argv: readonly string[], env: Env): KitConfig {
  let values: ReturnType<typeof parse>['values'];
  try {
    ({ values } = parse(argv));
  } catch (error) {
    throw new UsageError(`${flagProblem(error, FLAG_NAMES)} (see notes-conformance --help)`);
  }
  // A flag, else the first of its declared variables that is set.
  const pick = (name: RunFlagName): string | undefined => flagOrEnv(RUN_FLAGS, name, values[name], env);
  const list = (name: RunFlagName): string[] => {
    const given = values[name];
    const fromEnv = FLAGS.get(name)?.env?.flatMap((v) => (env[v] ? env[v].split(',') : [])) ?? [];
    return [...(Array.isArray(given) ? given.filter((v): v is string => typeof v === 'string') : []), ...fromEnv];
  };
  const target = pick('target');
  if (target !== undefined) {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new UsageError(`--target must be an absolute http(s) URL (got ${target})`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError(`--target must be http or https (got ${url.protocol})`);
    if (url.username || url.password) throw new UsageError('--target must not carry credentials; use --token');
  }
  const image = pick('image');
  if (target && image) throw new UsageError('give --target or --image, not both');
  const imagePortRaw = pick('image-port');
  if (
    imagePortRaw !== undefined &&
    (!/^\d{1,5}$/.test(imagePortRaw) || Number(imagePortRaw) < 1 || Number(imagePortRaw) > 65535)
  ) {
    throw new UsageError(`--image-port must be a port number 1..65535 (got ${imagePortRaw})`);
  }
  const seedRaw = pick('seed');
  if (seedRaw !== undefined && !/^\d{1,10}$/.test(seedRaw))
    throw new UsageError(`--seed must be a non-negative integer (got ${seedRaw})`);
  const positive = (flag: string, raw: string | undefined, integer: boolean): number | undefined => {
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!/^\d+(\.\d+)?$/.test(raw) || !(n > 0) || (integer && !Number.isInteger(n))) {
      throw new UsageError(`--${flag} must be a positive ${integer ? 'integer' : 'number'} (got ${raw})`);
    }
    return n;
  };
  const rps = positive('requests-per-second', pick('requests-per-second'), false);
  const budget = positive('request-budget', pick('request-budget'), true);
  const timeout = positive('request-timeout', pick('request-timeout'), true);
  const maxDurationRaw = pick('max-duration');
  const maxDurationMs = maxDurationRaw === undefined ? undefined : parseDuration(maxDurationRaw);
  const tier = pick('tier') ?? 'full';
  if (tier !== 'smoke' && tier !== 'full') throw new UsageError(`--tier must be smoke or full (got ${tier})`);
  const maxNotes = positive('max-notes', pick('max-notes'), true);
  // NOTES_WORKERS set for the machine does not stand in the way of a run against a target: only the flag is refused.
  const workers = positive('workers', target || image ? (values.workers as string | undefined) : pick('workers'), true);
  if (workers !== undefined && workers > MAX_WORKERS)
    throw new UsageError(`--workers must be at most ${MAX_WORKERS} (got ${workers})`);
  if (workers !== undefined && workers > 1 && (target || image))
    throw new UsageError(
      '--workers applies to the embedded fake: against a target or image one client paces the requests and counts the budget',
    );
  const only = list('only')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const prefix of only)
    if (!/^[a-z0-9.-]+$/.test(prefix))
      throw new UsageError(`--only takes a rule id or prefix such as notes.create (got ${prefix})`);
  const config: KitConfig = {
    ...(target ? { target: target.replace(/\/+$/, '') } : {}),
    ...(image ? { image } : {}),
    ...(imagePortRaw !== undefined ? { imagePort: Number(imagePortRaw) } : {}),
    ...optional('token', pick('token')),
    ...optional('secondaryToken', pick('secondary-token')),
    ...optional('fixturesToken', pick('fixtures-token')),
    ...optional('profilePath', pick('profile')),
    only,
    ...(seedRaw !== undefined ? { seed: Number(seedRaw) } : {}),
    outputs: {
      ...optional('json', pick('json')),
      ...optional('junit', pick('junit')),
      ...optional('markdown', pick('markdown')),
      ...optional('html', pick('html')),
      ...optional('html-spec', pick('html-spec')),
      ...optional('har', pick('har')),
    },
    quiet: values.quiet === true,
    ...optional('fakeProfile', pick('fake-profile')),
    budgetOverrides: {
      ...optional('requests_per_second', rps),
      ...optional('request_budget', budget),
      ...optional('request_timeout_ms', timeout),
    },
    ...optional('maxDurationMs', maxDurationMs),
    tier,
    ...optional('maxNotes', maxNotes),
    ...optional('workers', workers),
    fakeFaults: list('fake-fault').filter(Boolean),
  };
  checkReportPaths(config.outputs);
  if (config.profilePath !== undefined) {
    let profile: Profile;
    try {
      profile = loadProfileArgument(config.profilePath);
    } catch (error) {
      if (error instanceof ProfileError) throw new UsageError(profileProblem('--profile', error));
      throw error;
    }
    // The fixture API's admin token may live in a variable the profile names.
    const fixtures = profile.capabilities?.fixtures;
    const fromEnv = fixtures?.admin_token_env ? env[fixtures.admin_token_env] : undefined;
    Object.assign(
      config,
      { profile },
      config.fixturesToken === undefined && (fromEnv ?? fixtures?.admin_token)
        ? { fixturesToken: fromEnv ?? fixtures?.admin_token }
        : {},
    );
  }
  if (config.token === undefined && (config.target || config.image) && !config.fixturesToken) {
    throw new UsageError(
      'a target needs a token: --token or NOTES_TOKEN (or a fixture API token to create test users)',
    );
  }
  return deepFreeze(config);
}

/** A profile that cannot be read is a bad path (one line); a profile with problems lists them, one per line. */
export function profileProblem(flag: string, error: ProfileError): string {
  const only = error.problems.length === 1 ? error.problems[0]! : undefined;
  return only?.startsWith('cannot read the file') ? `${flag} ${error.source}: ${only}` : error.message;
}

export function wantsHelp(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

const FLAGS = new Map<string, FlagDecl>(RUN_FLAGS.map((f) => [f.name, f]));

function parse(argv: readonly string[]) {
  return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: parseOptions(RUN_FLAGS) });
}

/** "90s", "20m", "1h" or a plain number of seconds, as milliseconds. */
export function parseDuration(raw: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match?.[2] ?? 's']!;
  const ms = match ? Number(match[1]) * unit : Number.NaN;
  if (!(ms >= 1000))
    throw new UsageError(`--max-duration must be a duration of at least 1 s such as 90s, 20m or 1h (got ${raw})`);
  return Math.round(ms);
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
