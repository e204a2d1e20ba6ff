import { type CheckContext, type CheckSpec, check } from './check.js';
import { type Kit, useKit } from './kit.js';

export type { Exchange } from '../../kit/core/client.js';
export {
  DEFAULT_SEARCH_INDEX_LAG_MS,
  sameAtPrecision,
  searchIndexLagMs,
  timestampPrecisionMs,
} from '../../kit/core/timing.js';
export type { CheckContext } from './check.js';
export { KitError, NonConformance, pinTo, RuleViolation } from './errors.js';
export * from './expect.js';

/** The entry of every check file: the kit of the file and its `check` function. */
export function checks(): {
  kit: Kit;
  check: (description: string, spec: CheckSpec, fn: (t: CheckContext) => Promise<void>) => void;
} {
  const kit = useKit();
  return { kit, check: (description, spec, fn) => check(kit, description, spec, fn) };
}
