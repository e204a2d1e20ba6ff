import { type BuiltinProfileName, loadBuiltinProfile, loadProfileArgument, type Profile } from '../spec/profile.js';
import { type Clock, systemClock } from './clock.js';
import type { SeedData } from './data/seed-file.js';
import type { Endpoints, Names } from './http/routes.js';
import { type IdSource, randomIds, seededIds } from './ids.js';
import type { TitleDerivation } from './service/content.js';
import { GENEROUS_RATE_LIMIT } from './service/rate-limit.js';
import type { RateLimitConfig } from './store/records.js';

export interface FakeUserOption {
  token: string;
  name?: string;
  quota?: { limit: number; plan?: string };
}

/**
 * The body cap, 2 MiB as issue 34 states it, answered 413 by Fastify's body limit. It is above the
 * largest valid request in every plain spelling (a 200,000-character note is at most 1.2 MB with
 * \uXXXX escapes); only an update of more than about 174,000 astral characters, each escaped as a
 * surrogate pair (Python's json.dumps default), passes it. Below it, a body is parsed by
 * secure-json-parse within its shape bounds (http/parse.ts).
 */
export const BODY_CAP_BYTES = 2 * 1024 * 1024;

export interface FakeOptions {
  /** The not-shown choices: a profile object, a built-in name (fake, fake-divergent, hosted) or a YAML file path. Default: 'fake'. */
  profile?: Profile | BuiltinProfileName | string;
  /** Deliberate single-rule violations (see faults/catalogue.ts). */
  faults?: readonly string[];
  clock?: Clock;
  /** Seeds ids, request ids and snapshot ids, so that a run replays exactly. */
  seed?: number;
  /** Users created at start, by token. */
  users?: ReadonlyArray<string | FakeUserOption>;
  /** Bearer token of the fixture API; random when omitted. */
  adminToken?: string;
  /** Quota for every user created without one (off by default). */
  quota?: { limit: number; plan?: string };
  /** Rate limit for every user created without one (generous by default). */
  rateLimit?: Partial<RateLimitConfig>;
  /** Largest request body read, in bytes (default BODY_CAP_BYTES); larger ones get 413 without being buffered. */
  bodyLimitBytes?: number;
  snapshotTtlMs?: number;
  /** CORS for browser clients (default on): preflights answered, the request's Origin echoed, rate headers exposed. */
  cors?: boolean;
  /** Deadlines for slow or idle connections (node:http server only). */
  timeouts?: Partial<ConnectionTimeouts>;
  /**
   * Data created for the first user at start, through the create operations: a JSON or YAML file
   * (path) or the value itself, with `collections` and `notes` arrays of create bodies.
   */
  data?: string | SeedData;
  /** Generate this many realistic notes (and collections) for the first user at start; same `seed`, same data. */
  generate?: number;
  /**
   * A JSON file loaded at start (when it exists) and saved by close(): users, notes, collections
   * and grants survive restarts. When it was loaded, `data` and `generate` are not applied again.
   */
  state?: string;
}

/** How long a connection may take; a client past a deadline gets 408 or a closed connection. */
export interface ConnectionTimeouts {
  /** From connecting to the end of the request headers. */
  headersMs: number;
  /** From the end of the headers to the end of the body: a 1 byte/s body is cut off with 408. */
  bodyMs: number;
  /** An idle keep-alive connection between requests is closed after this long. */
  idleMs: number;
}

/** Generous for a developer stepping through a client in a debugger, short enough that stalled sockets go away. */
export const DEFAULT_TIMEOUTS: ConnectionTimeouts = { headersMs: 20_000, bodyMs: 30_000, idleMs: 5_000 };

export interface RateHeaderConfig {
  operations: ReadonlySet<string>;
  names: readonly string[];
  retryAfter: boolean;
}

export interface VariantSettings {
  /** Stored instants are cut to this step (1: milliseconds kept). */
  timestampPrecisionMs: number;
  /** Search and related notes see a write this long after it (0: at once). */
  searchIndexLagMs: number;
  /** Adding, removing or moving a note changes its version. */
  versionOnMembership: boolean;
  /** Trash of a trashed note and restore of an active one refused; membership of a trashed note frozen. */
  strictLifecycle: boolean;
}

/** Everything one instance runs with, resolved from options and profile over the fake's defaults. */
export interface FakeConfig {
  profile: Profile;
  names: Names;
  endpoints: Endpoints;
  titleDerivation: TitleDerivation;
  newestFirst: boolean;
  fixturesPrefix: string;
  rateHeaders: RateHeaderConfig;
  presentation: NonNullable<Profile['fake']>;
  /** Other valid choices the profile's `fake` section switches on (fake/variants/); all off by default. */
  variants: VariantSettings;
  /** Fault names as given (fake/instance.ts checks them against the catalogue and installs them). */
  faults: ReadonlySet<string>;
  clock: Clock;
  ids: IdSource;
  seeded: boolean;
  users: FakeUserOption[];
  adminToken: string;
  defaultQuota: { limit: number; plan: string } | undefined;
  defaultRateLimit: RateLimitConfig;
  bodyLimitBytes: number;
  snapshotTtlMs: number;
  cors: boolean;
  timeouts: ConnectionTimeouts;
  unknownFields: 'refuse' | 'ignore';
  /** Optional fields sent as null where the document allows none: refused, or read as absent. */
  nullFields: 'refuse' | 'absent';
  data: string | SeedData | undefined;
  generate: number;
  /** Seed of the generated data: the instance seed, else random. */
  generateSeed: number;
  stateFile: string | undefined;
}

function resolveProfile(option: FakeOptions['profile']): Profile {
  if (option === undefined) return loadBuiltinProfile('fake');
  if (typeof option === 'string') return loadProfileArgument(option);
  return option;
}

export function resolveConfig(options: FakeOptions = {}): FakeConfig {
  const profile = resolveProfile(options.profile);
  const base = loadBuiltinProfile('fake');
  const group = <K extends keyof Names>(key: K): Names[K] =>
    ({ ...base.names![key], ...profile.names?.[key] }) as Names[K];
  const ids = options.seed === undefined ? randomIds : seededIds(options.seed);
  const rateHeaders = profile.capabilities?.rate_limit_headers ?? base.capabilities!.rate_limit_headers!;
  return {
    profile,
    names: {
      notes_list: group('notes_list'),
      notes_search: {
        ...group('notes_search'),
        // The object's fields merge one by one: a profile naming one field keeps the default of the other.
        response_shape_fields: {
          ...base.names!.notes_search!.response_shape_fields,
          ...profile.names?.notes_search?.response_shape_fields,
        } as Names['notes_search']['response_shape_fields'],
      },
      collections_list: group('collections_list'),
      collections_search: group('collections_search'),
      capture: group('capture'),
    },
    endpoints: { ...base.endpoints, ...profile.endpoints } as Endpoints,
    titleDerivation: profile.title?.derivation ?? 'as_is',
    newestFirst: (profile.list_order ?? 'newest_first') === 'newest_first',
    fixturesPrefix: profile.capabilities?.fixtures?.path_prefix ?? '/_fixtures',
    rateHeaders: {
      operations: new Set(rateHeaders.operations ?? base.capabilities!.rate_limit_headers!.operations),
      names: rateHeaders.names ?? base.capabilities!.rate_limit_headers!.names!,
      retryAfter: rateHeaders.retry_after ?? true,
    },
    presentation: profile.fake ?? {},
    variants: variantSettings(profile),
    faults: new Set(options.faults ?? []),
    clock: options.clock ?? systemClock,
    ids,
    seeded: options.seed !== undefined,
    users: (options.users ?? []).map((u) => (typeof u === 'string' ? { token: u } : u)),
    adminToken: options.adminToken ?? `admin_${ids.uuid().replace(/-/g, '')}`,
    defaultQuota: options.quota ? { limit: options.quota.limit, plan: options.quota.plan ?? 'free' } : undefined,
    defaultRateLimit: { ...GENEROUS_RATE_LIMIT, ...options.rateLimit },
    bodyLimitBytes: options.bodyLimitBytes ?? BODY_CAP_BYTES,
    snapshotTtlMs: options.snapshotTtlMs ?? 60 * 60_000,
    cors: options.cors ?? true,
    timeouts: connectionTimeouts(options.timeouts),
    unknownFields: profile.unknown_fields ?? 'refuse',
    nullFields: profile.null_fields ?? 'refuse',
    data: options.data,
    generate: options.generate ?? 0,
    generateSeed: options.seed ?? Math.floor(Math.random() * 2 ** 32),
    stateFile: options.state,
  };
}

/**
 * The switches name the choice; the values are the profile's declarations, so that the fake serves
 * exactly what the profile tells the kit (a switch without its value is a no-op).
 */
function variantSettings(profile: Profile): VariantSettings {
  const fake = profile.fake ?? {};
  return {
    timestampPrecisionMs: fake.truncate_timestamps ? (profile.timestamp_precision_ms ?? 1) : 1,
    searchIndexLagMs: fake.search_index_lag ? (profile.search_index_lag_ms ?? 0) : 0,
    versionOnMembership: fake.version_on_membership ?? false,
    strictLifecycle: fake.strict_lifecycle ?? false,
  };
}

function connectionTimeouts(option: Partial<ConnectionTimeouts> | undefined): ConnectionTimeouts {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...option };
  for (const [name, ms] of Object.entries(timeouts)) {
    // 0 would mean "never" to node:http but "at once" to the body deadline: neither is what a caller wants.
    if (!Number.isInteger(ms) || ms < 1)
      throw new RangeError(`timeouts.${name} must be a positive integer of milliseconds (got ${ms})`);
  }
  return timeouts;
}
