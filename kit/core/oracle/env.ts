import type { ErrorBodyShape } from '../../../spec/error-body.js';
import type { RefusalKind } from '../../../spec/profile.js';
import type { ContentMarkers } from '../behaviour/content-kinds.js';
import type { World } from '../behaviour/state.js';
import type { Exchange } from '../client.js';
import type { Judgements } from './judge.js';

/** What every part of the oracle works with: the shadow, the record of judgements and the target's declared choices. */
export interface Env {
  readonly world: World;
  readonly j: Judgements;
  /** The step to which the target keeps instants (timestamp_precision_ms). */
  readonly precisionMs: number;
  /** How long search and related notes may lag a write (search_index_lag_ms). */
  readonly lagMs: number;
  /** How far the target's clock may be from the kit's (clock_tolerance_ms): "server time" and "future" allow this much. */
  readonly clockToleranceMs: number;
  /** The refusal statuses the profile declares (statuses.*); a kind it leaves out is judged only as a 4xx. */
  readonly statuses: Readonly<Partial<Record<RefusalKind, number>>>;
  /** The refusal body the profile declares (error_body), if any: only then is a refusal's body judged. */
  readonly errorBody?: ErrorBodyShape;
  /** Every request_id a success of the run carried, with the request that got it (method and path) and its answer. */
  readonly requestIds: Map<string, { readonly what: string; readonly x: Exchange }>;
  /**
   * Notes an unfiltered search of the run found for a word (`actor word noteId`), with the sequence
   * number it was sent at: whether a word matches a note is the target's (advisory); that a filter
   * it satisfies keeps a note the same search found is documented.
   */
  readonly searchFound: Map<string, number>;
  /** The direction of list pages the profile declares (list_order), if any. */
  readonly listOrder?: 'newest_first' | 'oldest_first';
  /** The markup the profile says the target counts as each contains kind (content_markers), if any. */
  readonly contentMarkers?: ContentMarkers;
}
