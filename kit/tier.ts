import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { durationOf } from './check-durations.js';
import type { KitConfig } from './config.js';
import type { KitContext, Tier } from './core/context.js';
import { journalCreates } from './core/ledger.js';

/**
 * Creates a run may make in the accounts of the given tokens, by tier, when the target is remote
 * (a staging account has a quota; the embedded fake has none and is not capped). Measured against
 * the fake with remote defaults (test/kit/cost.test.ts): the full tier creates 110 notes and 53
 * collections with two tokens and no profile, 131 and 80 (fixture users' included) with a profile
 * that offers a fixture API; the smoke tier 10 notes and 3 collections (13 notes with a fixture API).
 */
export const REMOTE_CREATE_CAPS: Record<Tier, { notes: number; collections: number }> = {
  full: { notes: 150, collections: 120 },
  smoke: { notes: 20, collections: 10 },
};

/**
 * The run's caps on creates: --max-notes wins; a remote target with the remote default budgets
 * gets its tier's (the numbers above were measured with those budgets); a profile that sets its
 * own budgets (more property runs, say) or the embedded fake gets none.
 */
export function createCapsFor(config: KitConfig): { notes: number; collections: number } | undefined {
  const remote = config.target !== undefined || config.image !== undefined;
  const ownBudgets = config.profile?.budgets !== undefined;
  const base = remote && !ownBudgets ? REMOTE_CREATE_CAPS[config.tier] : undefined;
  if (config.maxNotes === undefined) return base;
  return { notes: config.maxNotes, collections: base?.collections ?? Number.MAX_SAFE_INTEGER };
}

/** Where each cap of createCapsFor came from, in the words the skip reasons use. */
export function capSources(config: KitConfig): { notes: string; collections: string } {
  const tierDefault = `the default for a remote target in the ${config.tier} tier`;
  return {
    notes: config.maxNotes !== undefined ? '--max-notes' : `${tierDefault}; --max-notes sets it`,
    collections: tierDefault,
  };
}

/** What the run says before its first request: its tier and the most it will create. */
export function planLine(config: KitConfig): string {
  const caps = createCapsFor(config);
  const tier = config.tier === 'smoke' ? 'smoke tier (one cheap check per area)' : 'full tier';
  if (!caps) {
    const why =
      config.target === undefined && config.image === undefined
        ? 'the embedded fake has no quota'
        : 'the profile sets its own budgets';
    return `notes-conformance: ${tier}; ${why}, so creates are not capped (--max-notes N caps them)\n`;
  }
  const collections =
    caps.collections === Number.MAX_SAFE_INTEGER ? 'collections uncapped' : `at most ${caps.collections} collections`;
  return (
    `notes-conformance: ${tier}; will create at most ${caps.notes} notes and ${collections}, fixture users' included` +
    ` (--max-notes N lowers it; checks that need more are skipped), and delete them again\n`
  );
}

/** The run's context with its tier and caps (the rest is settled by startRun). */
export function withTierAndCaps(context: KitContext, config: KitConfig): KitContext {
  const caps = createCapsFor(config);
  return { ...context, tier: config.tier, ...(caps ? { createCaps: caps, capSources: capSources(config) } : {}) };
}

/** What the run created in all (from the journal: every create the target confirmed, any owner). */
export function createdInRun(runDir: string): { notes: number; collections: number } {
  const created = journalCreates(runDir);
  return { notes: created.note, collections: created.collection };
}

/**
 * Where a check file runs: the quota checks' file after the others, so that a natural quota refusal
 * (an account's quota running out during the run) can be judged by them whichever file hit it. With
 * two workers (the embedded fake only, which no account's quota limits) it may run beside the other
 * worker's last file.
 */
export function runsLate(file: string): number {
  // The explorer fills what the other checks left (behaviour coverage); the quota check spends the quota.
  return file.endsWith('errors/quota.check.ts') ? 2 : /model\/explore(-beside)?\.check\.ts$/.test(file) ? 1 : 0;
}

/**
 * The run's order, the same on every machine and after every run: those that must run late
 * (runsLate) after the others, and within each, the longest first by the measured durations
 * (kit/check-durations.ts), then by path. Vitest's own order puts the files that failed last
 * time first, and is by this machine's last durations or else by size.
 */
export class QuotaLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const keyed = files.map((spec) => ({ spec, late: runsLate(spec.moduleId), ms: durationOf(spec.moduleId) }));
    keyed.sort((a, b) => a.late - b.late || b.ms - a.ms || a.spec.moduleId.localeCompare(b.spec.moduleId));
    return keyed.map((k) => k.spec);
  }
}
