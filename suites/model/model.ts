import { type KnownCollection, type KnownNote, World } from '../../kit/core/behaviour/state.js';
import type { Owner } from '../../kit/core/ledger.js';

/**
 * The model of a model-based run: the state of the API as the one interpreter of documented
 * behaviour keeps it (kit/core/behaviour/: what each operation does, effects.ts; what the document
 * predicts, outcomes.ts), for the run's user, and the order in which the run created things
 * (commands hold indexes, not ids). The commands send, judge the answer by the interpreter's
 * predictions, and apply its effects.
 */
export interface Model {
  readonly world: World;
  readonly owner: Owner;
  /** Ids of notes created in this run, including deleted ones (never reused by the commands). */
  everNotes: string[];
  everCollections: string[];
  /** What the target offers beyond the documented endpoints. */
  canRestore: boolean;
  canRemove: boolean;
}

export function emptyModel(canRestore: boolean, canRemove: boolean): Model {
  return { world: new World(), owner: 'primary', everNotes: [], everCollections: [], canRestore, canRemove };
}

export function noteOf(model: Model, id: string): KnownNote {
  return model.world.notes.get(id)!;
}

export function collectionOf(model: Model, id: string): KnownCollection {
  return model.world.collections.get(id)!;
}

const alive = (r: { deleted?: unknown } | undefined) => r !== undefined && !r.deleted;

/** The i-th note still alive (optionally among those matching), in creation order: commands hold indexes, not ids. */
export function pickNote(
  model: Model,
  index: number,
  where: (note: KnownNote) => boolean = () => true,
): string | undefined {
  const fit = model.everNotes.filter((id) => {
    const n = model.world.notes.get(id);
    return alive(n) && where(n!);
  });
  return fit.length === 0 ? undefined : fit[index % fit.length];
}

export function pickCollection(
  model: Model,
  index: number,
  where: (c: KnownCollection) => boolean = () => true,
): string | undefined {
  const fit = model.everCollections.filter((id) => {
    const c = model.world.collections.get(id);
    return alive(c) && where(c!);
  });
  return fit.length === 0 ? undefined : fit[index % fit.length];
}

/** Notes and collections the run deleted. */
export function deletedNotes(model: Model): string[] {
  return model.everNotes.filter((id) => !alive(model.world.notes.get(id)));
}

export function deletedCollections(model: Model): string[] {
  return model.everCollections.filter((id) => !alive(model.world.collections.get(id)));
}

export const isTrashed = (n: KnownNote): boolean => n.trashed?.value === true;

/** The note's content and the rule of the write that set it (create or update). */
export function contentOf(n: KnownNote): { content: string; rule: string } {
  return { content: n.content!.value, rule: n.content!.origin ?? n.content!.rule };
}

/** The version an update sends as the current one: the known one, else the last the run saw. */
export function currentVersion(n: KnownNote): number {
  return n.version?.value ?? n.unsettledVersion ?? 1;
}

/** What note_count must be (the interpreter's: every member known and active), else undefined. */
export function noteCount(model: Model, collectionId: string): number | undefined {
  return model.world.activeCount(collectionOf(model, collectionId));
}
