import type { NoteRecord, UserRecord } from '../store/records.js';
import { tokenize } from '../store/search-index.js';
import { TermTable } from '../store/term-table.js';
import type { ServiceContext } from './context.js';
import { DomainError, invalid } from './errors.js';
import { matchesContains, readBounds, readContains, withinBounds } from './notes-list.js';
import { canSeeNote } from './permissions.js';
import { relevanceView } from './relevance-view.js';
import { checkArray, checkBoolean, checkString, checkUuid, type Input, intParam, requireObject } from './validate.js';
import { noteListItem, type View } from './views.js';

/** POST /v2/notes/search: limit, offset and snapshot_id come from the query, the rest from the body. */
export function searchNotes(ctx: ServiceContext, user: UserRecord, query: Input, body: unknown): View {
  const input = requireObject(body);
  const { max, fallback } = ctx.policy.notesSearch;
  const truncateFractions = !ctx.policy.refuseFractions;
  const limit = intParam(query.limit, 'limit', { min: 1, max, fallback, truncateFractions });
  const offset = intParam(query.offset, 'offset', { min: 0, fallback: 0, truncateFractions });
  const snapshotId = query.snapshot_id === undefined ? undefined : String(query.snapshot_id);
  const text = readQueryText(input.query);

  let seqs: Int32Array;
  let includeContent: boolean;
  let snapshot: string;
  if (snapshotId !== undefined) {
    const frozen = ctx.store.snapshots.get(snapshotId);
    if (!frozen || frozen.userId !== user.id || ctx.clock.now() - frozen.createdAt > ctx.settings.snapshotTtlMs) {
      throw new DomainError('unknown_snapshot', 'unknown or expired snapshot_id; start again from offset 0');
    }
    ({ seqs, includeContent } = frozen);
    snapshot = frozen.id;
  } else {
    if (offset > 0) throw invalid('snapshot_id is required when offset > 0 (take it from the first page)');
    let ranked: NoteRecord[];
    ({ ranked, includeContent } = rankWindow(ctx, user, text, input));
    seqs = Int32Array.from(ranked, (note) => note.seq);
    snapshot = ctx.ids.uuid();
    ctx.store.saveSnapshot(
      { id: snapshot, userId: user.id, createdAt: ctx.clock.now(), seqs, includeContent },
      ctx.settings.snapshotTtlMs,
    );
  }

  const page = seqs.subarray(Math.min(offset, seqs.length), Math.min(offset + limit, seqs.length));
  const results = renderPage(ctx, user, page, includeContent);
  return {
    results,
    total: seqs.length,
    limit,
    offset,
    has_next_page: offset + page.length < seqs.length,
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

/**
 * A snapshot freezes which notes its window holds, their order, the total and the response shape;
 * the items are rendered from the notes as they are when a page is read (the document freezes
 * membership and order, not contents). A note deleted since, or no longer visible to the caller,
 * leaves an empty slot: the page keeps its offsets and is shorter.
 */
function renderPage(ctx: ServiceContext, user: UserRecord, page: Int32Array, includeContent: boolean): View[] {
  const out: View[] = [];
  for (const seq of page) {
    const note = ctx.store.notesBySeq[seq];
    if (note && canSeeNote(ctx, user, note)) out.push(noteListItem(ctx, note, includeContent));
  }
  return out;
}

/** Ranks the visible, active notes matching the query and filters: at most the 100-result window. */
function rankWindow(
  ctx: ServiceContext,
  user: UserRecord,
  text: string,
  input: Input,
): { ranked: NoteRecord[]; includeContent: boolean } {
  const bounds = readBounds(ctx, input, 'notes.search.bounds');
  const collections =
    input.collections === undefined
      ? undefined
      : new Set(checkArray(input.collections, 'collections').map((c, i) => checkUuid(c, `collections[${i}]`)));
  const contains = readContains(input, (f) => checkBoolean(input[f], f));
  const includeContent = readShape(input.response_shape);
  const accept = (note: NoteRecord): boolean =>
    note.trashedAt === null &&
    canSeeNote(ctx, user, note) &&
    withinBounds(note, bounds) &&
    (collections === undefined || [...collections].some((c) => note.collectionIds.has(c))) &&
    matchesContains(note.features, contains);

  const window = ctx.policy.notesSearch.window;
  const notes = ctx.store.notesBySeq;
  // Only terms some note may hold become strings: a 2 MiB query of unknown words costs one scan.
  const table = new TermTable(text, (hash) => ctx.store.search.mightHold(hash));
  const terms = table.terms();
  const distinct = new Set(terms);
  const view = relevanceView(ctx, user);
  const recentFirst = (a: NoteRecord, b: NoteRecord) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1);
  let ranked: NoteRecord[];
  if (table.occurrences === 0 && ctx.broken('notes.search.query-optional')) {
    // Seam: a server without the query rule lists the most recent notes when the query has no terms.
    ranked = [...ctx.store.notes.values()].filter(accept).sort(recentFirst).slice(0, window);
  } else if (ctx.broken('notes.search.unranked')) {
    // Seam: the ranking itself; an unranked server orders every match by updated_at.
    const all = ctx.store.search.search(
      view,
      terms,
      Number.MAX_SAFE_INTEGER,
      (seq) => accept(notes[seq]!),
      (a, b) => a - b,
    );
    ranked = all
      .map((h) => notes[h.seq]!)
      .sort(recentFirst)
      .slice(0, window);
  } else {
    // Seam: the index; a server that does not index titles finds a note only by a term of its body.
    const titleless = ctx.broken('notes.search.title-not-indexed');
    const inBody = (note: NoteRecord) =>
      tokenize(note.content.slice(note.content.indexOf('\n') + 1)).some((t) => distinct.has(t));
    const admit = (seq: number) => accept(notes[seq]!) && (!titleless || inBody(notes[seq]!));
    const hits = ctx.store.search.search(view, terms, window, admit, (a, b) => recentFirst(notes[a]!, notes[b]!));
    ranked = hits.map((h) => notes[h.seq]!);
  }
  return { ranked, includeContent };
}

/**
 * The response-shape object (its fields are not shown; the profile names them): include_content
 * adds each item's content; include_snippet is accepted, and items carry their snippet either way
 * (the document lists snippet in every note list item). The http layer renamed the fields and
 * refused or dropped unknown ones; one that still reaches here is refused, never skipped silently.
 */
function readShape(shape: unknown): boolean {
  if (shape === undefined) return false;
  const options = requireObject(shape, 'the response-shape object');
  for (const field of Object.keys(options)) {
    const path = `response_shape.${field}`;
    if (field !== 'include_content' && field !== 'include_snippet') throw invalid(`unknown field ${path}`);
    checkBoolean(options[field], path);
  }
  return options.include_content === true;
}
