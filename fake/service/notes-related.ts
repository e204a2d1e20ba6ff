import type { UserRecord } from '../store/records.js';
import { snippetOf } from './content.js';
import type { ServiceContext } from './context.js';
import { canSeeNote, requireNote } from './permissions.js';
import { relevanceView } from './relevance-view.js';
import { type Input, intParam } from './validate.js';
import { relatedCollectionSummaries, type View } from './views.js';

const PREVIEW_CHARS = 280;

/**
 * GET /v2/notes/{note_id}/related-notes: cosine similarity of TF-IDF vectors, the note's vector
 * computed from its current content at request time, the statistics from the caller's visible
 * notes (relevance-view.ts); deterministic (ties by id). The index scores from its postings.
 */
export function relatedNotes(ctx: ServiceContext, user: UserRecord, noteId: string, query: Input): View {
  const { max, fallback } = ctx.policy.related;
  const truncateFractions = !ctx.policy.refuseFractions;
  const limit = intParam(query.limit, 'limit', { min: 1, max, fallback, truncateFractions });
  const note = requireNote(ctx, user, noteId, 'access');
  const notes = ctx.store.notesBySeq;
  const accept = (seq: number) => {
    const other = notes[seq];
    return other !== undefined && other.trashedAt === null && canSeeNote(ctx, user, other);
  };
  const byId = (a: number, b: number) => (notes[a]!.id < notes[b]!.id ? -1 : 1);
  const scored = ctx.store.search.related(relevanceView(ctx, user), note.seq, limit, accept, byId);
  const t = ctx.settings.formatTime;
  const results = scored.map(({ seq, score }) => {
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
