import { OPERATIONS, type OperationId } from '../../spec/operations.js';
import {
  allNames,
  type BoundNames,
  type CaptureNames,
  type EndpointDecl,
  type Name,
  type NotesListNames,
  type NotesSearchNames,
  type Profile,
  primaryName,
  type ResponseShapeNames,
} from '../../spec/profile.js';
import { askAttachmentQuestion, attachmentDownloadUrl } from '../service/attachments.js';
import { acceptCapture, CAPTURE_OPTIONAL } from '../service/capture.js';
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
  /** The fields of an object-valued body field, by the canonical name of that field: wire name -> canonical name. */
  readonly inner?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Canonical body fields whose null reads as absent under the profile's null_fields: absent. */
  readonly nullable?: readonly string[];
  /**
   * Canonical names whose wire names the document does not show (the profile's), `outer.inner` for
   * a field of a body object: a client that uses them relies on more than the document (client report).
   */
  readonly notShown?: readonly string[];
  readonly run: Operation;
}

/** One operation as the route table runs it: canonical input in, view out (or a thrown DomainError). */
export type Operation = (ctx: ServiceContext, call: Call) => View;

/** Where the profile leaves a name unset, the fake uses its own default (spec/profiles/fake.yaml). */
export type Names = {
  notes_list: Required<NotesListNames>;
  notes_search: Required<Omit<NotesSearchNames, 'response_shape_fields'>> & {
    response_shape_fields: Required<ResponseShapeNames>;
  };
  collections_list: Required<BoundNames & { cursor: Name }>;
  collections_search: Required<BoundNames & { query: Name }>;
  capture: Required<CaptureNames>;
};
export type Endpoints = Required<NonNullable<Profile['endpoints']>>;

/** A route where the document shows it: method and path from openapi.yaml (spec/operations.ts). */
const documented = (op: OperationId) => ({ op, method: OPERATIONS[op].method, path: OPERATIONS[op].path });
type Pair = readonly [name: Name, canonical: string];
const same = (...names: string[]): Pair[] => names.map((n) => [n, n] as const);
const bounds = (n: {
  created_after: Name;
  created_before: Name;
  updated_after: Name;
  updated_before: Name;
}): Pair[] => [
  [n.created_after, 'created_after'],
  [n.created_before, 'created_before'],
  [n.updated_after, 'updated_after'],
  [n.updated_before, 'updated_before'],
];
const BOUND_NAMES = ['created_after', 'created_before', 'updated_after', 'updated_before'];
const DOCUMENTED_BOUNDS = bounds({
  created_after: 'filter_by_created_after',
  created_before: 'filter_by_created_before',
  updated_after: 'filter_by_updated_after',
  updated_before: 'filter_by_updated_before',
});

/**
 * The wire -> canonical table of one place of a route: every alias of a name maps to its canonical
 * name. A wire name declared for two different things would make requests ambiguous: the profile is
 * refused when the fake starts (own properties only, so __proto__ is a name like any other).
 */
function fields(where: string, pairs: readonly Pair[]): Record<string, string> {
  const out = new Map<string, string>();
  for (const [name, canonical] of pairs) {
    for (const wire of allNames(name)) {
      const taken = out.get(wire);
      if (taken !== undefined && taken !== canonical)
        throw new Error(`profile names: ${wire} is declared for both ${taken} and ${canonical} in ${where}`);
      out.set(wire, canonical);
    }
  }
  return Object.fromEntries(out);
}

/** Note create fields the document gives no null; with null_fields: absent a null reads as not sent. */
const NOTE_CREATE_OPTIONAL = ['collection_ids', 'collection_titles', 'created_at', 'updated_at', 'id'];

/** The route table of one instance: documented paths, plus the endpoints and names its profile chose. */
export function buildRoutes(names: Names, endpoints: Endpoints): Route[] {
  const list = names.notes_list;
  const search = names.notes_search;
  const collList = names.collections_list;
  const collSearch = names.collections_search;
  const capture = names.capture;
  const extra = (
    decl: EndpointDecl,
    op: OperationId,
    run: Route['run'],
    body?: readonly Pair[],
    more: Partial<Route> = {},
  ): Route => ({
    op,
    method: decl.method,
    path: decl.path,
    query: {},
    ...(body ? { body: fields(`the body of ${decl.method} ${decl.path}`, body) } : {}),
    ...more,
    run,
  });
  const noteCreateFields = same('content', 'collection_ids', 'collection_titles', 'created_at', 'updated_at', 'id');
  return [
    {
      ...documented('createNote'),
      query: {},
      body: fields('the body of POST /v2/notes', noteCreateFields),
      nullable: NOTE_CREATE_OPTIONAL,
      run: (ctx, c) => createNote(ctx, c.user, c.body),
    },
    // The capture operation of the document's history (asynchronous in /v2); its endpoint and
    // fields are the profile's. Accepted at once, filed as a note afterwards (service/capture.ts).
    extra(
      endpoints.capture,
      'captureNote',
      (ctx, c) => acceptCapture(ctx, c.user, c.body),
      [
        [capture.input, 'input'],
        [capture.instructions, 'instructions'],
        [capture.context, 'context'],
        [capture.timestamp, 'timestamp'],
      ],
      { nullable: CAPTURE_OPTIONAL, notShown: ['input', 'instructions', 'context', 'timestamp'] },
    ),
    {
      ...documented('listNotes'),
      query: fields('the query of GET /v2/notes', [
        ...same('limit', 'order_by'),
        ...DOCUMENTED_BOUNDS,
        [list.cursor, 'cursor'],
        [list.collection, 'collection'],
        [list.contains_open_tasks, 'open_tasks'],
        [list.contains_tasks, 'tasks'],
        [list.contains_images, 'images'],
        [list.contains_files, 'files'],
        [list.include_content, 'include_content'],
      ]),
      notShown: ['cursor', 'collection', 'open_tasks', 'tasks', 'images', 'files', 'include_content'],
      run: (ctx, c) => listNotes(ctx, c.user, c.query),
    },
    {
      ...documented('searchNotes'),
      query: fields('the query of POST /v2/notes/search', same('limit', 'offset', 'snapshot_id')),
      body: fields('the body of POST /v2/notes/search', [
        ...same('query'),
        ...DOCUMENTED_BOUNDS,
        [search.collections, 'collections'],
        [search.contains_open_tasks, 'open_tasks'],
        [search.contains_tasks, 'tasks'],
        [search.contains_images, 'images'],
        [search.contains_files, 'files'],
        [search.response_shape, 'response_shape'],
      ]),
      inner: {
        response_shape: fields(`the response-shape object ${primaryName(search.response_shape)}`, [
          [search.response_shape_fields.include_content, 'include_content'],
          [search.response_shape_fields.include_snippet, 'include_snippet'],
        ]),
      },
      notShown: [
        ...['collections', 'open_tasks', 'tasks', 'images', 'files', 'response_shape'],
        ...['response_shape.include_content', 'response_shape.include_snippet'],
      ],
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
      body: fields('the body of PATCH /v2/notes/{note_id}', same('content', 'version', 'updated_at')),
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
      body: fields('the body of set-created-at', same('created_at')),
      run: (ctx, c) => setNoteCreatedAt(ctx, c.user, c.params.note_id!, c.body),
    },
    {
      ...documented('getRelatedNotes'),
      query: fields('the query of related notes', same('limit')),
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
      body: fields('the body of POST /v2/collections', same('title', 'description', 'id', 'created_at', 'updated_at')),
      run: (ctx, c) => createCollection(ctx, c.user, c.body),
    },
    {
      ...documented('listCollections'),
      query: fields('the query of GET /v2/collections', [
        ...same('limit', 'order_by'),
        [collList.cursor, 'cursor'],
        ...bounds(collList),
      ]),
      notShown: ['cursor', ...BOUND_NAMES],
      run: (ctx, c) => listCollections(ctx, c.user, c.query),
    },
    {
      ...documented('searchCollections'),
      query: {},
      body: fields('the body of POST /v2/collections/search', [[collSearch.query, 'query'], ...bounds(collSearch)]),
      notShown: BOUND_NAMES,
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
      body: fields('the body of PATCH /v2/collections/{collection_id}', same('title', 'description', 'updated_at')),
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
      body: fields('the body of move', same('target_collection_id')),
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
      same('attachment_id', 'attachment_kind', 'question'),
    ),
  ];
}
