import type { RefusalKind } from '../../spec/profile.js';

/**
 * Every refusal of the service is a DomainError with a kind; the http layer maps the kind to a
 * status and body through the profile (one table, http/error-map.ts). `conflict` is the one
 * documented status (409 on duplicate ids). Transport refusals (405, 413, 408) are not the
 * service's business: they live in http/refusals.ts.
 */
export type DomainErrorKind = RefusalKind | 'conflict';

export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Extra body content for kinds with a documented body (quota_exceeded). */
    readonly body?: Record<string, unknown>,
    /**
     * The canonical name of the input a validation message is about, when the message starts with
     * it; the http layer shows the name the client sent instead (http/wire-names.ts).
     */
    readonly field?: string,
  ) {
    super(message);
  }
}

export const invalid = (message: string, field?: string) => new DomainError('validation', message, undefined, field);
export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);
export const forbidden = (message: string) => new DomainError('forbidden', message);
