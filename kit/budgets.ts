import { loadBuiltinProfile, type Profile } from '../spec/profile.js';
import type { KitConfig } from './config.js';
import { DEFAULT_MAX_RATE_LIMIT_WAIT_MS, DEFAULT_MAX_RESPONSE_BYTES } from './core/client.js';
import type { Budgets } from './core/context.js';

/**
 * Budgets when the target is remote and its profile says nothing. A full run with them sends
 * 587 to 592 requests, cleanup included, with two tokens and no profile; the smoke tier about 80
 * (measured against the fake, test/kit/cost.test.ts, docs/running.md "Cost"). The
 * request budget leaves room above that, so a conforming target never runs out of it.
 * No random property runs: the boundary examples of every property always run (a property without
 * examples runs once), which is what judges the rules; a profile's property_runs adds random ones.
 */
export const REMOTE_BUDGETS: Budgets = {
  property_runs: 0,
  // One short model-based run: the examples of other checks judge its rules, the explorer visits
  // what they left, and a longer random sequence makes the cost of a run depend on the seed.
  model_runs: 1,
  model_max_commands: 6,
  // Each shrinking step sends a sequence again, paced: a few shorten a 10-step failure enough.
  model_shrink_runs: 5,
  // The explorer's share: the targets with the most documented rules behind them first. The checks
  // send what 40 requests of it visited before (the repeats, the trashed and deleted states, the input
  // pairs and paging boundaries no check reached), so 8 keep every target 40 covered (212 and 222 on
  // seeds 1 and 2; 238 now, 249 with 40) at a sixth of its cost (docs/running.md "Cost").
  explore_requests: 8,
  max_seed_notes: 12,
  request_budget: 1500,
  requests_per_second: 1.5,
  request_timeout_ms: 10_000,
  max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
  max_rate_limit_wait_ms: DEFAULT_MAX_RATE_LIMIT_WAIT_MS,
};

/**
 * How long a run against a remote target may take when --max-duration is not given: a full
 * run at the default pace takes about 10 minutes; one far beyond that is waiting on something.
 * The embedded fake has none (the fault matrix and CI runs are bounded by their own timeouts).
 */
export const REMOTE_MAX_DURATION_MS = 30 * 60_000;

/**
 * The run's budgets: the profile's, over the remote defaults (or the fake's own when embedded).
 * The embedded fake is never paced: the kit starts it, in its own process, with no rate limit to
 * respect. A profile's requests_per_second says how fast its server may be asked (the built-in
 * fake profiles' 1000 is for the fake served from a container), and applied here it paced each of
 * two workers at one request per 2 ms: 1.3 to 1.8 s of every run spent waiting on a timer.
 * `--requests-per-second` still paces it (applied over these by the run's start).
 */
export function resolveBudgets(profile: Profile, embedded: boolean): Budgets {
  const base = embedded ? { ...REMOTE_BUDGETS, ...loadBuiltinProfile('fake').budgets } : REMOTE_BUDGETS;
  const budgets = { ...base, ...(profile.budgets ?? {}) } as Budgets;
  return embedded ? { ...budgets, requests_per_second: undefined } : budgets;
}

/** The flags that set a budget (kit/run-flags.ts). */
const FLAG_OF: Partial<Record<keyof Budgets, string>> = {
  requests_per_second: '--requests-per-second',
  request_budget: '--request-budget',
  request_timeout_ms: '--request-timeout',
};

/**
 * Where each budget of the run came from, in the words every message about it uses (a spent
 * budget, a skip for the seed budget, a wait not waited): the flag, the profile given, or the
 * default. The one place that says it: no message names a profile key when no profile was given.
 */
export function budgetSources(
  config: Pick<KitConfig, 'budgetOverrides' | 'profile' | 'profilePath'>,
  embedded: boolean,
): Record<keyof Budgets, string> {
  const keys = Object.keys(REMOTE_BUDGETS) as Array<keyof Budgets>;
  return Object.fromEntries(
    keys.map((key) => {
      const flag = FLAG_OF[key];
      if (flag && (config.budgetOverrides as Partial<Record<keyof Budgets, unknown>>)[key] !== undefined)
        return [key, flag];
      if (config.profile?.budgets?.[key] !== undefined)
        return [key, `the profile's budgets.${key} (${config.profilePath ?? 'the profile given'})`];
      const where = embedded ? "the embedded fake's default" : 'the default for a remote target';
      return [key, `${where}${flag ? `; ${flag} sets it` : `; a profile's budgets.${key} sets it`}`];
    }),
  ) as Record<keyof Budgets, string>;
}

/** The budgets that decide how many notes a check creates: kit/note-costs.json was measured with the remote ones. */
const NOTE_DRIVEN = [
  'property_runs',
  'model_runs',
  'model_max_commands',
  'explore_requests',
  'max_seed_notes',
] as const;

/**
 * The budgets of a run with a cap on creates: those that decide how many notes a check makes go
 * no higher than the remote defaults its plan's note costs were measured with (kit/plan.ts), so
 * that the checks the plan chose fit the cap as planned (with the embedded fake's 60 property runs
 * they made several times their cost, and a third of the plan was skipped for the cap at run
 * time). Each one lowered says so in `sources`.
 */
export function capped(budgets: Budgets, sources: Record<keyof Budgets, string>): Budgets {
  const out = { ...budgets };
  for (const key of NOTE_DRIVEN) {
    if (out[key] <= REMOTE_BUDGETS[key]) continue;
    out[key] = REMOTE_BUDGETS[key];
    sources[key] = `the run's cap on notes: a capped run keeps to the remote default its plan was measured with`;
  }
  return out;
}
