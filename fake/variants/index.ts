import type { FakeConfig } from '../config.js';
import { type FaultFactory, type InstalledFaults, installFaults } from '../faults/hooks.js';
import { laggingSearchIndex } from './index-lag.js';
import { versionOnMembership } from './membership-version.js';
import { truncatedInstants } from './precision.js';

/**
 * Other valid choices where the API document leaves room, switched on by the profile's `fake`
 * section (spec/profiles/fake-divergent.yaml): the same hook mechanism as the faults, so that
 * fake/service stays the plain reference. Installed inside the faults (closer to the reference).
 */
export function variantFactories(config: FakeConfig): FaultFactory[] {
  const { variants } = config;
  const out: FaultFactory[] = [];
  if (variants.timestampPrecisionMs > 1) out.push(truncatedInstants(variants.timestampPrecisionMs));
  if (variants.searchIndexLagMs > 0) out.push(laggingSearchIndex(variants.searchIndexLagMs, config.clock));
  if (variants.versionOnMembership) out.push(versionOnMembership());
  return out;
}

/** The variants' hooks; their policy is the reference policy (variants change behaviour, not limits). */
export function installVariants(config: FakeConfig): InstalledFaults {
  return installFaults(variantFactories(config));
}
