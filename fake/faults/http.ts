import { isUuid } from '../ids.js';
import { DomainError, type DomainErrorKind } from '../service/errors.js';
import type { UserRecord } from '../store/records.js';
import { headersChanged } from './answers.js';
import type { Fault, FaultFactory } from './hooks.js';

/** Who a server that skips authentication serves: a user no store knows. */
const ANONYMOUS: UserRecord = {
  id: '00000000-0000-4000-8000-000000000000',
  token: '',
  name: 'anonymous',
  quota: undefined,
  rateLimit: undefined,
};
const isUnauthenticated = (error: unknown) => error instanceof DomainError && error.kind === 'unauthenticated';

/** Authentication that lets some refused requests through as ANONYMOUS. */
const letsThrough =
  (when: (token: string | undefined, method: string, op: string) => boolean): FaultFactory =>
  () => ({
    http: {
      authenticate: (next) => (authorization, method, op) => {
        try {
          return next(authorization, method, op);
        } catch (error) {
          const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
          if (isUnauthenticated(error) && when(token, method, op)) return ANONYMOUS;
          throw error;
        }
      },
    },
  });

/** A path parameter that is not a UUID crashes the handler of one operation (500). */
const crashesOnBadId =
  (op: string, param: string): FaultFactory =>
  () => ({
    http: {
      pathParams: (next) => (o, params) => {
        const value = params[param];
        if (o === op && value !== undefined && !isUuid(value)) throw new Error(`cannot parse ${param}`);
        return next(o, params);
      },
    },
  });

/** One refusal answered 418 instead of its status. */
const teapot =
  (kind: DomainErrorKind): FaultFactory =>
  () => ({ http: { refusalStatus: (next) => (k) => (k === kind ? 418 : next(k)) } });

/** A query parameter or body field of one operation that answers to another name than the profile's. */
const renamedOnWire =
  (op: string, where: 'query' | 'body', canonical: string): FaultFactory =>
  () => ({
    routes: (table) =>
      table.map((route) => {
        const fields = route[where];
        if (route.op !== op || !fields) return route;
        const renamed = Object.entries(fields).map(([wire, c]) => [c === canonical ? `${wire}_v1` : wire, c]);
        return { ...route, [where]: Object.fromEntries(renamed) };
      }),
  });

/** Faults of the http layer: authentication, path parameters, parsing, names, refusal statuses and headers. */
export const HTTP_FAULTS = {
  'auth.bearer.any-token-accepted': {
    rules: ['auth.bearer.invalid-refused'],
    does: 'unknown tokens are served as an anonymous user',
    hooks: letsThrough((token) => token !== undefined),
  },
  'auth.bearer.missing-allowed-on-get': {
    rules: ['auth.bearer.required'],
    does: 'GET requests without a token are served as an anonymous user',
    hooks: letsThrough((token, method) => token === undefined && method === 'GET'),
  },
  'notes.capture.bearer-optional': {
    rules: ['notes.capture.bearer-required'],
    does: 'a capture without a token is accepted (and filed for no one)',
    hooks: letsThrough((token, _method, op) => token === undefined && op === 'captureNote'),
  },
  'notes.read.invalid-id-500': {
    rules: ['notes.read.invalid-id-refused'],
    does: 'a note_id that is not a UUID crashes the handler (500)',
    hooks: crashesOnBadId('getNote', 'note_id'),
  },
  'collections.read.invalid-id-500': {
    rules: ['collections.read.invalid-id-refused'],
    does: 'a collection_id that is not a UUID crashes the handler (500)',
    hooks: crashesOnBadId('getCollection', 'collection_id'),
  },
  'errors.bad-input.crashes-on-malformed-json': {
    rules: ['errors.bad-input.no-5xx'],
    does: 'malformed JSON answers 500',
    hooks: () => ({
      http: {
        parseBody: (next) => (body, contentType) => {
          try {
            return next(body, contentType);
          } catch (error) {
            if (/not valid JSON/.test((error as Error).message)) throw new Error('unexpected token in JSON');
            throw error;
          }
        },
      },
    }),
  },
  'notes.list.names-swapped': {
    rules: ['notes.list.parameter-names'],
    does: 'the collection filter answers to another name than the profile declares',
    hooks: renamedOnWire('listNotes', 'query', 'collection'),
  },
  'notes.search.names-swapped': {
    rules: ['notes.search.parameter-names'],
    does: 'the collection filter answers to another name than the profile declares',
    hooks: renamedOnWire('searchNotes', 'body', 'collections'),
  },
  'collections.list.names-swapped': {
    rules: ['collections.list.parameter-names'],
    does: 'the cursor answers to another name than the profile declares',
    hooks: renamedOnWire('listCollections', 'query', 'cursor'),
  },
  'collections.search.names-swapped': {
    rules: ['collections.search.parameter-names'],
    does: 'the query answers to another name than the profile declares',
    hooks: renamedOnWire('searchCollections', 'body', 'query'),
  },
  'errors.body.kind-missing': {
    rules: ['errors.body.shape'],
    does: 'refusal bodies carry no error kind',
    hooks: () => ({ http: { errorBody: (next) => (_code, message) => next(undefined, message) } }),
  },
  'errors.status.forbidden-wrong': {
    rules: ['errors.status.forbidden'],
    does: 'permission failures answer 418',
    hooks: teapot('forbidden'),
  },
  'errors.status.not-found-wrong': {
    rules: ['errors.status.not-found'],
    does: 'missing resources answer 418',
    hooks: teapot('not_found'),
  },
  'errors.status.quota-exceeded-wrong': {
    rules: ['quota.create.exceeded-status'],
    does: 'quota_exceeded answers 418',
    hooks: teapot('quota_exceeded'),
  },
  'errors.status.trashed-wrong': {
    rules: ['errors.status.trashed'],
    does: 'operations on trashed notes answer 418',
    hooks: teapot('trashed'),
  },
  'errors.status.unauthenticated-wrong': {
    rules: ['errors.status.unauthenticated'],
    does: 'missing credentials answer 418',
    hooks: teapot('unauthenticated'),
  },
  'errors.status.unknown-snapshot-wrong': {
    rules: ['notes.search.snapshot-unknown'],
    does: 'unknown snapshots answer 418',
    hooks: teapot('unknown_snapshot'),
  },
  'errors.status.validation-wrong': {
    rules: ['errors.status.validation'],
    does: 'validation failures answer 418',
    hooks: teapot('validation'),
  },
  'errors.status.version-mismatch-wrong': {
    rules: ['errors.status.version-mismatch'],
    does: 'version mismatches answer 418',
    hooks: teapot('version_mismatch'),
  },
  'headers.rate-limit.missing': {
    rules: ['headers.rate-limit.families'],
    does: 'no rate-limit headers at all',
    hooks: () => ({
      responses: {
        '*': (next) => (reply, exchange) => {
          const out = next(reply, exchange);
          for (const name of Object.keys(out.headers))
            if (name.startsWith('x-ratelimit-') || name.startsWith('x-complexity-')) delete out.headers[name];
          return out;
        },
      },
    }),
  },
  'headers.rate-limit.names-differ': {
    rules: ['headers.rate-limit.declared'],
    does: 'X-RateLimit-Remaining is sent as X-RateLimit-Left',
    hooks: headersChanged({ 'x-ratelimit-remaining': 'x-ratelimit-left' }),
  },
  'headers.rate-limit.no-retry-after': {
    rules: ['headers.rate-limit.exhausted'],
    does: '429 answers carry no Retry-After',
    hooks: headersChanged({ 'retry-after': undefined }),
  },
  'conventions.timestamps.no-offset-in-responses': {
    rules: ['conventions.timestamps.response-format'],
    does: 'response timestamps lack a timezone designator',
    hooks: () => ({
      settings: (s) => ({ ...s, formatTime: (ms: number) => new Date(ms).toISOString().slice(0, 23) }),
    }),
  },
} satisfies Record<string, Fault>;
