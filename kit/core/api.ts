import { randomUUID } from 'node:crypto';
import { OPERATIONS, type OperationId } from '../../spec/operations.js';
import { type EndpointDecl, type Name, type Profile, primaryName } from '../../spec/profile.js';
import { operationNotInForce } from '../../spec/revisions.js';
import type { SchemaRegistry } from '../../spec/schemas.js';
import {
  isCreateCapReached,
  isKitError,
  isQuotaSpent,
  KitError,
  NotInRevision,
  QuotaSpent,
  quotaWords,
  Undeclared,
} from '../../spec/verdicts.js';
import { operationOf } from './behaviour/inputs.js';
import { TargetUnavailable } from './breaker.js';
import type { Exchange, SendOptions, TargetClient } from './client.js';
import type { Ledger, Owner } from './ledger.js';
import type { ExchangeObserver } from './observer.js';
import type { CreatedKind, CreateGuard } from './quota.js';
import { tracked } from './signals.js';

type Query = Record<string, string | number | boolean | undefined>;
/** What a request means in the kit's own words, for the oracle: its path parameters and its input before wire names. */
interface Meaning {
  params?: Record<string, string>;
  input?: Record<string, unknown>;
}
type Body = Record<string, unknown>;

export interface ListNotesQuery {
  limit?: number | string;
  order_by?: string;
  cursor?: string;
  collection?: string;
  include_content?: boolean | string;
  created_after?: string;
  created_before?: string;
  updated_after?: string;
  updated_before?: string;
  open_tasks?: boolean;
  tasks?: boolean;
  images?: boolean;
  files?: boolean;
}
export interface SearchNotesBody {
  query?: unknown;
  collections?: unknown;
  response_shape?: unknown;
  created_after?: string;
  created_before?: string;
  updated_after?: string;
  updated_before?: string;
  open_tasks?: boolean;
  tasks?: boolean;
  images?: boolean;
  files?: boolean;
}
/** The capture operation's request, under canonical names (the profile's names.capture rename them). */
export interface CaptureBody {
  input?: unknown;
  instructions?: unknown;
  context?: unknown;
  timestamp?: unknown;
}
export interface ListCollectionsQuery {
  limit?: number | string;
  order_by?: string;
  cursor?: string;
  created_after?: string;
  created_before?: string;
  updated_after?: string;
  updated_before?: string;
}
export interface SearchCollectionsBody {
  query?: unknown;
  created_after?: string;
  created_before?: string;
  updated_after?: string;
  updated_before?: string;
}

const BOUNDS = ['created_after', 'created_before', 'updated_after', 'updated_before'] as const;
const CONTAINS = {
  open_tasks: 'contains_open_tasks',
  tasks: 'contains_tasks',
  images: 'contains_images',
  files: 'contains_files',
} as const;

/**
 * Method and path of a documented operation (spec/operations.ts, from openapi.yaml), the path's
 * template filled with the values as given: a check may name a malformed id on purpose.
 */
function at(op: OperationId, params: Readonly<Record<string, string>> = {}): { method: string; path: string } {
  const { method, path } = OPERATIONS[op];
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${op} needs the path parameter ${name}`);
    return value;
  });
  return { method, path: filled };
}

/**
 * The API of the document, spoken with the target's names (its profile) for one user. Creates
 * and deletes go into the cleanup ledger; every 200 body is checked against its schema and the
 * problems are kept on the exchange for the shape rules.
 */
/** A request as the check writes it (Api.raw): method, path and body as given, credentials as asked. */
type RawRequest = Omit<SendOptions, 'token'> & {
  token?: string | null;
  unknownToken?: boolean;
  /** The documented operation the request stands for, where it is one sent otherwise (without credentials, say). */
  op?: string;
};

export class Api {
  constructor(
    private readonly client: TargetClient,
    private readonly profile: Profile,
    private readonly schemas: SchemaRegistry,
    private readonly ledger: Ledger,
    readonly token: string,
    readonly owner: Owner,
    private readonly strict: boolean,
    /** The run's caps and spent quotas (absent: creates are neither counted nor capped). */
    private readonly guard?: CreateGuard,
    /** A user whose quota is the thing under test: its quota refusals are answers to judge, not a reason to stop. */
    private readonly quotaUnderTest = false,
    /** Told of every request and its answer (the run's oracle, kit/core/oracle/). */
    private readonly observer?: ExchangeObserver,
    /** --as-of: an operation that entered the API later is not sent (NotInRevision; spec/revisions.ts). */
    private readonly asOf?: string,
  ) {}

  /** The target's names where the document shows none (the profile's `names`). */
  get profileNames(): NonNullable<Profile['names']> {
    return this.profile.names ?? {};
  }

  /** The same API as another user. */
  as(token: string, owner: Owner, options: { quotaUnderTest?: boolean } = {}): Api {
    return new Api(
      this.client,
      this.profile,
      this.schemas,
      this.ledger,
      token,
      owner,
      this.strict,
      this.guard,
      options.quotaUnderTest === true,
      this.observer,
      this.asOf,
    );
  }

  // ---- notes ----
  async createNote(body: unknown) {
    this.guard?.beforeCreate(this.token, 'note', this.quotaUnderTest);
    const x = await this.unlessUnanswered('note', body, () =>
      this.send('createNote', { ...at('createNote'), json: body }),
    );
    this.noteCreated(x, 'note', body);
    await this.afterCreate(x, 'note');
    return x;
  }
  getNote(id: string) {
    return this.send('getNote', at('getNote', { note_id: id }), { params: { note_id: id } });
  }
  updateNote(id: string, body: unknown) {
    return this.send('updateNote', { ...at('updateNote', { note_id: id }), json: body }, { params: { note_id: id } });
  }
  setCreatedAt(id: string, body: unknown) {
    return this.send(
      'setNoteCreatedAt',
      { ...at('setNoteCreatedAt', { note_id: id }), json: body },
      { params: { note_id: id } },
    );
  }
  async deleteNote(id: string) {
    const x = await this.send('deleteNote', at('deleteNote', { note_id: id }), { params: { note_id: id } });
    if ((x.status >= 200 && x.status < 300) || this.goneFor(x, 'note', id))
      this.ledger.deleted('note', id, x.status === 404);
    return x;
  }
  async trashNote(id: string) {
    const x = await this.send('trashNote', at('trashNote', { note_id: id }), { params: { note_id: id } });
    if (x.status >= 200 && x.status < 300) this.ledger.trashed('note', id);
    return x;
  }
  restoreNote(id: string) {
    return this.sendEndpoint('restoreNote', 'restore_note', { note_id: id });
  }
  /** A list of one note sent at once, unpaced, a rate-limited answer returned as it is: what fills a bucket. */
  quickRead() {
    return this.raw({
      method: 'GET',
      path: '/v2/notes',
      query: { limit: 1 },
      acceptRateLimited: true,
      ignoreRemaining: true,
    });
  }
  listNotes(q: ListNotesQuery = {}) {
    const names = this.profile.names?.notes_list ?? {};
    const query: Query = { limit: q.limit, order_by: q.order_by };
    for (const b of BOUNDS) query[`filter_by_${b}`] = q[b];
    if (q.cursor !== undefined) query[this.name(names.cursor, 'names.notes_list.cursor')] = q.cursor;
    if (q.collection !== undefined) query[this.name(names.collection, 'names.notes_list.collection')] = q.collection;
    if (q.include_content !== undefined)
      query[this.name(names.include_content, 'names.notes_list.include_content')] = q.include_content;
    for (const [k, wire] of Object.entries(CONTAINS)) {
      const value = q[k as keyof typeof CONTAINS];
      if (value !== undefined) query[this.name(names[wire], `names.notes_list.${wire}`)] = value;
    }
    return this.send('listNotes', { ...at('listNotes'), query }, { input: { ...q } });
  }
  searchNotes(q: { limit?: number | string; offset?: number | string; snapshot_id?: string }, b: SearchNotesBody) {
    const names = this.profile.names?.notes_search ?? {};
    const body: Body = {};
    if (b.query !== undefined) body.query = b.query;
    for (const k of BOUNDS) if (b[k] !== undefined) body[`filter_by_${k}`] = b[k];
    if (b.collections !== undefined)
      body[this.name(names.collections, 'names.notes_search.collections')] = b.collections;
    if (b.response_shape !== undefined)
      body[this.name(names.response_shape, 'names.notes_search.response_shape')] = this.responseShape(b.response_shape);
    for (const [k, wire] of Object.entries(CONTAINS)) {
      const value = b[k as keyof typeof CONTAINS];
      if (value !== undefined) body[this.name(names[wire], `names.notes_search.${wire}`)] = value;
    }
    return this.send('searchNotes', { ...at('searchNotes'), query: q, json: body }, { input: { query: q, body: b } });
  }
  /**
   * The capture operation (endpoints.capture) with the profile's field names (names.capture): the
   * document names the operation, and shows neither its endpoint nor its fields.
   */
  async capture(b: CaptureBody) {
    const names = this.profile.names?.capture ?? {};
    const body: Body = {};
    for (const field of ['input', 'instructions', 'context', 'timestamp'] as const)
      if (b[field] !== undefined) body[this.name(names[field], `names.capture.${field}`)] = b[field];
    // A capture files a note: the run's cap counts it as one.
    this.guard?.beforeCreate(this.token, 'note', this.quotaUnderTest);
    const x = await this.sendEndpoint('captureNote', 'capture', {}, body, { ...b });
    await this.afterCreate(x, 'note');
    return x;
  }
  relatedNotes(id: string, q: { limit?: number | string } = {}) {
    return this.send(
      'getRelatedNotes',
      { ...at('getRelatedNotes', { note_id: id }), query: q },
      { params: { note_id: id }, input: { ...q } },
    );
  }

  // ---- collections ----
  async createCollection(body: unknown) {
    this.guard?.beforeCreate(this.token, 'collection', this.quotaUnderTest);
    const x = await this.unlessUnanswered('collection', body, () =>
      this.send('createCollection', { ...at('createCollection'), json: body }),
    );
    this.noteCreated(x, 'collection', body);
    await this.afterCreate(x, 'collection');
    return x;
  }
  getCollection(id: string) {
    return this.send('getCollection', at('getCollection', { collection_id: id }), { params: { collection_id: id } });
  }
  updateCollection(id: string, body: unknown) {
    return this.send(
      'updateCollection',
      { ...at('updateCollection', { collection_id: id }), json: body },
      { params: { collection_id: id } },
    );
  }
  async deleteCollection(id: string) {
    const x = await this.send('deleteCollection', at('deleteCollection', { collection_id: id }), {
      params: { collection_id: id },
    });
    if ((x.status >= 200 && x.status < 300) || this.goneFor(x, 'collection', id))
      this.ledger.deleted('collection', id, x.status === 404);
    return x;
  }

  /**
   * Whether a 404 to a delete means the resource is already gone: only when its owner asked (a
   * server may answer 404 to another user to hide what exists), and not for something the run
   * trashed (it may sit in the trash).
   */
  private goneFor(x: Exchange, kind: 'note' | 'collection', id: string): boolean {
    return x.status === 404 && this.ledger.ownerOf(kind, id) === this.owner && !this.ledger.isTrashed(kind, id);
  }
  async trashCollection(id: string) {
    const x = await this.sendEndpoint('trashCollection', 'trash_collection', { collection_id: id });
    if (x.status >= 200 && x.status < 300) this.ledger.trashed('collection', id);
    return x;
  }
  listCollections(q: ListCollectionsQuery = {}) {
    const names = this.profile.names?.collections_list ?? {};
    const query: Query = { limit: q.limit, order_by: q.order_by };
    if (q.cursor !== undefined) query[this.name(names.cursor, 'names.collections_list.cursor')] = q.cursor;
    for (const b of BOUNDS) if (q[b] !== undefined) query[this.name(names[b], `names.collections_list.${b}`)] = q[b];
    return this.send('listCollections', { ...at('listCollections'), query }, { input: { ...q } });
  }
  searchCollections(b: SearchCollectionsBody) {
    const names = this.profile.names?.collections_search ?? {};
    const body: Body = {};
    if (b.query !== undefined) body[this.name(names.query, 'names.collections_search.query')] = b.query;
    for (const k of BOUNDS) if (b[k] !== undefined) body[this.name(names[k], `names.collections_search.${k}`)] = b[k];
    return this.send('searchCollections', { ...at('searchCollections'), json: body }, { input: { ...b } });
  }

  // ---- membership ----
  addToCollection(collectionId: string, noteId: string) {
    return this.send(
      'addNoteToCollection',
      at('addNoteToCollection', { collection_id: collectionId, note_id: noteId }),
      { params: { collection_id: collectionId, note_id: noteId } },
    );
  }
  moveNote(sourceId: string, noteId: string, body: unknown) {
    return this.send(
      'moveNote',
      { ...at('moveNote', { source_collection_id: sourceId, note_id: noteId }), json: body },
      { params: { source_collection_id: sourceId, note_id: noteId } },
    );
  }
  removeFromCollection(collectionId: string, noteId: string) {
    return this.sendEndpoint('removeNoteFromCollection', 'remove_note_from_collection', {
      collection_id: collectionId,
      note_id: noteId,
    });
  }
  askQuestion(attachmentId: string, body: unknown) {
    return this.sendEndpoint('askAttachmentQuestion', 'attachment_question', { attachment_id: attachmentId }, body);
  }

  /**
   * Any request as this user (or with other credentials): for auth and bad-input checks.
   * `unknownToken` says the token sent is one the kit made up, so the oracle may judge its refusal.
   */
  raw(request: RawRequest): Promise<Exchange> {
    // Thrown here, not as a rejection: a check that starts several requests before it awaits them
    // ends at the first, and leaves no unawaited rejection behind.
    this.inRevision(request.op ?? operationOf(request.method, request.path));
    return this.sendRaw(request);
  }

  private async sendRaw({ unknownToken, op, ...opts }: RawRequest): Promise<Exchange> {
    const ownToken = opts.token === undefined && opts.authorization === undefined;
    const raw = opts.raw === undefined ? undefined : parsed(opts.raw);
    const pending = this.observer?.sending({
      op,
      actor: this.owner,
      ownToken,
      ...(opts.token === null && opts.authorization === undefined ? { noCredentials: true } : {}),
      // A token the kit made up, or an Authorization header that is not this user's bearer token.
      ...((unknownToken && typeof opts.token === 'string') ||
      (opts.authorization !== undefined && opts.authorization !== `Bearer ${this.token}`)
        ? { unknownToken: true }
        : {}),
      ...(raw === MALFORMED ? { malformedBody: true } : {}),
      method: opts.method,
      path: opts.path,
      params: {},
      ...(opts.json !== undefined ? { body: opts.json } : raw !== undefined && raw !== MALFORMED ? { body: raw } : {}),
    });
    const asMe = opts.token === undefined && opts.authorization === undefined && opts.method === 'POST';
    // What the create sent, raw text too: the final sweep recognises an unconfirmed create by it.
    const sent = opts.json ?? (raw === MALFORMED ? undefined : raw);
    const creates =
      asMe && opts.path === OPERATIONS.createNote.path
        ? 'note'
        : asMe && opts.path === OPERATIONS.createCollection.path
          ? 'collection'
          : undefined;
    let x: Exchange;
    try {
      const send = () =>
        tracked(() => this.client.send({ ...opts, token: opts.token === undefined ? this.token : opts.token }));
      // A create whose answer never came whole may have made something: journaled for the sweep.
      x = creates ? await this.unlessUnanswered(creates, sent, send) : await send();
    } catch (error) {
      if (pending) this.observer!.unanswered(pending);
      throw error;
    }
    // A raw request with this user's credentials is the operation its path names: the oracle judges
    // its answer's shape as that operation's, so the shape is checked as for any other.
    const shapeOf =
      ownToken && raw !== MALFORMED ? (op ?? operationOf(opts.method, opts.path.split('?')[0]!)) : undefined;
    if (shapeOf) this.checkShape(shapeOf, x);
    if (pending) this.observer!.answered(pending, x);
    // A target that wrongly accepts a malformed create as this user still gets the result deleted.
    if (creates) {
      this.noteCreated(x, creates, sent);
      await this.afterCreate(x, creates);
    }
    return x;
  }

  // ---- plumbing ----
  /** --as-of: the check cannot use an operation the API did not have then (the check wrapper skips it). */
  private inRevision(operationId: string | undefined): void {
    const newer = operationId === undefined ? undefined : operationNotInForce(operationId, this.asOf);
    if (newer) throw new NotInRevision(newer);
  }

  /**
   * Counts a create, and stops on the documented quota refusal: the account's quota is spent, so
   * the check cannot judge its rule (QuotaSpent: error, never fail). The run's first natural
   * refusal is kept, with a refused create of a fresh id and a read of that id, so that the quota
   * rules can be judged from it without the fixture API.
   */
  private async afterCreate(x: Exchange, kind: CreatedKind): Promise<void> {
    if (!this.guard) return;
    const quota = this.guard.afterCreate(this.token, kind, x, this.quotaUnderTest);
    if (!quota) return;
    if (!this.guard.naturalRefusal) {
      const refusedId = randomUUID();
      const refusal = await this.send('createNote', {
        ...at('createNote'),
        json: { id: refusedId, content: 'notes-conformance quota probe' },
      });
      this.noteCreated(refusal, 'note');
      const readAfter = await this.getNote(refusedId);
      if (refusal.status >= 400) this.guard.recordNatural({ refusal, refusedId, readAfter });
    }
    throw new QuotaSpent(`not judged: ${quotaWords(quota)}; no new notes can be created for this check`);
  }

  private async send<Op extends string>(
    operationId: Op,
    opts: Omit<SendOptions, 'token'>,
    meaning: Meaning = {},
  ): Promise<Exchange<Op>> {
    this.inRevision(operationId);
    const pending = this.observer?.sending({
      op: operationId,
      actor: this.owner,
      ownToken: true,
      method: opts.method,
      path: opts.path,
      params: meaning.params ?? {},
      ...(meaning.input ? { input: meaning.input } : {}),
      ...(opts.json === undefined ? {} : { body: opts.json }),
    });
    let exchange: Exchange;
    try {
      exchange = await tracked(() => this.client.send({ ...opts, token: this.token }));
    } catch (error) {
      // No answer: the request may or may not have changed something; the oracle forgets what it named.
      if (pending) this.observer!.unanswered(pending);
      throw error;
    }
    this.checkShape(operationId, exchange);
    if (pending) this.observer!.answered(pending, exchange);
    return exchange as Exchange<Op>;
  }

  /**
   * A 2xx body against its operation's schema in spec/, and a quota_exceeded refusal against the
   * documented QuotaExceededError: the problems stay on the exchange (the shape rules).
   */
  private checkShape(operationId: string, exchange: Exchange): void {
    const error = (exchange.json as { error?: { type?: unknown } } | undefined)?.error;
    if (exchange.status >= 400 && error?.type === 'quota_exceeded') {
      const problems = this.schemas.validate('QuotaExceededError', exchange.json, { strict: this.strict });
      if (problems.length > 0) exchange.schemaProblems = problems;
      return;
    }
    if (exchange.status < 200 || exchange.status >= 300) return;
    const schema = this.schemas.responseSchemaOf(operationId);
    if (!schema) return;
    const problems =
      exchange.json === undefined
        ? ['the body is not JSON']
        : this.schemas.validate(schema, exchange.json, { strict: this.strict });
    if (problems.length > 0) exchange.schemaProblems = problems;
  }

  private sendEndpoint<Op extends string>(
    operationId: Op,
    field: keyof NonNullable<Profile['endpoints']>,
    params: Record<string, string>,
    json?: unknown,
    input?: Record<string, unknown>,
  ): Promise<Exchange<Op>> {
    const decl: EndpointDecl | undefined = this.profile.endpoints?.[field];
    if (!decl) throw new Undeclared(`the profile declares no endpoints.${field}`);
    const path = decl.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined)
        throw new KitError(`endpoints.${field} uses {${name}}, which this operation does not supply`);
      return encodeURIComponent(value);
    });
    return this.send(
      operationId,
      { method: decl.method, path, ...(json === undefined ? {} : { json }) },
      { params, ...(input ? { input } : {}) },
    );
  }

  /** The name the kit sends: the first of the declared name's aliases. */
  private name(value: Name | undefined, field: string): string {
    const name = primaryName(value);
    if (name === undefined) throw new Undeclared(`the profile declares no ${field}`);
    return name;
  }

  /**
   * The response-shape object with its known fields (include_content, include_snippet) under the
   * profile's names; anything else (a non-object, other keys) is sent as given, for bad-input checks.
   */
  private responseShape(shape: unknown): unknown {
    if (shape === null || typeof shape !== 'object' || Array.isArray(shape)) return shape;
    const fields = this.profile.names?.notes_search?.response_shape_fields ?? {};
    const out: Body = {};
    for (const [key, value] of Object.entries(shape)) {
      const known = key === 'include_content' || key === 'include_snippet' ? key : undefined;
      out[known ? this.name(fields[known], `names.notes_search.response_shape_fields.${known}`) : key] = value;
    }
    return out;
  }

  private noteCreated(exchange: Exchange, kind: 'note' | 'collection', sent?: unknown): void {
    const id = exchange.createdId;
    const ok = exchange.status >= 200 && exchange.status < 300;
    // Whatever the id looks like (not a UUID, a number): the cleanup deletes it by that id.
    if (ok && id !== undefined) this.ledger.created(kind, id, this.owner);
    // A success without an id, an unreadable one or a server error: the resource may exist (ledger.ts "uncertain").
    else if (ok || exchange.status >= 500) this.ledger.uncertain(kind, sentId(sent), this.owner, sent);
    // Refused: a target may store it all the same, which the final sweep's listing finds (kit/sweep.ts).
    else if (exchange.status >= 400 && exchange.status !== 429)
      this.ledger.uncertain(kind, sentId(sent), this.owner, sent, 'refused');
  }

  /** A create that got no answer may still have been made: the ledger says so before the error goes on. */
  private async unlessUnanswered<T>(kind: 'note' | 'collection', body: unknown, send: () => Promise<T>): Promise<T> {
    const sentBefore = this.client.sent;
    try {
      return await send();
    } catch (error) {
      // Only a request that went out may have made something (not one refused before sending:
      // the run stopped, a budget spent, the breaker open).
      const wentOut = this.client.sent > sentBefore;
      // A rate limit's 429 made nothing either: the target refused the request.
      const refused = error instanceof TargetUnavailable && error.why === 'rate-limited';
      if (wentOut && !refused && isKitError(error) && !isCreateCapReached(error) && !isQuotaSpent(error))
        this.ledger.uncertain(kind, sentId(body), this.owner, body);
      throw error;
    }
  }
}

const MALFORMED = Symbol('not JSON');

/** A raw body as the JSON it is, or MALFORMED. */
function parsed(raw: string | Uint8Array): unknown {
  try {
    return JSON.parse(typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8'));
  } catch {
    return MALFORMED;
  }
}

/** The id the kit itself gave a create (create-only ids), if it gave one. */
function sentId(body: unknown): string | undefined {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}
