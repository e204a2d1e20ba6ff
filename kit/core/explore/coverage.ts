import { objectOf } from '../behaviour/request.js';
import type { Observation } from '../oracle/observation.js';
import { collectionAfter, FRESH_COLLECTION, FRESH_NOTE, noteAfter } from './features.js';
import {
  afterWriteId,
  boundsId,
  callersId,
  type Features,
  inputsId,
  type Kind,
  loadSpace,
  pagingId,
  repeatId,
  type Space,
  stateTargetsOf,
  viewOf,
} from './space.js';

/** How far in the past updated_at must be for a repeated write to show whether it moves it. */
const STALE_MS = 60_000;

/**
 * Behaviour coverage from the run's traffic: which targets of spec/behaviour-space.yaml some answer
 * visited, whoever sent the request (a fixed check, a model run, the explorer). It follows the
 * state features of the resources the run created, as their answers show them, and marks a target
 * when a request was answered in it. It judges nothing.
 */
export class Coverage {
  readonly covered = new Set<string>();
  private readonly space: Space = loadSpace();
  private readonly notes = new Map<string, Features>();
  private readonly collections = new Map<string, Features>();
  /** The last accepted write of each resource, by kind and id. */
  private readonly lastWrite = new Map<string, string>();
  /** The collections of each note, as its last answer showed them. */
  private readonly linksOf = new Map<string, readonly string[]>();
  /** Accepted writes by operation, resource and value: a second one is a repeat. */
  private readonly done = new Set<string>();
  /** Each collection's title as its answers last showed it (collection_titles name collections by it). */
  private readonly titles = new Map<string, string>();
  /** Each resource's updated_at as its answers last showed it, in ms. */
  private readonly updatedAt = new Map<string, number>();
  /** Each resource's created_at and updated_at as its own answers last showed them, by `note <id>` or `collection <id>`. */
  private readonly times = new Map<string, { readonly created: number; readonly updated: number }>();
  /** Who created each resource of the run (`note <id>`, `collection <id>`). */
  private readonly owners = new Map<string, string>();
  /** The last level granted, by `note <id> <actor>` or `collection <id> <actor>`, and each fixture user's note levels. */
  private readonly grants = new Map<string, string>();
  private readonly noteLevels = new Map<string, Set<string>>();
  /** The notes each collection lost by a removal or a move out of it, and has not got back. */
  private readonly removedFrom = new Map<string, Set<string>>();

  /** The features of a note the run created, as its answers showed them (undefined: not the run's). */
  note(id: string): Readonly<Features> | undefined {
    return this.notes.get(id);
  }

  collection(id: string): Readonly<Features> | undefined {
    return this.collections.get(id);
  }

  observe(o: Observation): void {
    const op = o.op;
    if (op === undefined || !o.ownToken) return;
    const accepted = o.x.status >= 200 && o.x.status < 300;
    const body = objectOf(o.x.json);
    const noteId = o.params.note_id;
    const collId = o.params.collection_id ?? o.params.source_collection_id;
    this.visitState(op, noteId, collId);
    if (op === 'createNote') for (const id of this.titled(o)) this.visitState(op, undefined, id);
    this.repeats(op, o, accepted);
    this.callers(op, o);
    if (!accepted) return;
    if (op === 'createNote' || op === 'createCollection')
      this.owners.set(`${op === 'createNote' ? 'note' : 'collection'} ${String(body.id)}`, o.actor);
    this.inputs(op, o);
    this.bounds(op, o);
    this.paging(op, o, body);
    this.views(op, o, body);
    this.left(op, o);
    this.apply(op, o, body);
  }

  /** The fixture API granted a level (the oracle passes it on). */
  granted(resource: Kind, id: string, actor: string, level: string): void {
    this.grants.set(`${resource} ${id} ${actor}`, level);
    if (resource === 'note') this.noteLevels.set(actor, new Set([...(this.noteLevels.get(actor) ?? []), level]));
  }

  /** A request on a resource of the run by someone other than its creator: the other token user, or a grantee. */
  private callers(op: string, o: Observation): void {
    const token = (a: string) => a === 'primary' || a === 'secondary';
    const visit = (kind: Kind, id: unknown) => {
      const owner = this.owners.get(`${kind} ${String(id)}`);
      if (owner === undefined || owner === o.actor) return;
      const who = o.actor.startsWith('user:')
        ? this.grants.get(`${kind} ${String(id)} ${o.actor}`)
        : token(owner) && token(o.actor)
          ? 'stranger'
          : undefined;
      if (who && this.space.callers[kind][who]?.includes(op)) this.mark([callersId(kind, who, op)]);
    };
    visit('note', o.params.note_id);
    visit('collection', op === 'moveNote' ? objectOf(o.body).target_collection_id : o.params.collection_id);
    if (op === 'listNotes')
      for (const level of this.noteLevels.get(o.actor) ?? [])
        if (this.space.callers.note[level]?.includes(op)) this.mark([callersId('note', level, op)]);
  }

  private visitState(op: string, noteId: string | undefined, collId: string | undefined): void {
    const note = noteId === undefined ? undefined : this.notes.get(noteId);
    if (note && this.space.operations.note.includes(op)) this.mark(stateTargetsOf(op, 'note', note));
    const coll = collId === undefined ? undefined : this.collections.get(collId);
    if (coll && this.space.operations.collection.includes(op)) this.mark(stateTargetsOf(op, 'collection', coll));
  }

  /** The run's collections a create names by title. */
  private titled(o: Observation): string[] {
    const titles = objectOf(o.body).collection_titles;
    if (!Array.isArray(titles)) return [];
    const wanted = new Set(titles.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase()));
    return [...this.titles].filter(([, title]) => wanted.has(title.toLowerCase())).map(([id]) => id);
  }

  /** The same write again on the same resource with the same value (any answer to the second). */
  private repeats(op: string, o: Observation, accepted: boolean): void {
    if (!this.space.repeats.includes(op)) return;
    const b = objectOf(o.body);
    const value =
      op === 'updateNote'
        ? b.content
        : op === 'updateCollection'
          ? b.title
          : op === 'setNoteCreatedAt'
            ? b.created_at
            : '';
    const key = `${op} ${o.params.note_id ?? ''} ${o.params.collection_id ?? ''} ${JSON.stringify(value)}`;
    // A PATCH with the title the collection has repeats its value. A repeat tells whether it moved
    // updated_at only when that was well in the past: one right after the first write does not.
    const id = o.params.note_id ?? o.params.collection_id ?? '';
    const old = Date.now() - (this.updatedAt.get(id) ?? Date.now()) > STALE_MS;
    const same = op === 'updateCollection' && b.title !== undefined && this.titles.get(id) === b.title;
    const timed = op === 'updateCollection';
    if ((this.done.has(key) || same) && (!timed || old)) this.mark([repeatId(op)]);
    if (accepted) this.done.add(key);
  }

  private inputs(op: string, o: Observation): void {
    const pairs = this.space.inputs[op];
    if (!pairs) return;
    const given = inputOf(op, o);
    const present = (name: string) => {
      const v = given[name];
      return v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0);
    };
    // One collection named both ways: the only pair whose inputs can name one resource.
    const ids = new Set(Array.isArray(given.collection_ids) ? given.collection_ids : []);
    const once = op === 'createNote' && this.titled(o).some((id) => ids.has(id));
    for (const [a, b, same] of pairs)
      if (present(a) && present(b) && (!same || once)) this.mark([inputsId(op, a, b, same)]);
  }

  /** A list bounded by a time that one of the caller's resources has its two times on either side of. */
  private bounds(op: string, o: Observation): void {
    const open = (this.space.bounds[op] ?? []).filter((b) => !this.covered.has(boundsId(op, b)));
    if (open.length === 0) return;
    const given = inputOf(op, o);
    const kind = op === 'listNotes' ? 'note' : 'collection';
    for (const b of open) {
      const at = typeof given[b] === 'string' ? Date.parse(given[b] as string) : Number.NaN;
      if (Number.isNaN(at)) continue;
      for (const [key, t] of this.times)
        if (key.startsWith(`${kind} `) && this.owners.get(key) === o.actor && t.created < at !== t.updated < at) {
          this.mark([boundsId(op, b)]);
          break;
        }
    }
  }

  private paging(op: string, o: Observation, body: Record<string, unknown>): void {
    const boundaries = this.space.paging[op];
    if (!boundaries || !Array.isArray(body.results)) return;
    const given = inputOf(op, o);
    const n = body.results.length;
    const hits: string[] = [];
    if (n === 0) hits.push('empty');
    if (op === 'searchNotes') {
      const query = objectOf(objectOf(o.input).query);
      const later = Number(query.offset ?? 0) > 0;
      const limit = Number(query.limit ?? 20);
      if (!later && body.has_next_page === true) hits.push('first');
      if (later) hits.push('later');
      if (n > 0 && n === limit && body.has_next_page === false) hits.push('exact-last');
      if (later && Object.keys(given).some((k) => k !== 'query')) hits.push('filtered-later');
      if (later && n > 0 && body.has_next_page === false) hits.push('snapshot-end');
    } else {
      const later = given.cursor !== undefined;
      const more = typeof body.next_page === 'string';
      const limit = Number(given.limit ?? 50);
      if (!later && more) hits.push('first');
      if (later) hits.push('later');
      if (n > 0 && n === limit && !more) hits.push('exact-last');
      const filtered = Object.keys(given).some(
        (k) => !['cursor', 'limit', 'order_by', 'collection'].includes(k) && given[k] !== undefined,
      );
      if (later && filtered) hits.push('filtered-later');
      if (later && given.collection !== undefined) hits.push('collection-later');
    }
    this.mark(hits.filter((h) => boundaries.includes(h)).map((h) => pagingId(op, h)));
  }

  /** A view that shows a resource, read after the resource's last write. */
  private views(op: string, o: Observation, body: Record<string, unknown>): void {
    const view = viewOf(op, objectOf(o.input));
    const shown = (kind: Kind, ids: readonly unknown[]) => {
      if (!this.space.views[kind].shown_by.includes(view)) return;
      for (const id of ids) {
        // A view of the resource in the state it is in (the operation's own subject is marked apart).
        const f = typeof id !== 'string' ? undefined : kind === 'note' ? this.notes.get(id) : this.collections.get(id);
        if (f && !this.space.operations[kind].includes(view)) this.mark(stateTargetsOf(view, kind, f));
        const w = typeof id === 'string' ? this.lastWrite.get(`${kind} ${id}`) : undefined;
        if (w) this.mark([afterWriteId(kind, w, view)]);
      }
    };
    const items = Array.isArray(body.results) ? (body.results as unknown[]).map(objectOf) : [];
    this.absent(view, o, body, new Set(items.map((i) => i.id)));
    if (op === 'getNote') shown('note', [o.params.note_id]);
    if (op === 'getCollection') shown('collection', [o.params.collection_id]);
    if (op === 'listNotes' || op === 'searchNotes' || op === 'getRelatedNotes')
      shown(
        'note',
        items.map((i) => i.id),
      );
    if (op === 'listCollections' || op === 'searchCollections')
      shown(
        'collection',
        items.map((i) => i.id),
      );
    if (op === 'getRelatedNotes')
      shown(
        'collection',
        items.flatMap((i) => (Array.isArray(i.collections) ? i.collections.map((c) => objectOf(c).id) : [])),
      );
  }

  /**
   * A view kept to a collection read to its last page after a note left the collection: the note's
   * absence is what the view shows of that write.
   */
  private absent(view: string, o: Observation, body: Record<string, unknown>, ids: ReadonlySet<unknown>): void {
    const input = objectOf(o.input);
    const kept =
      view === 'listNotes?collection'
        ? [input.collection]
        : view === 'searchNotes?collections'
          ? (objectOf(input.body).collections as unknown[])
          : [];
    const last = view === 'listNotes?collection' ? typeof body.next_page !== 'string' : body.has_next_page === false;
    if (!last || !Array.isArray(body.results)) return;
    for (const coll of kept)
      for (const note of this.removedFrom.get(String(coll)) ?? []) {
        const w = this.lastWrite.get(`note ${note}`);
        if (!ids.has(note) && (w === 'removeNoteFromCollection' || w === 'moveNote'))
          this.mark([afterWriteId('note', w, view)]);
      }
  }

  /** Keeps which collections a note left by an accepted removal or move, until it is added back. */
  private left(op: string, o: Observation): void {
    const note = o.params.note_id;
    if (note === undefined) return;
    const target = objectOf(o.body).target_collection_id;
    const gone =
      op === 'removeNoteFromCollection'
        ? o.params.collection_id
        : op === 'moveNote'
          ? o.params.source_collection_id
          : undefined;
    const back = op === 'addNoteToCollection' ? o.params.collection_id : op === 'moveNote' ? target : undefined;
    if (typeof gone === 'string') this.removedFrom.set(gone, new Set([...(this.removedFrom.get(gone) ?? []), note]));
    if (typeof back === 'string') this.removedFrom.get(back)?.delete(note);
  }

  /** The accepted write's effect on the features and on what was last written. */
  private apply(op: string, o: Observation, body: Record<string, unknown>): void {
    const wrote = (kind: Kind, id: string | undefined) => {
      if (id !== undefined && this.space.views[kind].writes.includes(op)) this.lastWrite.set(`${kind} ${id}`, op);
    };
    const links = Array.isArray(body.collection_ids) ? (body.collection_ids as string[]) : undefined;
    const noteId = op === 'createNote' ? (typeof body.id === 'string' ? body.id : undefined) : o.params.note_id;
    if (op === 'createNote' && noteId) this.notes.set(noteId, { ...FRESH_NOTE });
    if (op === 'createCollection' && typeof body.id === 'string')
      this.collections.set(body.id, { ...FRESH_COLLECTION, description: body.description ? 'set' : 'none' });
    if (noteId !== undefined) {
      const f = this.notes.get(noteId);
      if (f) this.notes.set(noteId, noteAfter(f, op, links?.length));
      if (links) this.linksOf.set(noteId, links);
      wrote('note', noteId);
    }
    // A membership change or a delete of a note is a write of the collections it names or held.
    const collections =
      op === 'moveNote'
        ? [o.params.source_collection_id, objectOf(o.body).target_collection_id]
        : op === 'deleteNote'
          ? [...(this.linksOf.get(o.params.note_id ?? '') ?? [])]
          : op === 'createCollection'
            ? [body.id]
            : [o.params.collection_id];
    for (const id of collections) {
      if (typeof id !== 'string') continue;
      const f = this.collections.get(id);
      if (f) this.collections.set(id, collectionAfter(f, op, collectionChange(op, o, id)));
      wrote('collection', id);
    }
    if (typeof body.title === 'string' && typeof body.id === 'string' && this.collections.has(body.id))
      this.titles.set(body.id, body.title);
    const shownAt = typeof body.updated_at === 'string' ? Date.parse(body.updated_at) : Number.NaN;
    if (typeof body.id === 'string' && !Number.isNaN(shownAt)) this.updatedAt.set(body.id, shownAt);
    const created = typeof body.created_at === 'string' ? Date.parse(body.created_at) : Number.NaN;
    const kindOf = NOTE_ANSWERS.has(op) ? 'note' : COLLECTION_ANSWERS.has(op) ? 'collection' : undefined;
    if (kindOf && typeof body.id === 'string' && !Number.isNaN(created) && !Number.isNaN(shownAt))
      this.times.set(`${kindOf} ${body.id}`, { created, updated: shownAt });
    if (op === 'getCollection' && typeof body.note_count === 'number') {
      const f = this.collections.get(o.params.collection_id ?? '');
      if (f) this.collections.set(o.params.collection_id!, collectionAfter(f, op, { holding: body.note_count > 0 }));
    }
  }

  private mark(ids: readonly string[]): void {
    for (const id of ids) this.covered.add(id);
  }
}

function collectionChange(op: string, o: Observation, id: string) {
  if (op === 'updateCollection') {
    const b = objectOf(o.body);
    return {
      retitled: typeof b.title === 'string',
      ...('description' in b ? { described: Boolean(b.description) } : {}),
    };
  }
  if (op === 'addNoteToCollection') return { holding: true };
  if (op === 'moveNote' && id === objectOf(o.body).target_collection_id) return { holding: true };
  return {};
}

/** The request's inputs in the kit's vocabulary: the query of a list, the body of a search or a create. */
/** The operations whose answer is the note, or the collection, they act on. */
const NOTE_ANSWERS = new Set(['createNote', 'getNote', 'updateNote', 'setNoteCreatedAt', 'trashNote', 'restoreNote']);
const COLLECTION_ANSWERS = new Set(['createCollection', 'getCollection', 'updateCollection']);

function inputOf(op: string, o: Observation): Record<string, unknown> {
  if (op === 'searchNotes') return objectOf(objectOf(o.input).body);
  if (op === 'listNotes' || op === 'listCollections') return objectOf(o.input);
  return objectOf(o.body);
}
