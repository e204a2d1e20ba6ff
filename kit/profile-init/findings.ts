import type { EndpointDecl, RefusalKind } from '../../spec/profile.js';
import type { Exchange } from '../core/client.js';

/**
 * What the probe learned about one profile value: the value and how it was observed (written as
 * the value's comment), or why it could not be observed (written as a commented placeholder).
 */
export type Finding<T> = { readonly value: T; readonly how: string } | { readonly why: string };

export const observed = <T>(value: T, how: string): Finding<T> => ({ value, how });
export const notObserved = <T>(why: string): Finding<T> => ({ why });
export const isObserved = <T>(f: Finding<T> | undefined): f is { value: T; how: string } =>
  f !== undefined && 'value' in f;

/** A refusal the probe provoked on purpose: the kind it should be, and what was sent. */
export interface RefusalSample {
  readonly kind: RefusalKind;
  /** What was sent, in words: "POST /v2/notes without content". */
  readonly what: string;
  readonly x: Exchange;
}

export type KindName = Exclude<RefusalKind, 'quota_exceeded'>;

export interface ErrorBodyFindings {
  readonly kindPointer: Finding<string>;
  readonly messagePointer: Finding<string>;
  readonly kinds: Partial<Record<KindName, Finding<string>>>;
}

export interface RateLimitFindings {
  readonly operations: Finding<string[]>;
  readonly names: Finding<string[]>;
  readonly retryAfter: Finding<boolean>;
  /** Headers of the families seen on some carrying operations only, and related headers outside them. */
  readonly notes: string[];
}

/** The slots of one `names` section; an object's own fields (response_shape_fields) nest one level. */
export type NameSlots = Record<string, Finding<string> | Record<string, Finding<string>>>;

/** Names under `names` of the profile, by section and slot, in the schema's order. */
export type NameFindings = Record<
  'notes_list' | 'notes_search' | 'collections_list' | 'collections_search' | 'capture',
  NameSlots
>;

export type EndpointFindings = Record<
  'restore_note' | 'remove_note_from_collection' | 'attachment_question' | 'trash_collection' | 'capture',
  Finding<EndpointDecl>
>;

export type MarkerFindings = Record<'open_task' | 'done_task' | 'image' | 'file', Finding<string>>;

/** Everything `profile init` writes, each value observed or explained. */
export interface Findings {
  readonly target: string;
  /** Requests sent, cleanup included. */
  readonly requests: number;
  /** Ids of notes the probe created and could not delete. */
  readonly leftBehind: readonly string[];
  readonly statuses: Record<RefusalKind, Finding<number>>;
  readonly errorBody: ErrorBodyFindings;
  readonly title: Finding<'as_is' | 'strip_heading_markers'>;
  readonly listOrder: Finding<'newest_first' | 'oldest_first'>;
  readonly timestampPrecisionMs: Finding<number>;
  readonly rateLimit: RateLimitFindings;
  readonly secondaryToken: Finding<boolean>;
  readonly names: NameFindings;
  readonly endpoints: EndpointFindings;
  readonly contentMarkers: MarkerFindings;
  readonly unknownFields: Finding<'refuse' | 'ignore'>;
}
