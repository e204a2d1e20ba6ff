import type { Clock } from '../clock.js';
import type { FaultName } from '../faults/catalogue.js';
import type { IdSource } from '../ids.js';
import type { RateLimitConfig } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { TitleDerivation } from './content.js';

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
  /** Whether the instance was started with this fault (a deliberate single-rule violation). */
  broken(fault: FaultName): boolean;
  /** State that only faults use (a bin of deleted notes, notes still locked after restore). */
  readonly faultMemory: Map<string, unknown>;
}

/** A per-instance map of fault state, created on first use. */
export function faultMemory<T>(ctx: ServiceContext, key: string, create: () => T): T {
  let value = ctx.faultMemory.get(key) as T | undefined;
  if (value === undefined) ctx.faultMemory.set(key, (value = create()));
  return value;
}
