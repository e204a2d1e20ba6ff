import type { FakeConfig } from '../config.js';
import type { HookFactory } from '../http/hooks.js';
import { laggingSearchIndex } from './index-lag.js';
import { versionOnMembership } from './membership-version.js';
import { truncatedInstants } from './precision.js';
import { strictLifecycle } from './strict-lifecycle.js';

/**
 * Other valid choices where the API document leaves room, switched on by the profile's `fake`
 * section (spec/profiles/fake-divergent.yaml): the same hook mechanism as the faults, so that
 * fake/service stays the plain reference. The core installs them first, inside any fault (closer to
 * the reference), so a fault breaks whichever choice is served.
 */
export function variantFactories(config: FakeConfig): HookFactory[] {
  const { variants } = config;
  const out: HookFactory[] = [];
  if (variants.timestampPrecisionMs > 1) out.push(truncatedInstants(variants.timestampPrecisionMs));
  if (variants.searchIndexLagMs > 0) out.push(laggingSearchIndex(variants.searchIndexLagMs, config.clock));
  // Inside the version bump: a membership change it reverts changes no version either.
  if (variants.strictLifecycle) out.push(strictLifecycle());
  if (variants.versionOnMembership) out.push(versionOnMembership());
  return out;
}
