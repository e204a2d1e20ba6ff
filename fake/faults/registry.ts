import { FAULT_HOOKS, type FaultName } from './catalogue.js';
import { type InstalledFaults, installFaults } from './hooks.js';

/** The hooks of the faults an instance was started with (name order, so composition is stable). */
export function installed(active: ReadonlySet<FaultName>): InstalledFaults {
  const factories = [...active].sort().flatMap((name) => {
    const fault = FAULT_HOOKS.get(name);
    return fault ? [fault.hooks] : [];
  });
  return installFaults(factories);
}
