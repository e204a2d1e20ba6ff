import type { Clock } from '../clock.js';
import type { IdSource } from '../ids.js';
import type { RateLimitConfig } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { Policy } from './policy.js';
import type { Seam } from './seams.js';

/** How a note's title comes from its first line (profile: title.derivation). */
export type TitleDerivation = 'as_is' | 'strip_heading_markers';

/** The not-shown choices and presentation of one fake instance that the service needs. */
export interface FakeSettings {
  readonly titleDerivation: TitleDerivation;
  /** List order direction for order_by (newest first by default). */
  readonly newestFirst: boolean;
  /** Renders an instant for responses (utc millis, or another offset and precision). */
  readonly formatTime: (ms: number) => string;
  readonly snapshotTtlMs: number;
  /** Quota given to users created without one; undefined: unlimited. */
  readonly defaultQuota: { limit: number; plan: string } | undefined;
  readonly defaultRateLimit: RateLimitConfig;
}

/** Everything an operation may use; no HTTP types. */
export interface ServiceContext {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly settings: FakeSettings;
  /** Limits, defaults and levels (faults override them; see policy.ts). */
  readonly policy: Policy;
  /**
   * Whether a seam inside an algorithm is switched on (seams.ts). Faults otherwise wrap the
   * reference from outside (fake/http/hooks.ts); only these few live inside it.
   */
  broken(seam: Seam): boolean;
}
