import type { Exchange } from './client.js';
import type { Owner } from './ledger.js';

/** One request as the API layer sent it: the operation, who sent it and what it meant. */
export interface Sent {
  /** The operationId of spec/openapi.yaml; undefined for a raw request (bad input, other credentials). */
  readonly op: string | undefined;
  readonly actor: Owner;
  /** Whether the request carried the actor's own token (raw requests may send other credentials). */
  readonly ownToken: boolean;
  /** The request carried no Authorization header at all (a raw request sent without credentials). */
  readonly noCredentials?: boolean;
  /** The request carried a bearer token the kit made up, which no target issued (a raw request). */
  readonly unknownToken?: boolean;
  /** The request's body was sent as given and does not parse as JSON (a raw request of malformed JSON). */
  readonly malformedBody?: boolean;
  readonly method: string;
  /** The path as sent, without the query. */
  readonly path: string;
  /** Path parameters by their openapi.yaml names (note_id, collection_id, source_collection_id). */
  readonly params: Readonly<Record<string, string>>;
  /** The query and body before the profile's wire names were applied (the kit's own vocabulary). */
  readonly input?: Readonly<Record<string, unknown>>;
  /** The JSON body sent, as sent. */
  readonly body?: unknown;
}

/**
 * What the API layer calls around every request it sends. The run's oracle (kit/core/oracle/)
 * implements it; the runtime knows only this interface, and `P` is the observer's own record of
 * a request in flight, handed back to it when the answer comes.
 */
export interface ExchangeObserver<P = unknown> {
  sending(sent: Sent): P;
  answered(pending: P, x: Exchange): void;
  /** The request got no answer (timeout, connection lost): what it may have changed is unknown. */
  unanswered(pending: P): void;
  /** A fixture API call changed a resource in a way the document does not describe. */
  touchedByFixture(kind: 'note' | 'collection' | 'user', id: string): void;
  /** The fixture API granted a fixture user a permission level on a note or collection. */
  granted(resource: 'note' | 'collection', id: string, userId: string, level: string): void;
  /** The fixture API made a user whose account may hold at most `limit` notes. */
  quotaSet(userId: string, limit: number): void;
  /** The fixture API added an attachment to a note. */
  attachmentAdded(noteId: string, attachmentId: string): void;
}
