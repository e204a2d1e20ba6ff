import type { World } from '../model/world.js';
import type { Judgements } from './judge.js';

/** What every part of the oracle works with: the shadow, the record of judgements and the target's declared choices. */
export interface Env {
  readonly world: World;
  readonly j: Judgements;
  /** The step to which the target keeps instants (timestamp_precision_ms). */
  readonly precisionMs: number;
  /** How long search and related notes may lag a write (search_index_lag_ms). */
  readonly lagMs: number;
}
