import { notFound } from '../service/errors.js';
import { requireNote } from '../service/permissions.js';
import type { NoteRecord } from '../store/records.js';
import type { FaultName } from './catalogue.js';
import type { FaultFactory, OperationWrapper } from './hooks.js';
import { after, around, pathNote, pretending } from './support.js';

export const NOTES_LIFECYCLE_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  'notes.read.trashed-not-found': around('getNote', (next) => (ctx, call) => {
    const view = next(ctx, call);
    if (pathNote(ctx, call)?.trashedAt !== null) throw notFound('note');
    return view;
  }),
  'notes.read.trashed-without-trashed-at': after('getNote', (_ctx, _call, view) => ({ ...view, trashed_at: null })),
  'notes.trash.access-level-can-trash': () => ({ policy: { levels: { trashNote: 'access' } } }),
  'notes.trash.trashed-at-not-set': around('trashNote', (next) => (ctx, call) => {
    const note = pathNote(ctx, call);
    const wasActive = note?.trashedAt === null;
    const view = next(ctx, call);
    if (note && wasActive) note.trashedAt = null;
    return view;
  }),
  'notes.restore.keeps-trashed-at': around('restoreNote', (next) => (ctx, call) => {
    const note = pathNote(ctx, call);
    const trashedAt = note?.trashedAt ?? null;
    const view = next(ctx, call);
    if (note) note.trashedAt = trashedAt;
    return view;
  }),
  // A restored note still refuses writes, as if the lock of the trash outlived it.
  'notes.restore.still-locked': () => {
    const locked = new Set<string>();
    const refuseLocked: OperationWrapper = (next) => (ctx, call) => {
      const note = pathNote(ctx, call);
      return note && locked.has(note.id) ? pretending(note, 'trashedAt', note.trashedAt ?? 0, () => next(ctx, call)) : next(ctx, call);
    };
    return {
      ops: {
        restoreNote: (next) => (ctx, call) => {
          const note = pathNote(ctx, call);
          const wasTrashed = note?.trashedAt !== null;
          const view = next(ctx, call);
          if (note && wasTrashed) locked.add(note.id);
          return view;
        },
        updateNote: refuseLocked,
        setNoteCreatedAt: refuseLocked,
      },
    };
  },
  'errors.missing.note-delete-succeeds': around('deleteNote', (next) => (ctx, call) =>
    (pathNote(ctx, call) ? next(ctx, call) : {})),
  'notes.delete.access-level-can-delete': () => ({ policy: { levels: { deleteNote: 'access' } } }),
  'notes.delete.trashed-refused': around('deleteNote', (next) => (ctx, call) => {
    const note = pathNote(ctx, call);
    if (!note || note.trashedAt === null) return next(ctx, call);
    requireNote(ctx, call.user, note.id, ctx.policy.levels.deleteNote); // permission refusals come first
    throw notFound('note');
  }),
  'notes.delete.soft': around('deleteNote', () => (ctx, call) => {
    const note = requireNote(ctx, call.user, call.params.note_id!, ctx.policy.levels.deleteNote);
    note.trashedAt ??= ctx.clock.now();
    return {};
  }),
  // Deleted notes come back through restore, without their collections.
  'notes.delete.restorable': () => {
    const bin = new Map<string, NoteRecord>();
    return {
      ops: {
        deleteNote: (next) => (ctx, call) => {
          const note = pathNote(ctx, call);
          const view = next(ctx, call);
          if (note) bin.set(note.id, { ...note, collectionIds: new Set(), trashedAt: null });
          return view;
        },
        restoreNote: (next) => (ctx, call) => {
          const binned = bin.get(call.params.note_id ?? '');
          if (!binned || binned.ownerId !== call.user.id || ctx.store.notes.has(binned.id)) return next(ctx, call);
          ctx.store.insertNote(binned);
          bin.delete(binned.id);
          return {};
        },
      },
    };
  },
};
