import type { UserRecord } from '../store/records.js';
import { snippetOf } from './content.js';
import type { ServiceContext } from './context.js';
import { canSeeNote, requireNote } from './permissions.js';
import { type Input, intParam } from './validate.js';
import { relatedCollectionSummaries, type View } from './views.js';

const PREVIEW_CHARS = 280;
const QUERY_TERMS = 32;

/**
 * GET /v2/notes/{note_id}/related-notes: cosine similarity of TF-IDF vectors, computed from the
 * note's current content at request time; deterministic (ties by id).
 */
export function relatedNotes(ctx: ServiceContext, user: UserRecord, noteId: string, query: Input): View {
  const { max, fallback } = ctx.policy.related;
  const truncateFractions = !ctx.policy.refuseFractions;
  const limit = intParam(query.limit, 'limit', { min: 1, max, fallback, truncateFractions });
  const note = requireNote(ctx, user, noteId, 'access');
  const index = ctx.store.search;
  const vector = index.vector(note.seq);
  const scored: Array<{ seq: number; score: number }> = [];
  for (const seq of index.neighbours(vector, QUERY_TERMS)) {
    const other = ctx.store.notesBySeq[seq];
    if (!other || other.id === note.id || other.trashedAt !== null) continue;
    if (!canSeeNote(ctx, user, other)) continue;
    let score = 0;
    for (const [term, w] of index.vector(seq)) score += w * (vector.get(term) ?? 0);
    if (score > 0) scored.push({ seq, score: Math.round(score * 1e6) / 1e6 });
  }
  const idOf = (seq: number) => ctx.store.notesBySeq[seq]!.id;
  scored.sort((a, b) => b.score - a.score || (idOf(a.seq) < idOf(b.seq) ? -1 : 1));
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
  return { results, total: results.length };
}
