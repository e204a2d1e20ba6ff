import type { HookFactory, OperationWrapper } from '../http/hooks.js';
import { DomainError } from '../service/errors.js';

/**
 * A server strict where the document leaves the lifecycle open: trashing a trashed note and
 * restoring an active one are refused (409: the note is not in the state the operation leaves),
 * and a membership change of a trashed note is accepted and changes nothing (the trash holds its
 * links as they were). The reference accepts the first two as no-ops and applies the third. The
 * refusals come after the reference's own (missing note, permission), which run first.
 */
export function strictLifecycle(): HookFactory {
  const onlyWhen =
    (trashed: boolean, message: string): OperationWrapper =>
    (next) =>
    (ctx, call) => {
      const note = ctx.store.notes.get(call.params.note_id ?? '');
      const wasTrashed = note !== undefined && note.trashedAt !== null;
      const view = next(ctx, call);
      if (note && wasTrashed !== trashed) {
        // The reference changed nothing for this request (trash keeps the first time, restore of
        // an active note is one already): the refusal leaves the state as it was.
        throw new DomainError('conflict', message);
      }
      return view;
    };
  const frozenWhenTrashed: OperationWrapper = (next) => (ctx, call) => {
    const note = ctx.store.notes.get(call.params.note_id ?? '');
    const before = note && note.trashedAt !== null ? [...note.collectionIds] : undefined;
    const view = next(ctx, call);
    if (note && before) {
      for (const id of [...note.collectionIds])
        if (!before.includes(id)) ctx.store.unlink(note, ctx.store.collections.get(id)!);
      for (const id of before) {
        const c = ctx.store.collections.get(id);
        if (c && !note.collectionIds.has(id)) ctx.store.link(note, c);
      }
    }
    return view;
  };
  return () => ({
    ops: {
      trashNote: onlyWhen(false, 'the note is already in the trash'),
      restoreNote: onlyWhen(true, 'the note is not in the trash'),
      addNoteToCollection: frozenWhenTrashed,
      removeNoteFromCollection: frozenWhenTrashed,
      moveNote: frozenWhenTrashed,
    },
  });
}
