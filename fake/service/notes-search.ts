import type { NoteRecord, UserRecord } from '../store/records.js';
import { tokenize } from '../store/search-index.js';
import type { ServiceContext } from './context.js';
import { DomainError, invalid } from './errors.js';
import { readBounds, readContains, matchesContains, withinBounds } from './notes-list.js';
import { canSeeNote } from './permissions.js';
import { type Input, checkArray, checkBoolean, checkString, checkUuid, intParam, requireObject } from './validate.js';
import { type View, noteListItem } from './views.js';

export const SEARCH_WINDOW = 100;

/** POST /v2/notes/search: limit, offset and snapshot_id come from the query, the rest from the body. */
export function searchNotes(ctx: ServiceContext, user: UserRecord, query: Input, body: unknown): View {
  const input = requireObject(body);
  const paging = ctx.broken('notes.search.paging-from-body') ? input : query;
  const limit = intParam(paging.limit, 'limit', {
    min: 1,
    max: ctx.broken('notes.search.limit-max-off-by-one') ? 51 : 50,
    fallback: ctx.broken('notes.search.default-limit-10') ? 10 : 20,
    truncateFractions: ctx.broken('limits.fractions-truncated'),
  });
  const offset = ctx.broken('notes.search.negative-offset-accepted') && typeof paging.offset === 'string' && /^-\d+$/.test(paging.offset)
    ? 0
    : intParam(paging.offset, 'offset', { min: 0, fallback: 0, truncateFractions: ctx.broken('limits.fractions-truncated') });
  const snapshotId = paging.snapshot_id === undefined ? undefined : String(paging.snapshot_id);

  let text = input.query;
  if (text === undefined && !ctx.broken('notes.search.query-optional')) throw invalid('query is required');
  text ??= '';
  checkString(text, 'query');
  if (!/\S/.test(text as string) && !ctx.broken('notes.search.whitespace-query-accepted') && !ctx.broken('notes.search.query-optional')) {
    throw invalid('query must contain at least one non-whitespace character');
  }

  let seqs: Int32Array;
  let matchCount: number;
  let includeContent: boolean;
  let snapshot: string;
  if (snapshotId !== undefined && !ctx.broken('notes.search.snapshot-live')) {
    const frozen = ctx.store.snapshots.get(snapshotId);
    if (!frozen || frozen.userId !== user.id || ctx.clock.now() - frozen.createdAt > ctx.settings.snapshotTtlMs) {
      throw new DomainError('unknown_snapshot', 'unknown or expired snapshot_id; start again from offset 0');
    }
    ({ seqs, matchCount, includeContent } = frozen);
    snapshot = frozen.id;
  } else {
    if (offset > 0 && snapshotId === undefined && !ctx.broken('notes.search.snapshot-optional')) {
      throw invalid('snapshot_id is required when offset > 0 (take it from the first page)');
    }
    let ranked: NoteRecord[];
    ({ ranked, matchCount, includeContent } = rankWindow(ctx, user, text as string, input));
    seqs = Int32Array.from(ranked, (note) => note.seq);
    snapshot = snapshotId ?? ctx.ids.uuid();
    if (snapshotId === undefined) {
      ctx.store.saveSnapshot({ id: snapshot, userId: user.id, createdAt: ctx.clock.now(), seqs, matchCount, includeContent }, ctx.settings.snapshotTtlMs);
    }
  }

  const window = ctx.broken('notes.search.snapshot-reorders') && snapshotId !== undefined ? seqs.slice().reverse() : seqs;
  const start = ctx.broken('notes.search.offset-one-based') ? Math.max(0, offset - 1) : offset;
  const page = window.subarray(Math.min(start, window.length), Math.min(start + limit, window.length));
  const results = renderPage(ctx, user, page, includeContent);
  const total = ctx.broken('notes.search.total-uncapped') ? matchCount : seqs.length;
  const view: View = {
    results,
    total,
    limit: ctx.broken('notes.search.echo-default-limit') ? 20 : limit,
    offset,
    has_next_page: ctx.broken('notes.search.has-next-page-full-page') ? page.length === limit : offset + page.length < seqs.length,
    snapshot_id: snapshot,
  };
  if (ctx.broken('notes.search.offset-omitted-when-default') && paging.offset === undefined) delete view.offset;
  return view;
}

/**
 * A snapshot freezes which notes its window holds, their order, the total and the response shape;
 * the items are rendered from the notes as they are when a page is read (the document freezes
 * membership and order, not contents). A note deleted since, or no longer visible to the caller,
 * leaves an empty slot: the page keeps its offsets and is shorter.
 */
function renderPage(ctx: ServiceContext, user: UserRecord, page: Int32Array, includeContent: boolean): View[] {
  const allUsers = ctx.broken('auth.scope.list-shows-all-users');
  const out: View[] = [];
  for (const seq of page) {
    const note = ctx.store.notesBySeq[seq];
    if (note && (allUsers || canSeeNote(ctx, user, note))) out.push(noteListItem(ctx, note, includeContent));
  }
  return out;
}

/** Ranks the visible, active notes matching the query and filters: at most the 100-result window. */
function rankWindow(ctx: ServiceContext, user: UserRecord, text: string, input: Input): { ranked: NoteRecord[]; matchCount: number; includeContent: boolean } {
  const bounds = readBounds(ctx, input, 'notes.search.bounds-offset-optional');
  const collections = input.collections === undefined ? undefined
    : new Set(checkArray(input.collections, 'collections').map((c, i) => checkUuid(c, `collections[${i}]`)));
  const contains = readContains(input, (f) => checkBoolean(input[f], f));
  const includeContent = readShape(input.response_shape);
  const allUsers = ctx.broken('auth.scope.list-shows-all-users');
  const exclusive = ctx.broken('notes.search.bounds-exclusive');
  const ignoreBounds = ctx.broken('notes.search.bounds-ignored');
  const allCollections = ctx.broken('notes.search.collections-all-required');
  const and = ctx.broken('notes.search.contains-and');
  const imagesIgnored = ctx.broken('notes.search.images-filter-ignored');
  const accept = (note: NoteRecord): boolean => note.trashedAt === null
    && (allUsers || canSeeNote(ctx, user, note))
    && (ignoreBounds || withinBounds(note, bounds, exclusive))
    && (collections === undefined || (allCollections
      ? [...collections].every((c) => note.collectionIds.has(c))
      : [...collections].some((c) => note.collectionIds.has(c))))
    && matchesContains(note.features, imagesIgnored ? { ...contains, bits: contains.bits & ~4, count: contains.bits & ~4 ? contains.count : 0 } : contains, and, false);

  const notes = ctx.store.notesBySeq;
  let matched = 0;
  let ranked: NoteRecord[];
  const terms = tokenize(text);
  if (terms.length === 0 && ctx.broken('notes.search.query-optional')) {
    ranked = [...ctx.store.notes.values()].filter(accept).sort((a, b) => b.updatedAt - a.updatedAt).slice(0, SEARCH_WINDOW);
    matched = ranked.length;
  } else if (ctx.broken('notes.search.unranked')) {
    const all = ctx.store.search.search(terms, Number.MAX_SAFE_INTEGER, (seq) => accept(notes[seq]!), (a, b) => a - b);
    ranked = all.map((h) => notes[h.seq]!).sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1)).slice(0, SEARCH_WINDOW);
    matched = all.length;
  } else {
    const titleless = ctx.broken('notes.search.title-not-indexed');
    const hits = ctx.store.search.search(terms, SEARCH_WINDOW, (seq) => {
      const note = notes[seq]!;
      if (!accept(note)) return false;
      if (titleless && !tokenize(note.content.slice(note.content.indexOf('\n') + 1)).some((t) => terms.includes(t))) return false;
      matched++;
      return true;
    }, (a, b) => notes[b]!.updatedAt - notes[a]!.updatedAt || (notes[a]!.id < notes[b]!.id ? -1 : 1));
    ranked = hits.map((h) => notes[h.seq]!);
    if (ctx.broken('notes.search.total-uncapped')) matched = countMatches(ctx, terms, accept);
  }
  return { ranked, matchCount: Math.max(matched, ranked.length), includeContent };
}

function countMatches(ctx: ServiceContext, terms: string[], accept: (note: NoteRecord) => boolean): number {
  return ctx.store.search.search(terms, Number.MAX_SAFE_INTEGER, (seq) => accept(ctx.store.notesBySeq[seq]!), (a, b) => a - b).length;
}

/** The response-shape object (fields not shown): the fake honours include_content. */
function readShape(shape: unknown): boolean {
  if (shape === undefined) return false;
  const options = requireObject(shape, 'the response-shape object');
  return options.include_content === undefined ? false : checkBoolean(options.include_content, 'include_content');
}
