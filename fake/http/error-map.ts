import type { Profile, RefusalKind } from '../../spec/profile.js';
import type { FaultName } from '../faults/catalogue.js';
import type { DomainError, DomainErrorKind } from '../service/errors.js';

/** The fake's own defaults where a profile leaves a refusal's status or code unset (spec/profiles/fake.yaml). */
const DEFAULT_STATUS: Record<DomainErrorKind, number> = {
  validation: 400,
  not_found: 404,
  forbidden: 403,
  unauthenticated: 401,
  version_mismatch: 409,
  trashed: 409,
  quota_exceeded: 402,
  unknown_snapshot: 404,
  cursor_mismatch: 400,
  rate_limited: 429,
  conflict: 409,
};
const DEFAULT_CODE: Record<DomainErrorKind, string> = {
  validation: 'validation_error',
  not_found: 'not_found',
  forbidden: 'forbidden',
  unauthenticated: 'unauthenticated',
  version_mismatch: 'version_mismatch',
  trashed: 'note_trashed',
  quota_exceeded: 'quota_exceeded',
  unknown_snapshot: 'snapshot_not_found',
  cursor_mismatch: 'invalid_cursor',
  rate_limited: 'rate_limited',
  conflict: 'conflict',
};
const WRONG_STATUS_FAULT: Partial<Record<DomainErrorKind, FaultName>> = {
  validation: 'errors.status.validation-wrong',
  not_found: 'errors.status.not-found-wrong',
  forbidden: 'errors.status.forbidden-wrong',
  unauthenticated: 'errors.status.unauthenticated-wrong',
  version_mismatch: 'errors.status.version-mismatch-wrong',
  trashed: 'errors.status.trashed-wrong',
  quota_exceeded: 'errors.status.quota-exceeded-wrong',
  unknown_snapshot: 'errors.status.unknown-snapshot-wrong',
};

/**
 * Refusals of the transport, not of the API: routing, body size, slow clients. Their statuses
 * are HTTP's own (the profile has no statuses key for them, see profile.schema.json); their
 * bodies follow the profile's error_body shape like every other refusal.
 */
export type HttpRefusalKind = 'method_not_allowed' | 'payload_too_large' | 'request_timeout';
const HTTP_REFUSAL_STATUS: Record<HttpRefusalKind, number> = {
  method_not_allowed: 405,
  payload_too_large: 413,
  request_timeout: 408,
};

export interface ErrorResponse {
  status: number;
  body: Record<string, unknown>;
}

export interface ErrorMapper {
  /** A service refusal (DomainError) with the message the client should read. */
  domain(error: DomainError, message?: string): ErrorResponse;
  /** A transport refusal of the http layer. */
  http(kind: HttpRefusalKind, message: string): ErrorResponse;
}

/** The one table from refusals to statuses and bodies, through the profile. */
export function createErrorMapper(profile: Profile, broken: (f: FaultName) => boolean): ErrorMapper {
  const statuses = profile.statuses ?? {};
  const shape = profile.error_body ?? { kind_pointer: '/error/type', message_pointer: '/error/message' };
  const codes = shape.kinds ?? {};
  // A shape with a message and no kind ({"detail": "..."}, as FastAPI answers) carries no kind at all.
  const kindPointer = shape.kind_pointer;
  const errorBody = (code: string, message: string): Record<string, unknown> => {
    const body: Record<string, unknown> = {};
    if (kindPointer !== undefined && !broken('errors.body.kind-missing')) setPointer(body, kindPointer, code);
    setPointer(body, shape.message_pointer ?? '/error/message', message);
    return body;
  };
  const domain = (error: DomainError, message = error.message): ErrorResponse => {
    let status =
      (statuses as Partial<Record<RefusalKind, number>>)[error.kind as RefusalKind] ?? DEFAULT_STATUS[error.kind];
    const wrong = WRONG_STATUS_FAULT[error.kind];
    if (wrong && broken(wrong)) status = 418;
    // quota_exceeded has a documented body; everything else follows the profile's shape.
    if (error.kind === 'quota_exceeded' && error.body) return { status, body: error.body };
    return {
      status,
      body: errorBody((codes as Partial<Record<string, string>>)[error.kind] ?? DEFAULT_CODE[error.kind], message),
    };
  };
  return { domain, http: (kind, message) => ({ status: HTTP_REFUSAL_STATUS[kind], body: errorBody(kind, message) }) };
}

function setPointer(target: Record<string, unknown>, pointer: string, value: unknown): void {
  const keys = pointer
    .slice(1)
    .split('/')
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}
