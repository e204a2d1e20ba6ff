import type { RuleId } from '../../spec/rule-ids.js';
import type { HookFactory } from '../http/hooks.js';

export type {
  HookFactory as FaultFactory,
  Hooks as FaultHooks,
  HttpWrappers,
  Operation,
  OperationWrapper,
  ResponseWrapper,
  StoreWrappers,
} from '../http/hooks.js';
export type { Exchange, Reply, Respond } from '../http/pipeline.js';

/**
 * A fault breaks the reference from outside, through the hooks every layer of the fake offers
 * (fake/http/hooks.ts: policy, settings, store, operations, routes, http stages, responses, and
 * the few seams inside algorithms). The mechanism lives with the reference, which wraps itself
 * with whatever it is given; the faults and the valid variants are its two users.
 */

/** What a fault breaks, in the catalogue's words. */
export interface FaultSpec {
  /** The rules this fault breaks; the first is the one it was written for. */
  readonly rules: readonly [RuleId, ...RuleId[]];
  readonly does: string;
  /**
   * 'oracle': no check sets up the situation; the run-wide oracle sees it in the traffic of the
   * whole run, so the fault matrix proves it with a whole run, not the files of its rules.
   */
  readonly judgedBy?: 'oracle';
}

/** A fault with its behaviour beside its description: one entry in its area's file. */
export interface Fault extends FaultSpec {
  readonly hooks: HookFactory;
}
