import type { Need } from '../../spec/needs.js';

export type { Need } from '../../spec/needs.js';

import { profileField } from '../../spec/profile.js';
import { loadRules } from '../../spec/rules.js';
import { budgetSource, type KitContext } from './context.js';

/** What a check may need beyond what every target offers; unmet needs skip it with the reason. */
const knownRules = new Map(loadRules().map((r) => [r.id, r]));

/** The checks' needs from the catalogue: a rule's `needs` fields must be present in the profile. */
export function ruleNeeds(rules: readonly string[], doesWithout: readonly string[] = []): Need[] {
  return rules.flatMap((id) =>
    knownRules
      .get(id)!
      .needs.filter((field) => !doesWithout.includes(field))
      .map((field): Need => {
        if (field === 'capabilities.secondary_token') return 'secondary';
        if (field === 'capabilities.fixtures') return 'fixtures';
        return `profile:${field}`;
      }),
  );
}

/** The seed budget bounds what one check creates, collections too; the words name where it came from. */
const seedBudget = (ctx: KitContext) =>
  `the seed budget (the most one check may create) allows ${ctx.budgets.max_seed_notes} (${budgetSource(ctx, 'max_seed_notes')})`;

const capLeft = (ctx: KitContext, kind: 'notes' | 'collections', left: number) =>
  `the run's cap on ${kind} allows ${left} more (of ${ctx.createCaps?.[kind]}: ${ctx.capSources?.[kind] ?? `the cap on ${kind}`})`;

const FIXTURES_NEEDED = "needs the fixture API (a profile's capabilities.fixtures, and its admin token)";

const ASSUMED_ONLY = /^(names|endpoints|content_markers)(\.|$)/;

/**
 * Why a need is not met, from the run's context alone (so the main process can tell before the run
 * which checks will skip); `notesLeft`: what the run's cap still allows.
 */
export function unmetNeedIn(
  ctx: KitContext,
  need: Need,
  notesLeft: number,
  collectionsLeft = Number.MAX_SAFE_INTEGER,
): string | undefined {
  if (typeof need === 'object' && 'collections' in need) {
    // The seed budget bounds what one check creates, collections too; the reason names what it needs.
    if (need.collections > ctx.budgets.max_seed_notes)
      return `needs ${need.collections} collections; ${seedBudget(ctx)}`;
    if (need.collections > collectionsLeft)
      return `needs ${need.collections} collections; ${capLeft(ctx, 'collections', collectionsLeft)}`;
    return undefined;
  }
  if (typeof need === 'object') {
    if (need.notes > ctx.budgets.max_seed_notes) return `needs ${need.notes} notes; ${seedBudget(ctx)}`;
    // The run's cap on creates (--max-notes): what is left of it now, as earlier checks used some.
    if (need.notes > notesLeft) return `needs ${need.notes} notes; ${capLeft(ctx, 'notes', notesLeft)}`;
    return undefined;
  }
  if (need === 'secondary')
    return ctx.tokens.secondary ? undefined : "needs a second user's token (--secondary-token or a fixture API)";
  if (need === 'fixtures') return ctx.fixtures ? undefined : FIXTURES_NEEDED;
  if (need.startsWith('fixtures:')) {
    if (!ctx.fixtures) return FIXTURES_NEEDED;
    const offer = need.slice('fixtures:'.length);
    return ctx.fixtures?.offers.includes(offer) ? undefined : `the profile's fixture API does not offer ${offer}`;
  }
  const field = need.slice('profile:'.length);
  // With no profile the kit assumes the fake's choices, which only profile rules may be judged
  // by: a documented rule judged through a guessed parameter name or content marker could fail
  // a server that merely chose differently, so such a check waits for a declaration.
  if (!ctx.profileDeclared && ASSUMED_ONLY.test(field))
    return `no profile was given: declare ${field} to check this (the document does not show it)`;
  if (field === 'capabilities.secondary_token') return unmetNeedIn(ctx, 'secondary', notesLeft);
  if (field === 'capabilities.fixtures') return unmetNeedIn(ctx, 'fixtures', notesLeft);
  if (profileField(ctx.profile, field) !== undefined) return undefined;
  return ctx.profileDeclared
    ? `the profile declares no ${field}`
    : `no profile was given: declare ${field} to check this`;
}
