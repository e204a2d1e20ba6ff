import type fc from 'fast-check';
import { LIMITS } from '../../../spec/limits.js';
import { KitError } from '../../harness/index.js';
import { collectionOf, contentOf, type Model, noteOf, pickCollection, pickNote } from '../model.js';
import { ok, type Real } from '../real.js';

/**
 * Readings whose answers the model cannot predict item by item (relevance, other data of the
 * account) but the run's oracle judges against everything the run established: a search, a walk
 * through a list, related notes. They put the model's writes in front of every view the API has.
 */

/**
 * Time bounds a reading may add: none, or one the run's notes all fall outside of (created before
 * it began) or inside of (updated after it began). Notes the model backdated stand on both sides.
 */
export type RunBound = 'none' | 'created-before-run' | 'updated-after-run';

function boundOf(bound: RunBound, real: Real): { created_before?: string; updated_after?: string } {
  return bound === 'created-before-run'
    ? { created_before: real.since }
    : bound === 'updated-after-run'
      ? { updated_after: real.since }
      : {};
}

/** POST /v2/notes/search for a word of one of the model's notes, with or without a time bound. */
export class SearchNotes implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: { kind: 'searchNotes'; note: number; bound: RunBound; pageSize: number; common: boolean }) {}
  check(model: Model): boolean {
    return pickNote(model, this.op.note) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const id = pickNote(model, this.op.note)!;
    // A word of that note, or one every note of the model holds (more results than a page: snapshot paging).
    const word = this.op.common ? 'Model' : (contentOf(noteOf(model, id)).content.split(/\s+/)[1] ?? 'model');
    this.shown = `SearchNotes(${word}${this.op.bound === 'none' ? '' : `, ${this.op.bound}`}, ${this.op.pageSize} a page)`;
    real.steps.push(this.shown);
    const body = { query: word, ...boundOf(this.op.bound, real) };
    const limit = this.op.pageSize;
    let page = ok('notes.search.response-fields', await real.api.searchNotes({ limit }, body), 'searching');
    // Snapshot paging: the next page of the same snapshot (the oracle judges that it agrees with the first;
    // one page more is enough to see the offsets and the frozen order, and keeps the run's cost).
    for (let offset = limit, pages = 1; pages < 2 && page.has_next_page === true; offset += limit, pages++) {
      if (typeof page.snapshot_id !== 'string') return;
      page = ok(
        'notes.search.response-fields',
        await real.api.searchNotes({ limit, offset, snapshot_id: page.snapshot_id }, body),
        'following the snapshot',
      );
    }
  }
  toString(): string {
    return this.shown || `SearchNotes(#${this.op.note})`;
  }
}

/**
 * POST /v2/collections/search for a word of one of the model's collections, created before the
 * run began where the profile names that bound (none of the model's may then appear). The answer
 * is the oracle's to judge; a refusal here only means the model cannot go on.
 */
export class SearchCollections implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: { kind: 'searchCollections'; coll: number; before: boolean }) {}
  check(model: Model): boolean {
    return pickCollection(model, this.op.coll) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const id = pickCollection(model, this.op.coll)!;
    const word = (collectionOf(model, id).title?.value ?? '').split(/\s+/)[2] ?? 'model';
    const before = this.op.before && real.t.declares('names.collections_search.created_before');
    // The body's names are not shown: without a profile naming the query, search every collection
    // (a name the target does not know would be refused, and that is the parameter-names check's to judge).
    const query = real.t.declares('names.collections_search.query') ? word : undefined;
    this.shown = `SearchCollections(${query ?? 'everything'}${before ? ', created before the run' : ''})`;
    real.steps.push(this.shown);
    const x = await real.api.searchCollections({ query, ...(before ? { created_before: real.since } : {}) });
    if (x.status !== 200) throw new KitError(`searching collections answered ${x.status}: ${x.text.slice(0, 200)}`);
  }
  toString(): string {
    return this.shown || `SearchCollections(#${this.op.coll})`;
  }
}

/** GET /v2/notes/{id}/related-notes of one of the model's notes. */
export class RelatedNotes implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: { kind: 'relatedNotes'; note: number }) {}
  check(model: Model): boolean {
    return pickNote(model, this.op.note) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const id = pickNote(model, this.op.note)!;
    this.shown = `RelatedNotes(${id})`;
    real.steps.push(this.shown);
    ok('notes.related.response-fields', await real.api.relatedNotes(id, { limit: 5 }), 'reading related notes');
  }
  toString(): string {
    return this.shown || `RelatedNotes(#${this.op.note})`;
  }
}

type Bound = 'created_after' | 'created_before' | 'updated_after' | 'updated_before';

/** Pages at most a walk can take: a run shares its request budget. */
const MAX_PAGES = 4;

/** Which order a list asks for: the default (updated_at) or one named. */
export type ListOrder = 'default' | 'created_at' | 'updated_at';

/**
 * What a note list keeps to, by each of the four inclusive bounds and the collection filter: notes
 * created since the run began (all of the run's but those it backdated or created with a supplied
 * time), created before it (those), updated since it began (all of the run's but those created with
 * a supplied updated_at and not written since), updated before it (those: a bound on updated_at
 * read as one on created_at shows the backdated ones), or one of the model's collections.
 */
export type ListFilter =
  | 'created-after-run'
  | 'created-before-run'
  | 'updated-after-run'
  | 'updated-before-run'
  | 'collection';

/**
 * GET /v2/notes with one of the filters above, a few per page, in the default order or one named,
 * along next_page where the profile names the cursor: a complete walk must hold every note of the
 * run that matches, no page a note that does not, and each page is ordered as asked (the oracle
 * judges all three).
 */
export class ListNotes implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(
    readonly op: { kind: 'listNotes'; pageSize: number; order: ListOrder; filter: ListFilter; coll: number },
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    // The collection filter's name is the profile's; without one the walk keeps to the run's time.
    const coll = pickCollection(model, this.op.coll);
    const filter =
      this.op.filter === 'collection' && (!coll || !real.t.declares('names.notes_list.collection'))
        ? 'created-after-run'
        : this.op.filter;
    const query = {
      limit: this.op.pageSize,
      ...(filter === 'created-after-run' ? { created_after: real.since } : {}),
      ...(filter === 'created-before-run' ? { created_before: real.since } : {}),
      ...(filter === 'updated-after-run' ? { updated_after: real.since } : {}),
      ...(filter === 'updated-before-run' ? { updated_before: real.since } : {}),
      ...(filter === 'collection' ? { collection: coll } : {}),
      ...(this.op.order === 'default' ? {} : { order_by: this.op.order }),
    };
    this.shown = `ListNotes(${this.op.pageSize} a page, ${this.op.order} order, ${filter === 'collection' ? `in ${coll}` : filter})`;
    real.steps.push(this.shown);
    let page = ok('notes.list.response-fields', await real.api.listNotes(query), 'listing notes');
    if (await fillPastLargestPage(real, this.op.pageSize, filter, page.results)) {
      page = ok('notes.list.response-fields', await real.api.listNotes(query), 'listing notes');
    }
    for (let pages = 1; pages < MAX_PAGES && typeof page.next_page === 'string'; pages++) {
      if (!real.t.declares('names.notes_list.cursor')) return;
      page = ok(
        'notes.list.response-fields',
        await real.api.listNotes({ ...query, cursor: page.next_page }),
        'following next_page',
      );
    }
  }
  toString(): string {
    return this.shown || 'ListNotes';
  }
}

/**
 * A walk of the largest page over the run's notes: where the check's budget allows (max_seed_notes,
 * the most one check may create), the notes it lacks to pass that page are made (usually once in
 * a check: its sequences share the window), so the walk follows next_page past a full page of 100.
 * Plain notes created now: they fall in the created-after and updated-after windows, and the
 * oracle knows them as it knows every note the run made. Answers whether it made any.
 */
async function fillPastLargestPage(
  real: Real,
  pageSize: number,
  filter: ListFilter,
  shown: readonly unknown[] | undefined,
): Promise<boolean> {
  const max = LIMITS.notesListLimit.max;
  if (pageSize !== max || (filter !== 'created-after-run' && filter !== 'updated-after-run')) return false;
  // Without the cursor's name the walk ends at the first page: nothing to fill for. Under a cap on
  // creates the run's plan counted every note (kit/plan.ts): fillers would take others' share.
  if (!real.t.declares('names.notes_list.cursor') || real.t.ctx.createCaps) return false;
  if (!Array.isArray(shown) || shown.length >= max) return false;
  const lacking = max + 1 - shown.length;
  if (real.fillers.made + lacking > real.t.budgets.max_seed_notes) return false;
  let made = 0;
  for (; made < lacking; made++) {
    const x = await real.api.createNote({ content: real.t.data.content(`Filler ${real.t.data.word()}`) });
    // A refusal (a quota the profile did not declare, say) ends the filling, not the check: the
    // oracle has judged the answer, and the walk keeps to one page.
    if (x.status !== 200) break;
    real.fillers.made++;
  }
  if (made > 0) real.steps.push(`(${made} notes made to pass a page of ${max})`);
  return made > 0;
}

/** What a collection list keeps to: one of the four inclusive bounds at the run's start (ListFilter's times). */
export type CollectionListFilter = Exclude<ListFilter, 'collection'>;

/**
 * GET /v2/collections, a few per page, in the default order or one named, bounded at the run's start
 * where the profile names the bound (created after it otherwise, else not bounded: the run's
 * collections created with supplied times, renamed since, tell an updated bound read as a created
 * one), along next_page where it names the cursor. What the pages show (order, fields, counts,
 * bounds, the walk) is the oracle's to judge; a refusal here only means the model cannot go on.
 */
export class ListCollections implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(
    readonly op: { kind: 'listCollections'; pageSize: number; order: ListOrder; filter: CollectionListFilter },
  ) {}
  check(): boolean {
    return true;
  }
  async run(_model: Model, real: Real): Promise<void> {
    const bound = (filter: CollectionListFilter) => filter.replace('-run', '').replace('-', '_') as Bound;
    const asked = bound(this.op.filter);
    const named = (b: Bound) => real.t.declares(`names.collections_list.${b}`);
    const used = named(asked) ? asked : named('created_after') ? 'created_after' : undefined;
    const query = {
      limit: this.op.pageSize,
      ...(used ? { [used]: real.since } : {}),
      ...(this.op.order === 'default' ? {} : { order_by: this.op.order }),
    };
    this.shown = `ListCollections(${this.op.pageSize} a page, ${this.op.order} order${used ? `, ${used} the run's start` : ''})`;
    real.steps.push(this.shown);
    let x = await real.api.listCollections(query);
    for (let pages = 1; pages < MAX_PAGES && x.status === 200; pages++) {
      const next = (x.json as { next_page?: unknown }).next_page;
      if (typeof next !== 'string' || !real.t.declares('names.collections_list.cursor')) return;
      x = await real.api.listCollections({ ...query, cursor: next });
    }
    if (x.status !== 200) throw new KitError(`listing collections answered ${x.status}: ${x.text.slice(0, 200)}`);
  }
  toString(): string {
    return this.shown || 'ListCollections';
  }
}
