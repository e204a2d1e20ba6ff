import type { FaultName } from './catalogue.js';
import type { FaultFactory } from './hooks.js';
import { owningAll } from './query-support.js';
import { after, around, pathNote, pretending } from './support.js';

export const NOTES_RELATED_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  'notes.related.limit-max-off-by-one': () => ({ policy: { related: { max: 21 } } }),
  'notes.related.default-limit-20': () => ({ policy: { related: { fallback: 20 } } }),
  // Any existing note will do, as if the caller owned it.
  'notes.related.access-unchecked': around('getRelatedNotes', (next) => (ctx, call) => {
    const note = pathNote(ctx, call);
    if (!note) return next(ctx, call);
    return pretending(note as { ownerId: string }, 'ownerId', call.user.id, () => next(ctx, call));
  }),
  // The note asked about keeps its own owner, so access to it is still checked.
  'auth.scope.related-shows-all-users': around('getRelatedNotes', (next) => (ctx, call) =>
    owningAll(ctx, call.user.id, () => next(ctx, call), call.params.note_id)),
  'notes.related.total-as-string': after('getRelatedNotes', (_ctx, _call, view) =>
    ({ ...view, total: String(view.total) })),
  // A note is embedded once, the first time its related notes are asked for, and never again:
  // later requests run against the index as it held the note then.
  'notes.related.stale-content': () => {
    const embedded = new Map<string, { title: string; content: string }>();
    return {
      ops: {
        getRelatedNotes: (next) => (ctx, call) => {
          const note = pathNote(ctx, call);
          if (!note) return next(ctx, call);
          const first = embedded.get(note.id);
          if (!first) {
            const view = next(ctx, call);
            embedded.set(note.id, { title: note.title, content: note.content });
            return view;
          }
          if (first.title === note.title && first.content === note.content) return next(ctx, call);
          // The index reads a note's text from the record: re-index it with the first text for the
          // length of the request, then put the record and its index entry back.
          const index = ctx.store.search;
          const now = { title: note.title, content: note.content };
          const swap = (text: { title: string; content: string }) => {
            index.remove(note.seq);
            Object.assign(note as { title: string; content: string }, text);
            index.add(note.seq);
          };
          swap(first);
          try {
            return next(ctx, call);
          } finally {
            swap(now);
          }
        },
      },
    };
  },
};
