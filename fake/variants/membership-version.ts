import type { HookFactory, OperationWrapper } from '../http/hooks.js';

/**
 * A server that counts a note's collection membership as part of the note: adding it to a
 * collection, removing it from one or moving it changes its `version` (one step per operation that
 * changed the membership; re-adding a note already in the collection changes nothing). `updated_at`
 * stays as it is: the document says nothing either way, and this choice bumps `version` only.
 * A note created with collections starts at the first version like any other.
 */
export function versionOnMembership(): HookFactory {
  const bumpWhenChanged: OperationWrapper = (next) => (ctx, call) => {
    const note = ctx.store.notes.get(call.params.note_id ?? '');
    const before = note ? [...note.collectionIds].sort().join() : '';
    const view = next(ctx, call);
    if (note && ctx.store.notes.get(note.id) === note && [...note.collectionIds].sort().join() !== before)
      note.version++;
    return view;
  };
  return () => ({
    ops: { addNoteToCollection: bumpWhenChanged, removeNoteFromCollection: bumpWhenChanged, moveNote: bumpWhenChanged },
  });
}
