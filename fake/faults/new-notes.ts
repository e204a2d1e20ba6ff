import { noteWrittenView } from '../service/views.js';
import type { FaultName } from './catalogue.js';
import type { FaultFactory } from './hooks.js';
import { after, before, fields, pathNote, withFields } from './support.js';

/** Faults of issue 10's missing note rules (the lead folds them into the area files). */
export const NEW_NOTE_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  // A server that rewrites the whole row on update, creation time included.
  'notes.update.created-at-reset': after('updateNote', (ctx, call, view) => {
    const note = pathNote(ctx, call);
    if (!note) return view;
    ctx.store.setNoteCreatedAt(note, ctx.clock.now());
    return noteWrittenView(ctx, note);
  }),
  // A PATCH that treats every field as optional: no content means "keep the content".
  'notes.update.content-optional': before('updateNote', (ctx, call) => {
    const note = pathNote(ctx, call);
    return note && fields(call).content === undefined ? withFields(call, { content: note.content }) : call;
  }),
};
