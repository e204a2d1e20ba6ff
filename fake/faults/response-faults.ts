import type { ServiceContext } from '../service/context.js';
import type { View } from '../service/views.js';
import type { FaultName } from './catalogue.js';

/**
 * Faults that change a success response after the service produced it: missing or extra
 * fields, other statuses. Each entry names the operations it applies to.
 */
interface ResponseFault {
  ops: readonly string[];
  // biome-ignore lint/suspicious/noConfusingVoidType: most faults only edit the view and return nothing
  apply(view: View, ctx: ServiceContext): { status: number } | void;
}

const NOTE_WRITES = ['getNote', 'updateNote', 'setNoteCreatedAt'];
const drop = (field: string) => (view: View) => {
  delete view[field];
};
const eachItem = (fn: (item: View) => void) => (view: View) => {
  for (const item of view.results as View[]) fn(item);
};

const RESPONSE_FAULTS: Partial<Record<FaultName, ResponseFault>> = {
  'conventions.request-id.missing-on-lists': { ops: ['listNotes', 'listCollections'], apply: drop('request_id') },
  'conventions.request-id.repeated': {
    ops: ['*'],
    apply: (v) => {
      v.request_id = 'req-0000';
    },
  },
  'conventions.success.created-201': { ops: ['createNote', 'createCollection'], apply: () => ({ status: 201 }) },
  'conventions.success.trash-202': { ops: ['trashNote'], apply: () => ({ status: 202 }) },
  'notes.create.response-missing-version': { ops: ['createNote'], apply: drop('version') },
  'notes.read.response-missing-attachment-metadata': { ops: ['getNote'], apply: drop('attachment_metadata') },
  'notes.update.response-missing-trashed-at': { ops: ['updateNote'], apply: drop('trashed_at') },
  'notes.set-created-at.response-missing-collection-ids': { ops: ['setNoteCreatedAt'], apply: drop('collection_ids') },
  'notes.trashed-at.false-when-active': {
    ops: NOTE_WRITES,
    apply: (v) => {
      if (v.trashed_at === null) v.trashed_at = false;
    },
  },
  'notes.read.attachment-page-count-string': {
    ops: ['getNote'],
    apply: (v) => {
      for (const a of v.attachment_metadata as View[]) a.page_count = String(a.page_count);
    },
  },
  'notes.title.items-use-snippet': {
    ops: ['listNotes', 'searchNotes'],
    apply: eachItem((i) => {
      i.title = i.snippet;
    }),
  },
  'notes.list.item-missing-snippet': {
    ops: ['listNotes'],
    apply: eachItem((i) => {
      delete i.snippet;
    }),
  },
  'notes.list.response-total-string': {
    ops: ['listNotes'],
    apply: (v) => {
      v.total = String(v.total);
    },
  },
  'notes.search.item-missing-audio-ids': {
    ops: ['searchNotes'],
    apply: eachItem((i) => {
      delete i.audio_recording_ids;
    }),
  },
  'notes.search.response-missing-snapshot-id': { ops: ['searchNotes'], apply: drop('snapshot_id') },
  'notes.related.item-missing-preview': {
    ops: ['getRelatedNotes'],
    apply: eachItem((i) => {
      delete i.preview;
    }),
  },
  'collections.create.response-missing-description': { ops: ['createCollection'], apply: drop('description') },
  'collections.read.response-missing-note-count': { ops: ['getCollection'], apply: drop('note_count') },
  'collections.update.response-missing-updated-at': { ops: ['updateCollection'], apply: drop('updated_at') },
  'collections.list.item-missing-note-count': {
    ops: ['listCollections'],
    apply: eachItem((i) => {
      delete i.note_count;
    }),
  },
  'collections.list.response-missing-total': { ops: ['listCollections'], apply: drop('total') },
  'collections.search.item-missing-note-count': {
    ops: ['searchCollections'],
    apply: eachItem((i) => {
      delete i.note_count;
    }),
  },
  'collections.search.response-total-string': {
    ops: ['searchCollections'],
    apply: (v) => {
      v.total = String(v.total);
    },
  },
  'collections.read.state-field': {
    ops: ['getCollection', 'listCollections', 'searchCollections'],
    apply: (v) => {
      for (const c of Array.isArray(v.results) ? (v.results as View[]) : [v]) c.trashed_at = null;
    },
  },
  'collections.read.includes-notes': {
    ops: ['getCollection'],
    apply: (v, ctx) => {
      v.notes = [...(ctx.store.collections.get(v.id as string)?.noteIds ?? [])].map((id) => ({ id }));
    },
  },
};

/** Faults that answer an empty object without request_id. */
export const EMPTY_BODY_FAULTS: Partial<Record<string, FaultName>> = {
  deleteNote: 'notes.delete.response-empty',
  deleteCollection: 'collections.delete.response-empty',
  addNoteToCollection: 'membership.add.response-empty',
  moveNote: 'membership.move.response-empty',
  captureNote: 'notes.capture.response-empty',
};

/** Applies the active response faults for one operation; returns an overriding status if any. */
export function applyResponseFaults(
  ctx: ServiceContext,
  op: string,
  view: View,
  active: ReadonlySet<FaultName>,
): number | undefined {
  let status: number | undefined;
  for (const name of active) {
    const fault = RESPONSE_FAULTS[name];
    if (!fault || !(fault.ops.includes(op) || fault.ops.includes('*'))) continue;
    const out = fault.apply(view, ctx);
    if (out && 'status' in out) status = out.status;
  }
  return status;
}
