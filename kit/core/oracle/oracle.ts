import type { ErrorBodyShape } from '../../../spec/error-body.js';
import type { RefusalKind } from '../../../spec/profile.js';
import type { ContentMarkers } from '../behaviour/content-kinds.js';
import { predict } from '../behaviour/predict.js';
import { objectOf, resolved, touchesOf } from '../behaviour/request.js';
import { World } from '../behaviour/state.js';
import type { Exchange } from '../client.js';
import { Coverage } from '../explore/coverage.js';
import { listCollections, searchCollections } from './collection-pages.js';
import { judgePrediction } from './compare.js';
import { conventions } from './conventions.js';
import type { Env } from './env.js';
import { type DeclaredRateLimitHeaders, RateLimitHeaders, type RateLimitHeadersRecord } from './headers.js';
import { type Judged, Judgements } from './judge.js';
import { listNotes, relatedNotes, Snapshots, searchNotes } from './note-pages.js';
import { type ExchangeObserver, kept, type Observation, type Pending, type Sent } from './observation.js';
import { judgeOrder } from './order.js';
import { Traversals } from './traversals.js';

/** The operations whose effect on the state the predictions know (any other accepted write makes what it names unknown). */
const KNOWN = new Set([
  'createNote',
  'updateNote',
  'setNoteCreatedAt',
  'trashNote',
  'restoreNote',
  'deleteNote',
  'getNote',
  'createCollection',
  'updateCollection',
  'deleteCollection',
  'getCollection',
  'addNoteToCollection',
  'moveNote',
  'removeNoteFromCollection',
]);

export interface OracleOptions {
  /** The step to which the target keeps instants (timestamp_precision_ms). */
  precisionMs: number;
  /** How long search and related notes may lag a write (search_index_lag_ms). */
  lagMs: number;
  /** Removes the run's secrets from the oracle's messages (the client's redaction). */
  redact?: (text: string) => string;
  /** An exchange as it may leave the worker (the client's forEvidence: redacted again). */
  evidence?: (x: Exchange) => Exchange;
  /** How far the target's clock may be from the kit's (clock_tolerance_ms); 2,000 ms unless given. */
  clockToleranceMs?: number;
  /** The refusal statuses the profile declares: only these are judged beyond "a 4xx". */
  statuses?: Readonly<Partial<Record<RefusalKind, number>>>;
  /** The refusal body the profile declares (error_body). */
  errorBody?: ErrorBodyShape;
  /** The list direction the profile declares (list_order). */
  listOrder?: 'newest_first' | 'oldest_first';
  /** The rate-limit header names and operations the profile declares (capabilities.rate_limit_headers). */
  rateLimitHeaders?: DeclaredRateLimitHeaders;
  /** The markup the profile says the target counts as each contains kind (content_markers). */
  contentMarkers?: ContentMarkers;
}

/** One worker's oracle as data (Oracle.record()), for the run command (kit/oracle-verdicts.ts). */
export interface OracleRecord {
  readonly judged: Judged[];
  readonly headers: RateLimitHeadersRecord;
  /** Requests of the worker that got no answer: what they did is unknown, so the worker did not see the run whole. */
  readonly unanswered: number;
  /** Per operation: the statuses it was answered with (a rule's positive control, kit/oracle-verdicts.ts). */
  readonly operations?: OperationTally;
  /** The behaviour targets the worker's answers visited (spec/behaviour-space.yaml). */
  readonly coverage?: readonly string[];
  /** What the worker's explorer sent (absent: none ran in this worker). */
  readonly explored?: { readonly requests: number; readonly budgetSpent: boolean };
}

/** Per operation id: how many answers of each status. */
export type OperationTally = Record<string, Record<string, number>>;

/**
 * The run-wide response oracle: every exchange the API layer sends passes through it. It keeps the
 * shadow of what the run established (kit/core/behaviour/state.ts) and judges each answer against
 * everything known, under the rule each judgement belongs to. It never sends a request, and it
 * stays silent where the document leaves a choice open: ranking, names and statuses of the
 * profile, results within the index lag, a membership change's effect on version and updated_at.
 * Each check worker has one; the run command joins their records into the report.
 */
export class Oracle implements ExchangeObserver {
  readonly world = new World();
  /** Behaviour coverage of the answers this oracle saw (the explorer plans from it). */
  readonly coverage = new Coverage();
  /** Set by the explorer when it ends (kit/core/explore/). */
  explored: { requests: number; budgetSpent: boolean } | undefined;
  readonly judgements: Judgements;
  private readonly env: Env;
  private readonly traversals = new Traversals();
  private readonly snapshots = new Snapshots();
  /** What the primary user's pages handed out, for the isolation replay (replay.ts): a few of each. */
  readonly learned = {
    cursors: [] as Array<{ cursor: string; input: Record<string, unknown> }>,
    snapshots: [] as Array<{ snapshotId: string; body: Record<string, unknown>; offset: number }>,
  };

  private readonly headers: RateLimitHeaders;

  constructor(options: OracleOptions) {
    const evidence = options.evidence ?? ((x: Exchange) => x);
    this.judgements = new Judgements(options.redact, (x) => evidence(kept(x)));
    this.headers = new RateLimitHeaders(options.rateLimitHeaders, options.statuses?.rate_limited);
    this.env = {
      world: this.world,
      j: this.judgements,
      precisionMs: options.precisionMs,
      lagMs: options.lagMs,
      clockToleranceMs: options.clockToleranceMs ?? 2_000,
      statuses: options.statuses ?? {},
      ...(options.errorBody ? { errorBody: options.errorBody } : {}),
      requestIds: new Map(),
      searchFound: new Map(),
      ...(options.listOrder ? { listOrder: options.listOrder } : {}),
      ...(options.contentMarkers ? { contentMarkers: options.contentMarkers } : {}),
    };
  }

  sending(given: Sent): Pending {
    // A raw request with the actor's own credentials is the operation its path names.
    const sent = given.ownToken && !given.malformedBody ? resolved(given) : given;
    const touches = this.widen(touchesOf(sent));
    this.world.writeStarted(touches);
    return { sent, touches, startSeq: this.world.tick(), startedAt: Date.now() };
  }

  /** What each operation was answered with: an operation never accepted makes its refusals prove nothing. */
  readonly operations: OperationTally = {};
  /** The answers counted in operations, in all (the explorer's budget asks before each request). */
  answeredCount = 0;

  answered(pending: Pending, x: Exchange): void {
    const endSeq = this.world.tick();
    if (pending.sent.op !== undefined) {
      const statuses = (this.operations[pending.sent.op] ??= {});
      statuses[x.status] = (statuses[x.status] ?? 0) + 1;
      this.answeredCount++;
    }
    const o: Observation = {
      ...pending.sent,
      x,
      ev: kept(x),
      startSeq: pending.startSeq,
      endSeq,
      startedAt: pending.startedAt,
      endedAt: Date.now(),
    };
    try {
      this.observe(o);
    } finally {
      this.world.writeEnded(pending.touches, endSeq, o.endedAt);
    }
  }

  /** Requests of the run that got no answer (timeout, a dead target, a budget): the oracle did not see the run whole. */
  unansweredCount = 0;

  unanswered(pending: Pending): void {
    this.unansweredCount++;
    const endSeq = this.world.tick();
    for (const id of pending.touches.notes) {
      const n = this.world.notes.get(id);
      if (n) this.world.forgetNote(n);
    }
    for (const id of pending.touches.collections) {
      const c = this.world.collections.get(id);
      if (c) this.world.forgetCollection(c);
    }
    this.world.writeEnded(pending.touches, endSeq, Date.now());
  }

  touchedByFixture(kind: 'note' | 'collection' | 'user', id: string): void {
    const { world } = this;
    if (kind === 'note') {
      const n = world.notes.get(id);
      if (n) world.forgetNote(n);
    } else if (kind === 'collection') {
      const c = world.collections.get(id);
      if (c) world.forgetCollection(c);
    } else {
      // A fixture user's data goes with it: the run no longer knows what held its notes.
      for (const n of [...world.notes.values()])
        if (n.owner === `user:${id}`) {
          world.forgetLinks(n);
          world.notes.delete(n.id);
        }
      for (const c of [...world.collections.values()]) if (c.owner === `user:${id}`) world.forgetCollection(c);
    }
  }

  granted(resource: 'note' | 'collection', id: string, userId: string, level: string): void {
    const key = `${resource} ${id} user:${userId}`;
    this.coverage.granted(resource, id, `user:${userId}`, level);
    this.world.grants.set(key, [...(this.world.grants.get(key) ?? []), level]);
    if (resource === 'collection') this.world.collectionGrantees.add(`user:${userId}`);
    else {
      const shared = this.world.sharedWith.get(`user:${userId}`) ?? new Map<string, number>();
      if (!shared.has(id)) shared.set(id, this.world.tick());
      this.world.sharedWith.set(`user:${userId}`, shared);
    }
  }

  attachmentAdded(noteId: string, attachmentId: string): void {
    this.world.attachments.set(attachmentId, noteId);
  }

  quotaSet(userId: string, limit: number): void {
    this.world.quotas.set(`user:${userId}`, { limit, created: 0 });
  }

  /** What this oracle judged so far, as data (written to the run folder as each check file ends). */
  record(): OracleRecord {
    return {
      judged: this.judgements.entries(),
      headers: this.headers.record(),
      unanswered: this.unansweredCount,
      operations: this.operations,
      coverage: [...this.coverage.covered].sort(),
      ...(this.explored ? { explored: this.explored } : {}),
    };
  }

  /**
   * Every answer: the conventions of every success and the rate-limit headers; then what the
   * document predicts of the request in the state known before it (kit/core/behaviour/predict.ts),
   * compared with the answer (compare.ts), and the state changed as the answer shows; pages, whose
   * judgements span several answers, last.
   */
  private observe(o: Observation): void {
    // In the state before the answer changed it.
    this.coverage.observe(o);
    conventions(this.env, o);
    this.headers.observe(this.judgements, o);
    const p = predict(this.world, o, this.env);
    judgePrediction(this.env, p, o);
    const status = o.x.status;
    const done = { ev: o.ev, endSeq: o.endSeq, endedAt: o.endedAt };
    if (status >= 200 && status < 300) p.accepted?.(objectOf(o.x.json), done);
    else if (status >= 400 && status < 500) p.refused?.(done, p);
    judgeOrder(this.env, o, this.traversals.peek(o.input ?? {}, o.actor)?.tail);
    seenIn(this.world.seen, o.x.json, 0);
    const page = o.op === undefined ? undefined : this.pages[o.op];
    if (page) page(o);
    else if (o.op === undefined || !KNOWN.has(o.op)) this.unknownEffect(o);
    this.learn(o);
  }

  /** Cursors and snapshot ids handed to the primary user: identifiers the isolation replay tries as the other. */
  private learn(o: Observation): void {
    if (o.actor !== 'primary' || o.x.status !== 200) return;
    const body = objectOf(o.x.json);
    const keep = <T>(list: T[], item: T) => {
      list.push(item);
      if (list.length > 10) list.shift();
    };
    if (o.op === 'listNotes' && typeof body.next_page === 'string') {
      const { cursor: _, ...input } = o.input ?? {};
      keep(this.learned.cursors, { cursor: body.next_page, input });
    }
    if (
      o.op === 'searchNotes' &&
      typeof body.snapshot_id === 'string' &&
      Array.isArray(body.results) &&
      body.results.length > 0
    )
      keep(this.learned.snapshots, { snapshotId: body.snapshot_id, body: objectOf(o.input?.body), offset: 0 });
  }

  /** The views whose judgements span several answers (walks, snapshots): note-pages.ts, collection-pages.ts. */
  private readonly pages: Readonly<Record<string, (o: Observation) => void>> = {
    listNotes: (o) => listNotes(this.env, o, this.traversals),
    searchNotes: (o) => searchNotes(this.env, o, this.snapshots),
    getRelatedNotes: (o) => relatedNotes(this.env, o),
    listCollections: (o) => listCollections(this.env, o, this.traversals),
    searchCollections: (o) => searchCollections(this.env, o),
  };

  /**
   * A request the oracle does not interpret (a raw request, a collection trash, an operation of
   * the profile's own) that was accepted: what it did to the resources it names is unknown.
   */
  private unknownEffect(o: Observation): void {
    if (o.x.status < 200 || o.x.status >= 300) return;
    const touches = touchesOf(o);
    for (const id of touches.notes) {
      const n = this.world.notes.get(id);
      if (n) this.world.forgetNote(n);
    }
    for (const id of touches.collections) {
      const c = this.world.collections.get(id);
      if (!c) continue;
      this.world.forgetCollection(c);
      // A trashed collection may leave lists and collection_ids: the run no longer knows it.
      if (o.op === 'trashCollection') {
        for (const n of this.world.notes.values()) if (n.links?.has(c.id)) this.world.forgetLinks(n);
        this.world.collections.delete(c.id);
      }
    }
  }

  /**
   * What else a write changes: a note's state changes the counts of the collections holding it,
   * and a collection's delete changes the collection_ids of the notes it held.
   */
  private widen(t: { notes: string[]; collections: string[] }): { notes: string[]; collections: string[] } {
    const notes = new Set(t.notes);
    const collections = new Set(t.collections);
    for (const id of t.notes) {
      for (const c of this.world.collections.values()) if (c.members?.has(id)) collections.add(c.id);
    }
    for (const id of t.collections) {
      for (const n of this.world.notes.values()) if (n.links?.has(id)) notes.add(n.id);
    }
    return { notes: [...notes], collections: [...collections] };
  }
}

/** Every id an answer shows (its own, its items', their collections' and collection_ids), a few levels deep. */
function seenIn(seen: Set<string>, value: unknown, depth: number): void {
  if (depth > 3 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) typeof item === 'string' ? seen.add(item) : seenIn(seen, item, depth + 1);
    return;
  }
  for (const [key, v] of Object.entries(value))
    if ((key === 'id' || key.endsWith('_id')) && typeof v === 'string') seen.add(v);
    else if (typeof v === 'object') seenIn(seen, v, depth + 1);
}
