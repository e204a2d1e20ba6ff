import { parseArgs } from 'node:util';
import { flagProblem } from '../spec/did-you-mean.js';
import { loadProfileArgument, type Profile, ProfileError } from '../spec/profile.js';
import { UsageError } from '../spec/verdicts.js';
import type { Tier } from './core/context.js';
import { checkReportPaths } from './report-paths.js';

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
  };
  /** --max-duration: how long the run may take before it stops sending (undefined: the default for the target). */
  readonly maxDurationMs?: number;
  /** `smoke`: only the checks marked for it (one cheap judgement per area); default `full`. */
  readonly tier: Tier;
  /** At most this many notes created in the tokens' accounts (--max-notes); default: the tier's cap for a remote target. */
  readonly maxNotes?: number;
}

export const RUN_USAGE = `Usage: notes-conformance [options]            run every check (against the embedded fake if no target)
       notes-conformance fake [options]       serve the reference fake (see notes-conformance fake --help)
       notes-conformance diff [options]       replay random operation sequences on a target and on the fake, report the first difference
       notes-conformance matrix [options]     run the kit once per fault of the fake and show which check catches it
       notes-conformance profile init [options]  probe a target and write a commented profile of what it observed
       notes-conformance rules [--area A] [--json]  list the rule ids with their level and the document's words

Target:
  --target URL             base URL of the server under test (env NOTES_TARGET_URL)
  --image NAME             start the server from a Docker image with testcontainers, on the host network, with
                           PORT and HOST telling it where to listen (env NOTES_TARGET_IMAGE)
  --image-port N           the port to give it (default: a free one)
  --token T                bearer token of the main test user (env NOTES_TOKEN)
  --secondary-token T      a second user's token, for isolation checks (env NOTES_SECONDARY_TOKEN)
  --fixtures-token T       admin token of the target's fixture API, if its profile declares one (env NOTES_FIXTURES_TOKEN)
  --profile FILE           the target's choices where the API document says "not shown" (env NOTES_PROFILE);
                           or a built-in: hosted (the hosted service's names), fake, fake-divergent
Run:
  --only ID                run only the checks of a rule id or id prefix such as notes.create (repeatable)
  --seed N                 replay property and model-based runs with this seed
  --tier smoke|full        smoke: at most 100 requests, at least one rule per area, for every deploy; full (default): every check
  --max-notes N            create at most N notes in the tokens' accounts (default for a remote target: 150 full, 20 smoke);
                           checks that need more are skipped with the reason. The run prints its caps before the first request
  --fake-profile P         the embedded fake's profile: fake (default), fake-divergent, hosted or a file
  --fake-fault NAME        start the embedded fake with a fault (repeatable; for proving the kit)
  --requests-per-second N  pace requests at most this fast (default 1.5 for a remote target; overrides the profile)
  --request-budget N       stop sending after N requests (default 1500 for a remote target; overrides the profile)
  --request-timeout MS     give up on one request after MS milliseconds (default 10000; overrides the profile)
  --max-duration D         stop sending requests after D (90s, 20m, 1h; plain number: seconds); rate-limit waits
                           that would end later are not waited out (default 30m for a remote target, none for the
                           embedded fake). A single rate-limit wait is capped by budgets.max_rate_limit_wait_ms (60 s)
Reports:
  --json FILE              the whole report as JSON (each failing check with a curl repro)
  --junit FILE             JUnit XML: one test case per rule; failures are exactly what fails the run
  --markdown FILE          for a pull request or $GITHUB_STEP_SUMMARY (at most 60,000 characters)
  --html FILE              one self-contained page: failures first, a filter, evidence with copy buttons
  --html-spec FILE         the API document with each requirement marked by its rules' verdicts
  --har FILE               every exchange of the run as HAR 1.2 (tokens redacted), for a browser's developer tools
                           (report paths are checked before anything is sent; missing directories are created)
  --quiet                  print only the headline, the failing rule ids, the exit line and the seed
  -h, --help               this text;  -v, --version  print the kit's version

Exit status: 0 when no documented rule (and no rule the profile declares) fails or errors,
1 when one does, 2 when the kit cannot start, 3 when the account's note quota ran out (quota_exceeded)
and no rule failed (the rules that still needed new notes are errors naming the quota, not failures),
130/143 when interrupted (SIGINT/SIGTERM).

Environment (a flag wins over its variable):
  NOTES_TARGET_URL, NOTES_TARGET_IMAGE, NOTES_IMAGE_PORT       --target, --image, --image-port
  NOTES_TOKEN, NOTES_SECONDARY_TOKEN (or NOTES_TOKEN_SECONDARY)  --token, --secondary-token
  NOTES_FIXTURES_TOKEN     --fixtures-token (a profile may name another variable: fixtures.admin_token_env)
  NOTES_PROFILE, NOTES_SEED, NOTES_TIER, NOTES_MAX_NOTES        --profile, --seed, --tier, --max-notes
  NOTES_ONLY               --only, comma-separated
  NOTES_REQUESTS_PER_SECOND, NOTES_REQUEST_BUDGET, NOTES_REQUEST_TIMEOUT_MS, NOTES_MAX_DURATION
                           --requests-per-second, --request-budget, --request-timeout, --max-duration
  NOTES_REPORT_JSON, NOTES_REPORT_JUNIT, NOTES_REPORT_MARKDOWN, NOTES_REPORT_HTML, NOTES_REPORT_HTML_SPEC, NOTES_REPORT_HAR
                           --json, --junit, --markdown, --html, --html-spec, --har
  NOTES_FAKE_PROFILE, NOTES_FAKE_FAULTS  --fake-profile, --fake-fault (comma-separated)
  NOTES_DEBUG=1            an unexpected error prints its stack
  NO_COLOR                 set to anything: no colours, also on a terminal (https://no-color.org)`;

/** The flags the help documents: what a mistyped flag is told it most likely meant. */
const RUN_FLAGS = [...new Set([...RUN_USAGE.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]!))];

type Env = Readonly<Record<string, string | undefined>>;

export function readKitConfig(argv: readonly string[], env: Env): KitConfig {
  let values: ReturnType<typeof parse>['values'];
  try {
    ({ values } = parse(argv));
  } catch (error) {
    throw new UsageError(`${flagProblem(error, RUN_FLAGS)} (see notes-conformance --help)`);
  }
  const pick = (flag: string | undefined, name: string): string | undefined => {
    const value = flag ?? env[name];
    return value === undefined || value === '' ? undefined : value;
  };
  const target = pick(values.target, 'NOTES_TARGET_URL');
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
  const image = pick(values.image, 'NOTES_TARGET_IMAGE');
  if (target && image) throw new UsageError('give --target or --image, not both');
  const imagePortRaw = pick(values['image-port'], 'NOTES_IMAGE_PORT');
  if (
    imagePortRaw !== undefined &&
    (!/^\d{1,5}$/.test(imagePortRaw) || Number(imagePortRaw) < 1 || Number(imagePortRaw) > 65535)
  ) {
    throw new UsageError(`--image-port must be a port number 1..65535 (got ${imagePortRaw})`);
  }
  const seedRaw = pick(values.seed, 'NOTES_SEED');
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
  const rps = positive('requests-per-second', pick(values['requests-per-second'], 'NOTES_REQUESTS_PER_SECOND'), false);
  const budget = positive('request-budget', pick(values['request-budget'], 'NOTES_REQUEST_BUDGET'), true);
  const timeout = positive('request-timeout', pick(values['request-timeout'], 'NOTES_REQUEST_TIMEOUT_MS'), true);
  const maxDurationRaw = pick(values['max-duration'], 'NOTES_MAX_DURATION');
  const maxDurationMs = maxDurationRaw === undefined ? undefined : parseDuration(maxDurationRaw);
  const tier = pick(values.tier, 'NOTES_TIER') ?? 'full';
  if (tier !== 'smoke' && tier !== 'full') throw new UsageError(`--tier must be smoke or full (got ${tier})`);
  const maxNotes = positive('max-notes', pick(values['max-notes'], 'NOTES_MAX_NOTES'), true);
  const only = [...(values.only ?? []), ...(env.NOTES_ONLY ? env.NOTES_ONLY.split(',') : [])]
    .map((s) => s.trim())
    .filter(Boolean);
  for (const prefix of only)
    if (!/^[a-z0-9.-]+$/.test(prefix))
      throw new UsageError(`--only takes a rule id or prefix such as notes.create (got ${prefix})`);
  const config: KitConfig = {
    ...(target ? { target: target.replace(/\/+$/, '') } : {}),
    ...(image ? { image } : {}),
    ...(imagePortRaw !== undefined ? { imagePort: Number(imagePortRaw) } : {}),
    ...optional('token', pick(values.token, 'NOTES_TOKEN')),
    ...optional(
      'secondaryToken',
      pick(values['secondary-token'], 'NOTES_SECONDARY_TOKEN') ?? env.NOTES_TOKEN_SECONDARY,
    ),
    ...optional('fixturesToken', pick(values['fixtures-token'], 'NOTES_FIXTURES_TOKEN')),
    ...optional('profilePath', pick(values.profile, 'NOTES_PROFILE')),
    only,
    ...(seedRaw !== undefined ? { seed: Number(seedRaw) } : {}),
    outputs: {
      ...optional('json', pick(values.json, 'NOTES_REPORT_JSON')),
      ...optional('junit', pick(values.junit, 'NOTES_REPORT_JUNIT')),
      ...optional('markdown', pick(values.markdown, 'NOTES_REPORT_MARKDOWN')),
      ...optional('html', pick(values.html, 'NOTES_REPORT_HTML')),
      ...optional('html-spec', pick(values['html-spec'], 'NOTES_REPORT_HTML_SPEC')),
      ...optional('har', pick(values.har, 'NOTES_REPORT_HAR')),
    },
    quiet: values.quiet === true,
    ...optional('fakeProfile', pick(values['fake-profile'], 'NOTES_FAKE_PROFILE')),
    budgetOverrides: {
      ...optional('requests_per_second', rps),
      ...optional('request_budget', budget),
      ...optional('request_timeout_ms', timeout),
    },
    ...optional('maxDurationMs', maxDurationMs),
    tier,
    ...optional('maxNotes', maxNotes),
    fakeFaults: [
      ...(values['fake-fault'] ?? []),
      ...(env.NOTES_FAKE_FAULTS ? env.NOTES_FAKE_FAULTS.split(',') : []),
    ].filter(Boolean),
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

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      target: { type: 'string' },
      image: { type: 'string' },
      'image-port': { type: 'string' },
      token: { type: 'string' },
      'secondary-token': { type: 'string' },
      'fixtures-token': { type: 'string' },
      profile: { type: 'string' },
      only: { type: 'string', multiple: true },
      seed: { type: 'string' },
      json: { type: 'string' },
      junit: { type: 'string' },
      markdown: { type: 'string' },
      html: { type: 'string' },
      'html-spec': { type: 'string' },
      har: { type: 'string' },
      quiet: { type: 'boolean' },
      'fake-profile': { type: 'string' },
      'fake-fault': { type: 'string', multiple: true },
      'requests-per-second': { type: 'string' },
      'request-budget': { type: 'string' },
      'request-timeout': { type: 'string' },
      'max-duration': { type: 'string' },
      tier: { type: 'string' },
      'max-notes': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
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
