import { OPERATIONS, type OperationId } from '../../spec/operations.js';
import type { EndpointDecl, Profile } from '../../spec/profile.js';
import { askAttachmentQuestion, attachmentDownloadUrl } from '../service/attachments.js';
import {
  createCollection,
  deleteCollection,
  getCollection,
  trashCollection,
  updateCollection,
} from '../service/collections.js';
import { listCollections, searchCollections } from '../service/collections-query.js';
import type { ServiceContext } from '../service/context.js';
import { addNoteToCollection, moveNote, removeNoteFromCollection } from '../service/membership.js';
import { deleteNote, getNote, restoreNote, trashNote } from '../service/notes-lifecycle.js';
import { listNotes } from '../service/notes-list.js';
import { relatedNotes } from '../service/notes-related.js';
import { searchNotes } from '../service/notes-search.js';
import { createNote, setNoteCreatedAt, updateNote } from '../service/notes-write.js';
import type { Input } from '../service/validate.js';
import type { View } from '../service/views.js';
import type { UserRecord } from '../store/records.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Call {
  readonly user: UserRecord;
  readonly params: Readonly<Record<string, string>>;
  /** Query parameters under canonical names. */
  readonly query: Input;
  /** The JSON body, object keys renamed to canonical names. */
  readonly body: unknown;
}

export interface Route {
  /** The operation id of openapi.yaml. */
  readonly op: OperationId;
  readonly method: Method;
  readonly path: string;
  /** Accepted query parameters: wire name -> canonical name; any other is refused. */
  readonly query: Readonly<Record<string, string>>;
  /** Accepted body fields: wire name -> canonical name; undefined: no body is read. */
  readonly body?: Readonly<Record<string, string>>;
  readonly run: Operation;
}

/** One operation as the route table runs it: canonical input in, view out (or a thrown DomainError). */
export type Operation = (ctx: ServiceContext, call: Call) => View;

/** Where the profile leaves a name unset, the fake uses its own default (spec/profiles/fake.yaml). */
export type Names = {
  [G in keyof NonNullable<Profile['names']>]-?: Required<NonNullable<NonNullable<Profile['names']>[G]>>;
};
export type Endpoints = Required<NonNullable<Profile['endpoints']>>;

/** A route where the document shows it: method and path from openapi.yaml (spec/operations.ts). */
const documented = (op: OperationId) => ({ op, method: OPERATIONS[op].method, path: OPERATIONS[op].path });
const identity = (...fields: string[]) => Object.fromEntries(fields.map((f) => [f, f]));
const bounds = (n: {
  created_after: string;
  created_before: string;
  updated_after: string;
  updated_before: string;
}) => ({
  [n.created_after]: 'created_after',
  [n.created_before]: 'created_before',
  [n.updated_after]: 'updated_after',
  [n.updated_before]: 'updated_before',
});
const DOCUMENTED_BOUNDS = {
  filter_by_created_after: 'created_after',
  filter_by_created_before: 'created_before',
  filter_by_updated_after: 'updated_after',
  filter_by_updated_before: 'updated_before',
};

/** The route table of one instance: documented paths, plus the endpoints and names its profile chose. */
export function buildRoutes(names: Names, endpoints: Endpoints): Route[] {
  const list = names.notes_list;
  const search = names.notes_search;
  const collList = names.collections_list;
  const collSearch = names.collections_search;
  const extra = (decl: EndpointDecl, op: OperationId, run: Route['run'], body?: Route['body']): Route => ({
    op,
    method: decl.method,
    path: decl.path,
    query: {},
    ...(body ? { body } : {}),
    run,
  });
  const noteCreateFields = identity('content', 'collection_ids', 'collection_titles', 'created_at', 'updated_at', 'id');
  return [
    {
      ...documented('createNote'),
      query: {},
      body: noteCreateFields,
      run: (ctx, c) => createNote(ctx, c.user, c.body),
    },
    // The capture operation of the document's history; its shapes are not shown. The fake accepts a
    // note create body and creates the note at once, so clients that call capture can be developed.
    extra(endpoints.capture, 'captureNote', (ctx, c) => captured(createNote(ctx, c.user, c.body)), noteCreateFields),
    {
      ...documented('listNotes'),
      query: {
        limit: 'limit',
        order_by: 'order_by',
        ...DOCUMENTED_BOUNDS,
        [list.cursor]: 'cursor',
        [list.collection]: 'collection',
        [list.contains_open_tasks]: 'open_tasks',
        [list.contains_tasks]: 'tasks',
        [list.contains_images]: 'images',
        [list.contains_files]: 'files',
        [list.include_content]: 'include_content',
      },
      run: (ctx, c) => listNotes(ctx, c.user, c.query),
    },
    {
      ...documented('searchNotes'),
      query: identity('limit', 'offset', 'snapshot_id'),
      body: {
        query: 'query',
        ...DOCUMENTED_BOUNDS,
        [search.collections]: 'collections',
        [search.contains_open_tasks]: 'open_tasks',
        [search.contains_tasks]: 'tasks',
        [search.contains_images]: 'images',
        [search.contains_files]: 'files',
        [search.response_shape]: 'response_shape',
      },
      run: (ctx, c) => searchNotes(ctx, c.user, c.query, c.body),
    },
    {
      ...documented('getNote'),
      query: {},
      run: (ctx, c) => getNote(ctx, c.user, c.params.note_id!),
    },
    {
      ...documented('updateNote'),
      query: {},
      body: identity('content', 'version', 'updated_at'),
      run: (ctx, c) => updateNote(ctx, c.user, c.params.note_id!, c.body),
    },
    {
      ...documented('deleteNote'),
      query: {},
      run: (ctx, c) => deleteNote(ctx, c.user, c.params.note_id!),
    },
    {
      ...documented('setNoteCreatedAt'),
      query: {},
      body: identity('created_at'),
      run: (ctx, c) => setNoteCreatedAt(ctx, c.user, c.params.note_id!, c.body),
    },
    {
      ...documented('getRelatedNotes'),
      query: identity('limit'),
      run: (ctx, c) => relatedNotes(ctx, c.user, c.params.note_id!, c.query),
    },
    {
      ...documented('trashNote'),
      query: {},
      run: (ctx, c) => trashNote(ctx, c.user, c.params.note_id!),
    },
    extra(endpoints.restore_note, 'restoreNote', (ctx, c) => restoreNote(ctx, c.user, c.params.note_id!)),

    {
      ...documented('createCollection'),
      query: {},
      body: identity('title', 'description', 'id', 'created_at', 'updated_at'),
      run: (ctx, c) => createCollection(ctx, c.user, c.body),
    },
    {
      ...documented('listCollections'),
      query: {
        limit: 'limit',
        order_by: 'order_by',
        [collList.cursor]: 'cursor',
        ...bounds(collList),
      },
      run: (ctx, c) => listCollections(ctx, c.user, c.query),
    },
    {
      ...documented('searchCollections'),
      query: {},
      body: { [collSearch.query]: 'query', ...bounds(collSearch) },
      // The body is required (openapi.yaml): a missing one is refused by the service like any non-object.
      run: (ctx, c) => searchCollections(ctx, c.user, c.body),
    },
    {
      ...documented('getCollection'),
      query: {},
      run: (ctx, c) => getCollection(ctx, c.user, c.params.collection_id!),
    },
    {
      ...documented('updateCollection'),
      query: {},
      body: identity('title', 'description', 'updated_at'),
      run: (ctx, c) => updateCollection(ctx, c.user, c.params.collection_id!, c.body),
    },
    {
      ...documented('deleteCollection'),
      query: {},
      run: (ctx, c) => deleteCollection(ctx, c.user, c.params.collection_id!),
    },
    extra(endpoints.trash_collection, 'trashCollection', (ctx, c) =>
      trashCollection(ctx, c.user, c.params.collection_id!),
    ),

    {
      ...documented('addNoteToCollection'),
      query: {},
      run: (ctx, c) => addNoteToCollection(ctx, c.user, c.params.collection_id!, c.params.note_id!),
    },
    {
      ...documented('moveNote'),
      query: {},
      body: identity('target_collection_id'),
      run: (ctx, c) => moveNote(ctx, c.user, c.params.source_collection_id!, c.params.note_id!, c.body),
    },
    extra(endpoints.remove_note_from_collection, 'removeNoteFromCollection', (ctx, c) =>
      removeNoteFromCollection(ctx, c.user, c.params.collection_id!, c.params.note_id!),
    ),

    {
      ...documented('getAttachmentDownloadUrl'),
      query: {},
      run: (ctx, c) => attachmentDownloadUrl(ctx, c.user, c.params.attachment_id!),
    },
    extra(
      endpoints.attachment_question,
      'askAttachmentQuestion',
      (ctx, c) => askAttachmentQuestion(ctx, c.user, c.params.attachment_id!, c.body),
      identity('attachment_id', 'attachment_kind', 'question'),
    ),
  ];
}

/** What capture answers: the request was accepted; the note it made is already readable. */
function captured(note: View): View {
  return { status: 'accepted', note_id: note.id };
}
