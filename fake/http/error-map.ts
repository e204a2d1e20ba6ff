import type { Profile, RefusalKind } from '../../spec/profile.js';
import type { DomainError, DomainErrorKind } from '../service/errors.js';
import type { HttpRefusalKind, HttpStages } from './pipeline.js';

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

/** Transport refusals (pipeline.ts): HTTP's own statuses; their bodies follow the profile's error shape. */
export type { HttpRefusalKind } from './pipeline.js';

const HTTP_REFUSAL_STATUS: Record<HttpRefusalKind, number> = {
  method_not_allowed: 405,
  payload_too_large: 413,
  request_timeout: 408,
  // --state could not be saved: writes are refused rather than acknowledged and lost.
  state_not_saved: 503,
  // --state holds at most its stated size (durable-state.ts): past it writes are refused, not lost.
  state_full: 507,
  // The node adapter holds its most for answers clients are not reading (Retry-After: 1).
  server_busy: 503,
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

type RefusalStages = Pick<HttpStages, 'refusalStatus' | 'errorBody'>;

/** The reference's refusal stages: statuses and the error body shape through the profile. */
export function referenceRefusals(profile: Profile): RefusalStages {
  const statuses = (profile.statuses ?? {}) as Partial<Record<RefusalKind, number>>;
  const shape = profile.error_body ?? { kind_pointer: '/error/type', message_pointer: '/error/message' };
  // A shape with a message and no kind ({"detail": "..."}, as FastAPI answers) carries no kind at all.
  const kindPointer = shape.kind_pointer;
  return {
    refusalStatus: (kind) => statuses[kind as RefusalKind] ?? DEFAULT_STATUS[kind],
    errorBody(code, message) {
      const body: Record<string, unknown> = {};
      if (code !== undefined && kindPointer !== undefined) setPointer(body, kindPointer, code);
      setPointer(body, shape.message_pointer ?? '/error/message', message);
      return body;
    },
  };
}

/** The one table from refusals to statuses and bodies (the stages above, or hooks around them). */
export function createErrorMapper(stages: RefusalStages, profile: Profile): ErrorMapper {
  const codes = (profile.error_body?.kinds ?? {}) as Partial<Record<string, string>>;
  const domain = (error: DomainError, message = error.message): ErrorResponse => {
    const status = stages.refusalStatus(error.kind);
    // quota_exceeded has a documented body; everything else follows the profile's shape.
    if (error.kind === 'quota_exceeded' && error.body) return { status, body: error.body };
    return { status, body: stages.errorBody(codes[error.kind] ?? DEFAULT_CODE[error.kind], message) };
  };
  return {
    domain,
    http: (kind, message) => ({ status: HTTP_REFUSAL_STATUS[kind], body: stages.errorBody(kind, message) }),
  };
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
