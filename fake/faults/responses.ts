import type { OperationId } from '../../spec/operations.js';
import type { View } from '../service/views.js';
import { answers, drop, eachItem, emptySuccess, successBodies, successStatus } from './answers.js';
import type { Fault } from './hooks.js';

const NOTE_WRITES: OperationId[] = ['getNote', 'updateNote', 'setNoteCreatedAt'];
const TEXT = 'text/plain; charset=utf-8';

/** Answers changed after the reference made them: missing or extra fields, other statuses and bodies. */
export const RESPONSE_FAULTS = {
  'conventions.json.content-type-text': {
    rules: ['conventions.json.content-type'],
    does: 'success responses say text/plain',
    hooks: answers(['*'], (reply) => {
      if (reply.refusal === undefined) reply.headers['content-type'] = TEXT;
      return undefined;
    }),
  },
  'conventions.json.text-bodies': {
    rules: ['conventions.json.bodies'],
    does: 'membership add answers a plain-text body',
    hooks: answers(['addNoteToCollection'], (reply) =>
      reply.refusal === undefined
        ? { ...reply, headers: { ...reply.headers, 'content-type': TEXT }, text: 'OK' }
        : undefined,
    ),
  },
  'conventions.request-id.repeated': {
    rules: ['conventions.request-id.unique'],
    does: 'every response carries the same request_id',
    hooks: successBodies(['*'], (v) => {
      if ('request_id' in v) v.request_id = 'req-0000';
    }),
  },
  'conventions.request-id.missing-on-lists': {
    rules: ['conventions.request-id.on-every-success'],
    does: 'list responses carry no request_id',
    hooks: successBodies(['listNotes', 'listCollections'], drop('request_id')),
  },
  'conventions.success.created-201': {
    rules: ['conventions.success.status-200'],
    does: 'creates answer 201',
    hooks: successStatus(['createNote', 'createCollection'], 201),
  },
  'conventions.success.trash-202': {
    rules: ['conventions.success.status-200'],
    does: 'trash answers 202 Accepted',
    hooks: successStatus(['trashNote'], 202),
  },
  'notes.delete.response-empty': {
    rules: ['notes.delete.response-fields'],
    does: 'note delete answers {} without request_id',
    hooks: emptySuccess('deleteNote'),
  },
  'collections.delete.response-empty': {
    rules: ['collections.delete.response-fields'],
    does: 'collection delete answers {} without request_id',
    hooks: emptySuccess('deleteCollection'),
  },
  'membership.add.response-empty': {
    rules: ['membership.add.response-fields'],
    does: 'membership add answers {} without request_id',
    hooks: emptySuccess('addNoteToCollection'),
  },
  'membership.move.response-empty': {
    rules: ['membership.move.response-fields'],
    does: 'move answers {} without request_id',
    hooks: emptySuccess('moveNote'),
  },
  'notes.capture.response-empty': {
    rules: ['notes.capture.request-id'],
    does: 'capture answers {} without request_id',
    hooks: emptySuccess('captureNote'),
  },
  'notes.create.response-missing-version': {
    rules: ['notes.create.response-fields'],
    does: 'the create response has no version',
    hooks: successBodies(['createNote'], drop('version')),
  },
  'notes.read.response-missing-attachment-metadata': {
    rules: ['notes.read.response-fields'],
    does: 'the read response has no attachment_metadata',
    hooks: successBodies(['getNote'], drop('attachment_metadata')),
  },
  'notes.update.response-missing-trashed-at': {
    rules: ['notes.update.response-fields'],
    does: 'the update response has no trashed_at',
    hooks: successBodies(['updateNote'], drop('trashed_at')),
  },
  'notes.set-created-at.response-missing-collection-ids': {
    rules: ['notes.set-created-at.response-fields'],
    does: 'the set-created-at response has no collection_ids',
    hooks: successBodies(['setNoteCreatedAt'], drop('collection_ids')),
  },
  'notes.trashed-at.false-when-active': {
    rules: ['notes.trashed-at.null-when-active'],
    does: 'an active note has trashed_at: false',
    hooks: successBodies(NOTE_WRITES, (v) => {
      if (v.trashed_at === null) v.trashed_at = false;
    }),
  },
  'notes.read.attachment-page-count-string': {
    rules: ['notes.read.attachment-metadata-fields'],
    does: 'attachment page_count is a string',
    hooks: successBodies(['getNote'], (v) => {
      for (const a of v.attachment_metadata as View[]) a.page_count = String(a.page_count);
    }),
  },
  'notes.title.items-use-snippet': {
    rules: ['notes.title.first-line'],
    does: 'list and search items carry the snippet as their title',
    hooks: successBodies(
      ['listNotes', 'searchNotes'],
      eachItem((i) => {
        i.title = i.snippet;
      }),
    ),
  },
  'notes.list.item-missing-snippet': {
    rules: ['notes.list.item-fields'],
    does: 'list items have no snippet',
    hooks: successBodies(['listNotes'], eachItem(drop('snippet'))),
  },
  'notes.list.response-total-string': {
    rules: ['notes.list.response-fields'],
    does: 'the list total is a string',
    hooks: successBodies(['listNotes'], (v) => {
      v.total = String(v.total);
    }),
  },
  'notes.search.item-missing-audio-ids': {
    rules: ['notes.search.item-fields'],
    does: 'search items have no audio_recording_ids',
    hooks: successBodies(['searchNotes'], eachItem(drop('audio_recording_ids'))),
  },
  'notes.search.response-missing-snapshot-id': {
    rules: ['notes.search.response-fields'],
    does: 'search responses have no snapshot_id',
    hooks: successBodies(['searchNotes'], drop('snapshot_id')),
  },
  'notes.related.item-missing-preview': {
    rules: ['notes.related.item-fields'],
    does: 'related items have no preview',
    hooks: successBodies(['getRelatedNotes'], eachItem(drop('preview'))),
  },
  'collections.create.response-missing-description': {
    rules: ['collections.create.response-fields'],
    does: 'the collection create response has no description',
    hooks: successBodies(['createCollection'], drop('description')),
  },
  'collections.read.response-missing-note-count': {
    rules: ['collections.read.response-fields'],
    does: 'the collection read response has no note_count',
    hooks: successBodies(['getCollection'], drop('note_count')),
  },
  'collections.update.response-missing-updated-at': {
    rules: ['collections.update.response-fields'],
    does: 'the collection update response has no updated_at',
    hooks: successBodies(['updateCollection'], drop('updated_at')),
  },
  'collections.list.item-missing-note-count': {
    rules: ['collections.list.item-fields'],
    does: 'collection list items have no note_count',
    hooks: successBodies(['listCollections'], eachItem(drop('note_count'))),
  },
  'collections.list.response-missing-total': {
    rules: ['collections.list.response-fields'],
    does: 'the collection list has no total',
    hooks: successBodies(['listCollections'], drop('total')),
  },
  'collections.search.item-missing-note-count': {
    rules: ['collections.search.item-fields'],
    does: 'collection search items have no note_count',
    hooks: successBodies(['searchCollections'], eachItem(drop('note_count'))),
  },
  'collections.search.response-total-string': {
    rules: ['collections.search.response-fields'],
    does: 'the collection search total is a string',
    hooks: successBodies(['searchCollections'], (v) => {
      v.total = String(v.total);
    }),
  },
  'collections.read.state-field': {
    rules: ['collections.read.no-state-field'],
    does: 'collections carry trashed_at: null',
    hooks: successBodies(['getCollection', 'listCollections', 'searchCollections'], (v) => {
      for (const c of Array.isArray(v.results) ? (v.results as View[]) : [v]) c.trashed_at = null;
    }),
  },
  'collections.read.includes-notes': {
    rules: ['collections.read.no-note-list'],
    does: 'the collection read response lists its notes',
    hooks: successBodies(['getCollection'], (v, { ctx }) => {
      v.notes = [...(ctx.store.collections.get(v.id as string)?.noteIds ?? [])].map((id) => ({ id }));
    }),
  },
} satisfies Record<string, Fault>;
