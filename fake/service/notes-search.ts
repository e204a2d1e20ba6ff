import type { NoteRecord, UserRecord } from '../store/records.js';
import { tokenize } from '../store/search-index.js';
import type { ServiceContext } from './context.js';
import { DomainError, invalid } from './errors.js';
import { readBounds, readContains, matchesContains, withinBounds } from './notes-list.js';
import { canSeeNote } from './permissions.js';
import { type Input, checkArray, checkBoolean, checkString, checkUuid, intParam, requireObject } from './validate.js';
import { type View, noteListItem } from './views.js';

/** POST /v2/notes/search: limit, offset and snapshot_id come from the query, the rest from the body. */
export function searchNotes(ctx: ServiceContext, user: UserRecord, query: Input, body: unknown): View {
  const input = requireObject(body);
  const { max, fallback } = ctx.policy.notesSearch;
  const truncateFractions = !ctx.policy.refuseFractions;
  const limit = intParam(query.limit, 'limit', { min: 1, max, fallback, truncateFractions });
  const offset = intParam(query.offset, 'offset', { min: 0, fallback: 0, truncateFractions });
  const snapshotId = query.snapshot_id === undefined ? undefined : String(query.snapshot_id);
  const text = readQueryText(input.query);

  let items: readonly Record<string, unknown>[];
  let snapshot: string;
  if (snapshotId !== undefined) {
    const frozen = ctx.store.snapshots.get(snapshotId);
    if (!frozen || frozen.userId !== user.id || ctx.clock.now() - frozen.createdAt > ctx.settings.snapshotTtlMs) {
      throw new DomainError('unknown_snapshot', 'unknown or expired snapshot_id; start again from offset 0');
    }
    items = frozen.items;
    snapshot = frozen.id;
  } else {
    if (offset > 0) throw invalid('snapshot_id is required when offset > 0 (take it from the first page)');
    items = rankWindow(ctx, user, text, input);
    snapshot = ctx.ids.uuid();
    ctx.store.saveSnapshot({ id: snapshot, userId: user.id, createdAt: ctx.clock.now(), items });
  }

  const results = items.slice(offset, offset + limit);
  return {
    results: results.map((r) => ({ ...r })),
    total: items.length,
    limit,
    offset,
    has_next_page: offset + results.length < items.length,
    snapshot_id: snapshot,
  };
}

/** The query text: required, a string, and not only whitespace. */
function readQueryText(value: unknown): string {
  if (value === undefined) throw invalid('query is required');
  const text = checkString(value, 'query');
  if (!/\S/.test(text)) throw invalid('query must contain at least one non-whitespace character');
  return text;
}

/** Ranks the visible, active notes matching the query and filters; freezes the window (100) of rendered items. */
function rankWindow(ctx: ServiceContext, user: UserRecord, text: string, input: Input): Record<string, unknown>[] {
  const bounds = readBounds(ctx, input, 'notes.search.bounds');
  const collections = input.collections === undefined ? undefined
    : new Set(checkArray(input.collections, 'collections').map((c, i) => checkUuid(c, `collections[${i}]`)));
  const contains = readContains(input, (f) => checkBoolean(input[f], f));
  const includeContent = readShape(input.response_shape);
  const accept = (note: NoteRecord): boolean => note.trashedAt === null
    && canSeeNote(ctx, user, note)
    && withinBounds(note, bounds)
    && (collections === undefined || [...collections].some((c) => note.collectionIds.has(c)))
    && matchesContains(note.features, contains);

  const window = ctx.policy.notesSearch.window;
  const notes = ctx.store.notesBySeq;
  const terms = tokenize(text);
  const recentFirst = (a: NoteRecord, b: NoteRecord) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1);
  let ranked: NoteRecord[];
  if (terms.length === 0 && ctx.broken('notes.search.query-optional')) {
    // Seam: a server without the query rule lists the most recent notes when the query has no terms.
    ranked = [...ctx.store.notes.values()].filter(accept).sort(recentFirst).slice(0, window);
  } else if (ctx.broken('notes.search.unranked')) {
    // Seam: the ranking itself; an unranked server orders every match by updated_at.
    const all = ctx.store.search.search(terms, Number.MAX_SAFE_INTEGER, (seq) => accept(notes[seq]!), (a, b) => a - b);
    ranked = all.map((h) => notes[h.seq]!).sort(recentFirst).slice(0, window);
  } else {
    // Seam: the index; a server that does not index titles finds a note only by a term of its body.
    const titleless = ctx.broken('notes.search.title-not-indexed');
    const inBody = (note: NoteRecord) =>
      tokenize(note.content.slice(note.content.indexOf('\n') + 1)).some((t) => terms.includes(t));
    const admit = (seq: number) => accept(notes[seq]!) && (!titleless || inBody(notes[seq]!));
    const hits = ctx.store.search.search(terms, window, admit, (a, b) => recentFirst(notes[a]!, notes[b]!));
    ranked = hits.map((h) => notes[h.seq]!);
  }
  return ranked.map((note) => noteListItem(ctx, note, includeContent));
}

/** The response-shape object (fields not shown): the fake honours include_content. */
function readShape(shape: unknown): boolean {
  if (shape === undefined) return false;
  const options = requireObject(shape, 'the response-shape object');
  return options.include_content === undefined ? false : checkBoolean(options.include_content, 'include_content');
}
