import { notFound } from '../service/errors.js';
import { requireNote } from '../service/permissions.js';
import type { NoteRecord } from '../store/records.js';
import type { Fault, OperationWrapper } from './hooks.js';
import { after, around, pathNote, pretending } from './support.js';

export const NOTES_LIFECYCLE_FAULTS = {
  'notes.read.trashed-not-found': {
    rules: ['notes.read.trashed-included', 'notes.trash.readable-by-id'],
    does: 'a trashed note reads as not found',
    hooks: around('getNote', (next) => (ctx, call) => {
      const view = next(ctx, call);
      if (pathNote(ctx, call)?.trashedAt !== null) throw notFound('note');
      return view;
    }),
  },
  'notes.read.trashed-without-trashed-at': {
    rules: ['notes.trash.readable-by-id', 'notes.read.trashed-included'],
    does: 'a trashed note reads with trashed_at null',
    hooks: after('getNote', (_ctx, _call, view) => ({ ...view, trashed_at: null })),
  },
  'notes.trash.access-level-can-trash': {
    rules: ['notes.trash.requires-edit'],
    does: 'access permission suffices to trash',
    hooks: () => ({ policy: { levels: { trashNote: 'access' } } }),
  },
  'notes.trash.trashed-at-not-set': {
    rules: ['notes.trash.sets-trashed-at'],
    does: 'trash answers 200 but leaves trashed_at null',
    hooks: around('trashNote', (next) => (ctx, call) => {
      const note = pathNote(ctx, call);
      const wasActive = note?.trashedAt === null;
      const view = next(ctx, call);
      if (note && wasActive) note.trashedAt = null;
      return view;
    }),
  },
  'notes.restore.keeps-trashed-at': {
    rules: ['notes.restore.returns-to-active'],
    does: 'restore answers 200 but the note stays trashed',
    hooks: around('restoreNote', (next) => (ctx, call) => {
      const note = pathNote(ctx, call);
      const trashedAt = note?.trashedAt ?? null;
      const view = next(ctx, call);
      if (note) note.trashedAt = trashedAt;
      return view;
    }),
  },
  // A restored note still refuses writes, as if the lock of the trash outlived it.
  'notes.restore.still-locked': {
    rules: ['notes.restore.edits-allowed-again'],
    does: 'a restored note still refuses updates',
    hooks: () => {
      const locked = new Set<string>();
      const refuseLocked: OperationWrapper = (next) => (ctx, call) => {
        const note = pathNote(ctx, call);
        return note && locked.has(note.id)
          ? pretending(note, 'trashedAt', note.trashedAt ?? 0, () => next(ctx, call))
          : next(ctx, call);
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
  },
  'errors.missing.note-delete-succeeds': {
    rules: ['errors.missing.note-refused'],
    does: 'deleting a missing note answers 200',
    hooks: around('deleteNote', (next) => (ctx, call) => (pathNote(ctx, call) ? next(ctx, call) : {})),
  },
  'notes.delete.access-level-can-delete': {
    rules: ['notes.delete.requires-edit'],
    does: 'access permission suffices to delete',
    hooks: () => ({ policy: { levels: { deleteNote: 'access' } } }),
  },
  'notes.delete.trashed-refused': {
    rules: ['notes.delete.active-or-trashed'],
    does: 'a trashed note cannot be deleted',
    hooks: around('deleteNote', (next) => (ctx, call) => {
      const note = pathNote(ctx, call);
      if (!note || note.trashedAt === null) return next(ctx, call);
      requireNote(ctx, call.user, note.id, ctx.policy.levels.deleteNote); // permission refusals come first
      throw notFound('note');
    }),
  },
  'notes.delete.soft': {
    rules: ['notes.delete.permanent'],
    does: 'delete only trashes the note',
    hooks: around('deleteNote', () => (ctx, call) => {
      const note = requireNote(ctx, call.user, call.params.note_id!, ctx.policy.levels.deleteNote);
      note.trashedAt ??= ctx.clock.now();
      return {};
    }),
  },
  // Deleted notes come back through restore, without their collections.
  'notes.delete.restorable': {
    rules: ['notes.delete.not-restorable'],
    does: 'a deleted note can be restored',
    hooks: () => {
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
  },
} satisfies Record<string, Fault>;
