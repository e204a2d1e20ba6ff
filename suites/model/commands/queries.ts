import type fc from 'fast-check';
import { KitError } from '../../harness/index.js';
import { type Model, pickNote } from '../model.js';
import { ok, type Real } from '../real.js';

/**
 * Readings whose answers the model cannot predict item by item (relevance, other data of the
 * account) but the run's oracle judges against everything the run established: a search, a walk
 * through a list, related notes. They put the model's writes in front of every view the API has.
 */

/** POST /v2/notes/search for a word of one of the model's notes. */
export class SearchNotes implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: { kind: 'searchNotes'; note: number }) {}
  check(model: Model): boolean {
    return pickNote(model, this.op.note) !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    const id = pickNote(model, this.op.note)!;
    const word = model.notes.get(id)!.content.split(/\s+/)[1] ?? 'model';
    this.shown = `SearchNotes(${word})`;
    real.steps.push(this.shown);
    ok('notes.search.response-fields', await real.api.searchNotes({ limit: 10 }, { query: word }), 'searching');
  }
  toString(): string {
    return this.shown || `SearchNotes(#${this.op.note})`;
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

/** Pages at most a walk can take: a run shares its request budget. */
const MAX_PAGES = 4;

/** Which order a list asks for: the default (updated_at) or one named. */
export type ListOrder = 'default' | 'created_at' | 'updated_at';

/**
 * GET /v2/notes created since the run began, a few per page, in the default order or one named,
 * along next_page where the profile names the cursor: a complete walk must hold every note of the
 * run that matches, and each page is ordered as asked (the oracle judges both).
 */
export class ListNotes implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: { kind: 'listNotes'; pageSize: number; order: ListOrder }) {}
  check(): boolean {
    return true;
  }
  async run(_model: Model, real: Real): Promise<void> {
    const query = {
      limit: this.op.pageSize,
      created_after: real.since,
      ...(this.op.order === 'default' ? {} : { order_by: this.op.order }),
    };
    this.shown = `ListNotes(${this.op.pageSize} a page, ${this.op.order} order)`;
    real.steps.push(this.shown);
    let page = ok('notes.list.response-fields', await real.api.listNotes(query), 'listing notes');
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
 * GET /v2/collections, a few per page, in the default order or one named (created since the run
 * began where the profile names that bound), along next_page where it names the cursor. What the
 * pages show (order, fields, counts, the walk) is the oracle's to judge; a refusal here only means
 * the model cannot go on.
 */
export class ListCollections implements fc.AsyncCommand<Model, Real> {
  private shown = '';
  constructor(readonly op: { kind: 'listCollections'; pageSize: number; order: ListOrder }) {}
  check(): boolean {
    return true;
  }
  async run(_model: Model, real: Real): Promise<void> {
    const query = {
      limit: this.op.pageSize,
      ...(real.t.declares('names.collections_list.created_after') ? { created_after: real.since } : {}),
      ...(this.op.order === 'default' ? {} : { order_by: this.op.order }),
    };
    this.shown = `ListCollections(${this.op.pageSize} a page, ${this.op.order} order)`;
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
