import type { ServiceContext } from '../service/context.js';
import type { DomainErrorKind } from '../service/errors.js';
import type { UserRecord } from '../store/records.js';
import type { FakeRequest } from './types.js';

/**
 * Refusals of the transport, not of the API: routing, body size, slow clients, a state file that
 * cannot be saved, a server too busy. Their statuses are HTTP's own (the profile has no statuses
 * key for them, see profile.schema.json).
 */
export type HttpRefusalKind =
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'request_timeout'
  | 'state_not_saved'
  | 'state_full'
  | 'server_busy';

/**
 * An answer before it is serialised. The core builds one per request (a success from the view, a
 * refusal from the error) and passes it through the response stage, which hooks may wrap.
 */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** The JSON body; not sent when `text` is set. */
  body: unknown;
  /** A body that is not JSON, sent as it is. */
  text?: string;
  /** The refusal this reply answers; absent on a success. */
  readonly refusal?: DomainErrorKind | HttpRefusalKind;
}

/** What a response stage knows besides the reply: the operation and the instance's state. */
export interface Exchange {
  /** The operation id of the route (openapi.yaml's operationId), or 'unknown' for a miss. */
  readonly op: string;
  readonly ctx: ServiceContext;
}

export type Respond = (reply: Reply, exchange: Exchange) => Reply;

/**
 * The steps of answering a request that are the http layer's own, in the order they run:
 * authenticate, check the path parameters, parse the body, then (after the operation) map a
 * refusal to its status and body. Each is a plain function a hook may wrap (fake/http/hooks.ts).
 */
export interface HttpStages {
  /** The user the Authorization header names; throws `unauthenticated`. `op`: the route's operation id. */
  authenticate(authorization: string | undefined, method: string, op: string): UserRecord;
  /** The path parameters checked (ids are UUIDs) and made canonical; throws `validation`. */
  pathParams(op: string, params: Record<string, string>): Record<string, string>;
  /** The body as JSON; throws `validation` for anything else. */
  parseBody(body: FakeRequest['body'], contentType: string | undefined): unknown;
  /** The status of a refusal (the profile's, else the fake's default). */
  refusalStatus(kind: DomainErrorKind): number;
  /** A refusal's body in the profile's error shape; an undefined code leaves the kind out. */
  errorBody(code: string | undefined, message: string): Record<string, unknown>;
}
