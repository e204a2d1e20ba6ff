import type { FaultSpec } from './hooks.js';

/**
 * Faults without hooks of their own: the http layer, a response rewrite or a seam in the service
 * asks `broken(name)` for them. A test checks that each name is used in one of those places.
 */
export const SEAM_FAULTS = {
  // ---- Answered by the http layer (fake/http/core.ts, routes.ts, error-map.ts): authentication, parsing, statuses, headers. ----
  'auth.bearer.any-token-accepted': {
    rules: ['auth.bearer.invalid-refused'],
    does: 'unknown tokens are served as an anonymous user',
  },
  'auth.bearer.missing-allowed-on-get': {
    rules: ['auth.bearer.required'],
    does: 'GET requests without a token are served as an anonymous user',
  },
  'collections.list.names-swapped': {
    rules: ['collections.list.parameter-names'],
    does: 'the cursor answers to another name than the profile declares',
  },
  'collections.read.invalid-id-500': {
    rules: ['collections.read.invalid-id-refused'],
    does: 'a collection_id that is not a UUID crashes the handler (500)',
  },
  'collections.search.names-swapped': {
    rules: ['collections.search.parameter-names'],
    does: 'the query answers to another name than the profile declares',
  },
  'conventions.json.content-type-text': {
    rules: ['conventions.json.content-type'],
    does: 'success responses say text/plain',
  },
  'conventions.json.text-bodies': {
    rules: ['conventions.json.bodies'],
    does: 'membership add answers a plain-text body',
  },
  'conventions.request-id.repeated': {
    rules: ['conventions.request-id.unique'],
    does: 'every response carries the same request_id',
  },
  'conventions.timestamps.no-offset-in-responses': {
    rules: ['conventions.timestamps.response-format'],
    does: 'response timestamps lack a timezone designator',
  },
  'errors.bad-input.crashes-on-malformed-json': {
    rules: ['errors.bad-input.no-5xx'],
    does: 'malformed JSON answers 500',
  },
  'errors.body.kind-missing': { rules: ['errors.body.shape'], does: 'refusal bodies carry no error kind' },
  'errors.status.forbidden-wrong': { rules: ['errors.status.forbidden'], does: 'permission failures answer 418' },
  'errors.status.not-found-wrong': { rules: ['errors.status.not-found'], does: 'missing resources answer 418' },
  'errors.status.quota-exceeded-wrong': { rules: ['quota.create.exceeded-status'], does: 'quota_exceeded answers 418' },
  'errors.status.trashed-wrong': { rules: ['errors.status.trashed'], does: 'operations on trashed notes answer 418' },
  'errors.status.unauthenticated-wrong': {
    rules: ['errors.status.unauthenticated'],
    does: 'missing credentials answer 418',
  },
  'errors.status.unknown-snapshot-wrong': {
    rules: ['notes.search.snapshot-unknown'],
    does: 'unknown snapshots answer 418',
  },
  'errors.status.validation-wrong': { rules: ['errors.status.validation'], does: 'validation failures answer 418' },
  'errors.status.version-mismatch-wrong': {
    rules: ['errors.status.version-mismatch'],
    does: 'version mismatches answer 418',
  },
  'headers.rate-limit.missing': { rules: ['headers.rate-limit.families'], does: 'no rate-limit headers at all' },
  'headers.rate-limit.names-differ': {
    rules: ['headers.rate-limit.declared'],
    does: 'X-RateLimit-Remaining is sent as X-RateLimit-Left',
  },
  'headers.rate-limit.no-retry-after': {
    rules: ['headers.rate-limit.exhausted'],
    does: '429 answers carry no Retry-After',
  },
  'notes.list.names-swapped': {
    rules: ['notes.list.parameter-names'],
    does: 'the collection filter answers to another name than the profile declares',
  },
  'notes.read.invalid-id-500': {
    rules: ['notes.read.invalid-id-refused'],
    does: 'a note_id that is not a UUID crashes the handler (500)',
  },
  'notes.search.names-swapped': {
    rules: ['notes.search.parameter-names'],
    does: 'the collection filter answers to another name than the profile declares',
  },
  // ---- Changes to a success response after the reference produced it (response-faults.ts). ----
  'collections.create.response-missing-description': {
    rules: ['collections.create.response-fields'],
    does: 'the collection create response has no description',
  },
  'collections.delete.response-empty': {
    rules: ['collections.delete.response-fields'],
    does: 'collection delete answers {} without request_id',
  },
  'collections.list.item-missing-note-count': {
    rules: ['collections.list.item-fields'],
    does: 'collection list items have no note_count',
  },
  'collections.list.response-missing-total': {
    rules: ['collections.list.response-fields'],
    does: 'the collection list has no total',
  },
  'collections.read.includes-notes': {
    rules: ['collections.read.no-note-list'],
    does: 'the collection read response lists its notes',
  },
  'collections.read.response-missing-note-count': {
    rules: ['collections.read.response-fields'],
    does: 'the collection read response has no note_count',
  },
  'collections.read.state-field': {
    rules: ['collections.read.no-state-field'],
    does: 'collections carry trashed_at: null',
  },
  'collections.search.item-missing-note-count': {
    rules: ['collections.search.item-fields'],
    does: 'collection search items have no note_count',
  },
  'collections.search.response-total-string': {
    rules: ['collections.search.response-fields'],
    does: 'the collection search total is a string',
  },
  'collections.update.response-missing-updated-at': {
    rules: ['collections.update.response-fields'],
    does: 'the collection update response has no updated_at',
  },
  'conventions.request-id.missing-on-lists': {
    rules: ['conventions.request-id.on-every-success'],
    does: 'list responses carry no request_id',
  },
  'conventions.success.created-201': { rules: ['conventions.success.status-200'], does: 'creates answer 201' },
  'conventions.success.trash-202': { rules: ['conventions.success.status-200'], does: 'trash answers 202 Accepted' },
  'membership.add.response-empty': {
    rules: ['membership.add.response-fields'],
    does: 'membership add answers {} without request_id',
  },
  'membership.move.response-empty': {
    rules: ['membership.move.response-fields'],
    does: 'move answers {} without request_id',
  },
  'notes.capture.bearer-optional': {
    rules: ['notes.capture.bearer-required'],
    does: 'a capture without a token is accepted (and filed for no one)',
  },
  'notes.capture.response-empty': {
    rules: ['notes.capture.request-id'],
    does: 'capture answers {} without request_id',
  },
  'notes.create.response-missing-version': {
    rules: ['notes.create.response-fields'],
    does: 'the create response has no version',
  },
  'notes.delete.response-empty': {
    rules: ['notes.delete.response-fields'],
    does: 'note delete answers {} without request_id',
  },
  'notes.list.item-missing-snippet': { rules: ['notes.list.item-fields'], does: 'list items have no snippet' },
  'notes.list.response-total-string': { rules: ['notes.list.response-fields'], does: 'the list total is a string' },
  'notes.read.attachment-page-count-string': {
    rules: ['notes.read.attachment-metadata-fields'],
    does: 'attachment page_count is a string',
  },
  'notes.read.response-missing-attachment-metadata': {
    rules: ['notes.read.response-fields'],
    does: 'the read response has no attachment_metadata',
  },
  'notes.related.item-missing-preview': { rules: ['notes.related.item-fields'], does: 'related items have no preview' },
  'notes.search.item-missing-audio-ids': {
    rules: ['notes.search.item-fields'],
    does: 'search items have no audio_recording_ids',
  },
  'notes.search.response-missing-snapshot-id': {
    rules: ['notes.search.response-fields'],
    does: 'search responses have no snapshot_id',
  },
  'notes.set-created-at.response-missing-collection-ids': {
    rules: ['notes.set-created-at.response-fields'],
    does: 'the set-created-at response has no collection_ids',
  },
  'notes.title.items-use-snippet': {
    rules: ['notes.title.first-line'],
    does: 'list and search items carry the snippet as their title',
  },
  'notes.trashed-at.false-when-active': {
    rules: ['notes.trashed-at.null-when-active'],
    does: 'an active note has trashed_at: false',
  },
  'notes.update.response-missing-trashed-at': {
    rules: ['notes.update.response-fields'],
    does: 'the update response has no trashed_at',
  },
  // ---- Seams inside the reference, where the fault lives in an algorithm (fake/service: `ctx.broken(name)` with a comment). ----
  'auth.scope.collections-unchecked': {
    rules: ['auth.scope.collections-isolated'],
    does: 'any user may see and act on any collection',
  },
  'auth.scope.notes-unchecked': { rules: ['auth.scope.notes-isolated'], does: 'any user may act on any note' },
  'conventions.timestamps.compared-as-strings': {
    rules: ['conventions.timestamps.compare-instants'],
    does: 'not-in-the-future compares strings, not instants',
  },
  'conventions.timestamps.offset-ignored': {
    rules: ['conventions.timestamps.offset-honoured'],
    does: 'request timestamps are read as UTC wall-clock time, ignoring the offset',
  },
  'notes.search.title-not-indexed': { rules: ['notes.search.finds-matching-note'], does: 'titles are not searched' },
  'notes.search.unranked': {
    rules: ['notes.search.relevance-ranked'],
    does: 'results are ordered by updated_at, not relevance',
  },
  'permissions.collection.grants-ignored': {
    rules: ['permissions.collection.access-edit'],
    does: 'grants on a collection do not open the collection itself',
  },
} satisfies Record<string, FaultSpec>;
