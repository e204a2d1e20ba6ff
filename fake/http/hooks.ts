import type { OperationId } from '../../spec/operations.js';
import type { FakeSettings } from '../service/context.js';
import { type DeepPartial, type Policy, REFERENCE_POLICY, withOverrides } from '../service/policy.js';
import type { Seam } from '../service/seams.js';
import type { Store } from '../store/store.js';
import type { Exchange, HttpStages, Reply, Respond } from './pipeline.js';
import type { Operation, Route } from './routes.js';

export type { Operation } from './routes.js';
export type OperationWrapper = (next: Operation) => Operation;
export type ResponseWrapper = (next: Respond) => Respond;
export type HttpWrappers = { readonly [K in keyof HttpStages]?: (next: HttpStages[K]) => HttpStages[K] };

type StoreMethod = {
  [K in keyof Store]: Store[K] extends (...args: never[]) => unknown ? K : never;
}[keyof Store];
export type StoreWrappers = { [K in StoreMethod]?: (next: Store[K], store: Store) => Store[K] };

/**
 * How code outside the reference changes one instance without a branch inside it: the faults
 * (fake/faults/) and the valid variants (fake/variants/). Each layer has its kind of hook, and every
 * hook wraps the reference's own function (`next`), so the reference stays plain:
 * - policy: a limit or default moved; settings: another not-shown choice;
 * - store: a store call wrapped; ops: an operation wrapped (input rewritten, a refusal skipped,
 *   state changed after the reference ran);
 * - routes: the route table changed (a parameter under another name, a field read elsewhere);
 * - http: a stage of the request pipeline wrapped (authentication, path parameters, body parsing,
 *   refusal statuses and bodies); responses: an answer changed before it is serialised, by
 *   operation id ('*': every operation);
 * - seams: a switch inside an algorithm (fake/service/seams.ts), for what no wrapper can reach.
 * State a hook needs lives in the closure of its factory, per instance.
 */
export interface Hooks {
  readonly policy?: DeepPartial<Policy>;
  readonly settings?: (settings: FakeSettings) => FakeSettings;
  readonly store?: StoreWrappers;
  /** Keyed by the operation id of openapi.yaml (the route table's `op`). */
  readonly ops?: Readonly<Partial<Record<OperationId, OperationWrapper>>>;
  readonly routes?: (table: readonly Route[]) => Route[];
  readonly http?: HttpWrappers;
  readonly responses?: Readonly<Partial<Record<OperationId | '*', ResponseWrapper>>>;
  readonly seams?: readonly Seam[];
}

/** Hooks are made once per instance. */
export type HookFactory = () => Hooks;

/** The hooks of one instance composed: the first factory wraps the reference, the last wraps them all. */
export interface InstalledHooks {
  readonly policy: Policy;
  settings(base: FakeSettings): FakeSettings;
  broken(seam: Seam): boolean;
  wrapStore(store: Store): void;
  wrapOperation(op: OperationId, run: Operation): Operation;
  routes(table: Route[]): Route[];
  stages(base: HttpStages): HttpStages;
  /** The response stage of one operation: identity when no hook changes it. */
  respond(op: string): Respond;
}

const ANSWER_AS_IS: Respond = (reply: Reply, _exchange: Exchange) => reply;

export function installHooks(factories: readonly HookFactory[]): InstalledHooks {
  const hooks = factories.map((create) => create());
  const seams = new Set(hooks.flatMap((h) => h.seams ?? []));
  const responders = new Map<string, Respond>();
  return {
    policy: withOverrides(
      REFERENCE_POLICY,
      hooks.flatMap((h) => (h.policy ? [h.policy] : [])),
    ),
    settings: (base) => hooks.reduce((s, h) => h.settings?.(s) ?? s, base),
    broken: (seam) => seams.has(seam),
    wrapOperation: (op, run) => hooks.reduce((next, h) => h.ops?.[op]?.(next) ?? next, run),
    routes: (table) => hooks.reduce((t, h) => h.routes?.(t) ?? t, table),
    stages(base) {
      const out = { ...base };
      for (const h of hooks) {
        for (const [name, wrap] of Object.entries(h.http ?? {}) as Array<[keyof HttpStages, (n: unknown) => never]>)
          out[name] = wrap(out[name]);
      }
      return out;
    },
    respond(op) {
      let respond = responders.get(op);
      if (!respond) {
        respond = hooks.reduce((next, h) => {
          const forAll = h.responses?.['*'];
          const forOp = h.responses?.[op as OperationId];
          const inner = forOp ? forOp(next) : next;
          return forAll ? forAll(inner) : inner;
        }, ANSWER_AS_IS);
        responders.set(op, respond);
      }
      return respond;
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

/** An instance without hooks: the reference as it is. */
export const NO_HOOKS: InstalledHooks = installHooks([]);
