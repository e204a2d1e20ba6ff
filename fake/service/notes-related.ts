import type { UserRecord } from '../store/records.js';
import { snippetOf } from './content.js';
import { type ServiceContext, faultMemory } from './context.js';
import { canSeeNote, requireNote } from './permissions.js';
import { type Input, intParam } from './validate.js';
import { type View, relatedCollectionSummaries } from './views.js';

const PREVIEW_CHARS = 280;
const QUERY_TERMS = 32;

/**
 * GET /v2/notes/{note_id}/related-notes: cosine similarity of TF-IDF vectors, computed from the
 * note's current content at request time; deterministic (ties by id).
 */
export function relatedNotes(ctx: ServiceContext, user: UserRecord, noteId: string, query: Input): View {
  const limit = intParam(query.limit, 'limit', {
    min: 1,
    max: ctx.broken('notes.related.limit-max-off-by-one') ? 21 : 20,
    fallback: ctx.broken('notes.related.default-limit-20') ? 20 : 10,
    truncateFractions: ctx.broken('limits.fractions-truncated'),
  });
  const note = ctx.broken('notes.related.access-unchecked') && ctx.store.notes.has(noteId)
    ? ctx.store.notes.get(noteId)!
    : requireNote(ctx, user, noteId, 'access');
  const index = ctx.store.search;
  let vector = index.vector(note.seq);
  if (ctx.broken('notes.related.stale-content')) {
    // The broken server embeds a note once, when first asked, and never again.
    const cache = faultMemory(ctx, 'related-vectors', () => new Map<string, Map<string, number>>());
    vector = cache.get(note.id) ?? vector;
    cache.set(note.id, vector);
  }
  const allUsers = ctx.broken('auth.scope.related-shows-all-users');
  const scored: Array<{ seq: number; score: number }> = [];
  for (const seq of index.neighbours(vector, QUERY_TERMS)) {
    const other = ctx.store.notesBySeq[seq];
    if (!other || other.id === note.id || other.trashedAt !== null) continue;
    if (!allUsers && !canSeeNote(ctx, user, other)) continue;
    let score = 0;
    for (const [term, w] of index.vector(seq)) score += w * (vector.get(term) ?? 0);
    if (score > 0) scored.push({ seq, score: Math.round(score * 1e6) / 1e6 });
  }
  scored.sort((a, b) => b.score - a.score || (ctx.store.notesBySeq[a.seq]!.id < ctx.store.notesBySeq[b.seq]!.id ? -1 : 1));
  const t = ctx.settings.formatTime;
  const results = scored.slice(0, limit).map(({ seq, score }) => {
    const other = ctx.store.notesBySeq[seq]!;
    const flat = other.content.replace(/\s+/g, ' ').trim();
    return {
      id: other.id,
      title: other.title,
      snippet: snippetOf(other.content),
      preview: flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat,
      score,
      created_at: t(other.createdAt),
      updated_at: t(other.updatedAt),
      collection_ids: [...other.collectionIds],
      collections: relatedCollectionSummaries(ctx, user, other),
    };
  });
  return { results, total: ctx.broken('notes.related.total-as-string') ? String(results.length) : results.length };
}
