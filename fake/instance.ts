import type { FakeConfig } from './config.js';
import { faultHooks } from './faults/registry.js';
import { FakeCore } from './http/core.js';

/**
 * The core of one instance with the faults its config names: the one place where the reference
 * meets fake/faults/ (the reference itself imports nothing from there; `npm run lint` holds it).
 */
export function createCore(config: FakeConfig): FakeCore {
  return new FakeCore(config, faultHooks(config.faults));
}
