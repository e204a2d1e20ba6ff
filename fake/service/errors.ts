import type { RefusalKind } from '../../spec/profile.js';

/**
 * Every refusal of the service is a DomainError with a kind; the http layer maps the kind to a
 * status and body through the profile (one table, http/error-map.ts). `conflict` is the one
 * documented status (409 on duplicate ids).
 */
export type DomainErrorKind = RefusalKind | 'conflict' | 'payload_too_large' | 'method_not_allowed';

export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Extra body content for kinds with a documented body (quota_exceeded). */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const invalid = (message: string) => new DomainError('validation', message);
export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);
export const forbidden = (message: string) => new DomainError('forbidden', message);
