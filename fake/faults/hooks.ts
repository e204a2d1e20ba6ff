import type { Call } from '../http/routes.js';
import type { FakeSettings, ServiceContext } from '../service/context.js';
import { type DeepPartial, type Policy, REFERENCE_POLICY, withOverrides } from '../service/policy.js';
import type { View } from '../service/views.js';
import type { Store } from '../store/store.js';

/** One operation as the route table runs it: canonical input in, view out (or a thrown DomainError). */
export type Operation = (ctx: ServiceContext, call: Call) => View;
export type OperationWrapper = (next: Operation) => Operation;

type StoreMethod = {
  [K in keyof Store]: Store[K] extends (...args: never[]) => unknown ? K : never;
}[keyof Store];
export type StoreWrappers = { [K in StoreMethod]?: (next: Store[K], store: Store) => Store[K] };

/**
 * How a fault breaks the reference, from outside it: a policy override (a limit or default moved),
 * wrappers around operations (input rewritten, output changed, a refusal added or skipped), or
 * wrappers around store calls. State a fault needs lives in the closure of its factory, per instance.
 */
export interface FaultHooks {
  readonly policy?: DeepPartial<Policy>;
  /** Another not-shown choice than the profile's (a flipped title derivation, say). */
  readonly settings?: (settings: FakeSettings) => FakeSettings;
  /** Keyed by the operation id of openapi.yaml (the route table's `op`). */
  readonly ops?: Readonly<Record<string, OperationWrapper>>;
  readonly store?: StoreWrappers;
}

/** A fault's behaviour; called once per fake instance started with it. */
export type FaultFactory = () => FaultHooks;

/** What a fault breaks, in the catalogue's words. */
export interface FaultSpec {
  /** The rules this fault breaks; the first is the one it was written for. */
  readonly rules: readonly [string, ...string[]];
  readonly does: string;
  /**
   * 'oracle': no check sets up the situation; the run-wide oracle sees it in the traffic of the
   * whole run, so the fault matrix proves it with a whole run, not the files of its rules.
   */
  readonly judgedBy?: 'oracle';
}

/** A fault with its behaviour beside its description: one entry in its area's file. */
export interface Fault extends FaultSpec {
  readonly hooks: FaultFactory;
}

/** The hooks of every active fault, composed in catalogue order. */
export interface InstalledFaults {
  readonly policy: Policy;
  settings(base: FakeSettings): FakeSettings;
  wrapOperation(op: string, run: Operation): Operation;
  wrapStore(store: Store): void;
}

export function installFaults(factories: readonly FaultFactory[]): InstalledFaults {
  const hooks = factories.map((create) => create());
  return {
    policy: withOverrides(
      REFERENCE_POLICY,
      hooks.flatMap((h) => (h.policy ? [h.policy] : [])),
    ),
    settings(base) {
      return hooks.reduce((s, h) => h.settings?.(s) ?? s, base);
    },
    wrapOperation(op, run) {
      return hooks.reduce((next, h) => h.ops?.[op]?.(next) ?? next, run);
    },
    wrapStore(store) {
      for (const h of hooks) {
        for (const [name, wrap] of Object.entries(h.store ?? {}) as Array<
          [StoreMethod, (n: unknown, s: Store) => unknown]
        >) {
          const next = (store[name] as (...args: unknown[]) => unknown).bind(store);
          Object.defineProperty(store, name, { value: wrap(next, store), configurable: true, writable: true });
        }
      }
    },
  };
}
