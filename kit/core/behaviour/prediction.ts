import type { RefusalKind } from '../../../spec/profile.js';
import type { Exchange } from '../client.js';
import type { Problem } from './inputs.js';
import { isTokenUser, type Request, type Tolerances } from './request.js';
import type { Refusal, World } from './state.js';

/**
 * What the document predicts of one request in the state the run knows, each part under its rule
 * (predict.ts makes it; the oracle compares the answer with it, kit/core/oracle/compare.ts). Where
 * the document leaves a choice open, or the state does not know enough, the prediction is silent.
 */
export interface Prediction {
  /** Documented reasons to refuse it: an acceptance breaks each one's rule. */
  readonly refuse: readonly Refuse[];
  /** Rules that say it must be accepted: a refusal breaks each. */
  readonly accept: readonly Accept[];
  /** Where a refusal can only be of one kind: the status the profile declares for that kind, and its body. */
  readonly kind?: { readonly kind: RefusalKind; readonly rule: string; readonly why: string };
  /** What an accepted answer's JSON body must show. */
  readonly answer: readonly Expect[];
  /** What a refusal's body must not show (a stranger's refusal reveals nothing of the resource). */
  readonly refusalHides?: { readonly rule: string; readonly texts: readonly string[] };
  /** Fields of the answer are judged only when it is about this resource (a read answering another id is not). */
  readonly about?: string;
  /** The state after an acceptance: the answer's body, and when it came (effects.ts). */
  readonly accepted?: (answer: Record<string, unknown>, done: Done) => void;
  /** The state after a refusal (4xx): what the refused request must not have changed (state.ts Refusal). */
  readonly refused?: (done: Done, all: Prediction) => void;
  /** A quota_exceeded refusal answers this request (a quota under test), rather than saying nothing of it. */
  readonly quotaAnswers?: boolean;
}

/** An answered request, for the state it changes: the answer kept as evidence, and when it came. */
export interface Done {
  readonly ev: Exchange;
  readonly endSeq: number;
  readonly endedAt: number;
}

export interface Refuse {
  readonly rule: string;
  /** The reason in words ("version 1, though the note's version is 2"). */
  readonly what: string;
  /** The answer that established what makes it a reason (the note's delete, its last update). */
  readonly context?: Exchange;
  /**
   * A problem of the input: it is refused with a 4xx (a 5xx breaks the rule too, and
   * errors.bad-input.no-5xx). Otherwise any answer but a success keeps the rule.
   */
  readonly input?: boolean;
  /** The status the document gives this refusal (create-only ids: 409); any other answer breaks the rule. */
  readonly status?: number;
}

export interface Accept {
  readonly rule: string;
  readonly what: string;
  readonly context?: Exchange;
  /** A 5xx breaks it too (a value at a limit); otherwise only a refusal (4xx) does. */
  readonly serverErrorFails?: boolean;
}

/** One field of an answer (or of a page's item) and what it must be. */
export interface Expect {
  readonly rule: string;
  readonly field: string;
  readonly is: Is;
  /** The answer that established the value (a fact's), shown beside the one judged. */
  readonly context?: Exchange;
  /** Requests the target refused since: a value they asked for, seen now, is blamed on their rule. */
  readonly refusals?: readonly Refusal[];
  /** Where the value comes from, for the message ("sent", "left by PATCH /v2/notes/x"). */
  readonly from: string;
}

export type Is =
  /** Exactly this JSON value (a string, a number, null). */
  | { readonly equal: unknown }
  /** An instant equal to this one at the target's precision. */
  | { readonly instant: number }
  /** The server time of the exchange (its Date header, or the kit's clock), within the clock tolerance. */
  | { readonly serverTime: true }
  /** The server time of another exchange, by its Date header (none: not judged). */
  | { readonly serverTimeOf: Exchange }
  /** A UUID (generated: a new one). */
  | { readonly newUuid: true }
  /** An integer of at least this. */
  | { readonly integerAtLeast: number }
  /** An integer other than this. */
  | { readonly integerOtherThan: number }
  /** Null, or (set) any non-null value. */
  | { readonly trashedAt: 'null' | 'set' }
  /** The exact set of collection ids, each once; `unlinked`: ids taken out since, with their rules. */
  | {
      readonly links: ReadonlyMap<string, { rule: string; by: Exchange }>;
      readonly unlinked: ReadonlyMap<string, { rule: string; by: Exchange }>;
    }
  /** Lacks this id (collection_ids of a note that must not be in that collection). */
  | { readonly lacks: string }
  /** Holds this id. */
  | { readonly holds: string }
  /** The first line of that field of the same answer, where it is a few plain words (any derivation keeps those). */
  | { readonly firstLineOf: 'content' }
  /** The same instant as another field of the same answer. */
  | { readonly sameInstantAs: string }
  /** (Of the whole body, field '') no list, and none of these ids anywhere in it. */
  | { readonly namesNone: readonly string[] };

/** A reason to refuse, in order: permission and state first, then the input, then the version. */
export function blame(refuse: readonly Refuse[], otherwise: string, permission?: string): string {
  return permission ?? refuse[0]?.rule ?? otherwise;
}

/**
 * Who a refusal of another user's resource is blamed on: a token user meets the isolation rule
 * (`isolated`), a fixture user the permission rule of the operation (its grants decide, so only the
 * blame of a refusal is predicted for them). None for the owner.
 */
export function permissionRule({ r }: Ask, owner: string, isolated: string, permission: string): string | undefined {
  if (r.actor === owner) return undefined;
  return r.actor.startsWith('user:') || owner.startsWith('user:') ? permission : isolated;
}

/**
 * Another token user's resource, never shared (grants go only to fixture users): any success is a
 * breach of scope under `rule`, and a refusal shows none of its `texts` (`hides`' rule).
 */
export function neverShared(
  { r }: Ask,
  owner: string,
  what: string,
  rule: string,
  hides: { rule: string; texts: ReadonlyArray<unknown> },
): Part {
  if (owner === r.actor || !isTokenUser(owner) || !isTokenUser(r.actor) || !r.ownToken) return {};
  return {
    refuse: [{ rule, what: `${what} of the ${owner} user, as the ${r.actor} user (it was never shared)` }],
    refusalHides: {
      rule: hides.rule,
      texts: hides.texts.filter((s): s is string => typeof s === 'string' && s.length >= 12),
    },
  };
}

/** What an operation's own part adds to a prediction (predict-notes.ts, predict-collections.ts). */
export interface Part {
  refuse?: Refuse[];
  accept?: Accept[];
  answer?: Expect[];
  kind?: Prediction['kind'];
  refusalHides?: Prediction['refusalHides'];
  about?: string;
  accepted?: Prediction['accepted'];
  refused?: Prediction['refused'];
  quotaAnswers?: boolean;
}

/** What every part reads: the state, the request, its input's problems and the target's tolerances. */
export interface Ask {
  readonly world: World;
  readonly r: Request;
  readonly problems: readonly Problem[];
  readonly tol: Tolerances;
  readonly body: Record<string, unknown>;
}
