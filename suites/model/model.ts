/**
 * A pure description of the documented behaviour the stateful runs check: notes with their
 * content, last version seen, trash state and collections; collections with their notes. It is
 * written from the API document, not from the fake's code.
 */
export interface ModelNote {
  content: string;
  /** The rule that promises the current content: the create's, or the update's after one succeeded. */
  contentRule: 'notes.create.content-stored' | 'notes.update.content-replaced';
  /** The version the target last reported (the document does not say how versions count). */
  version: number;
  /** Versions the note had before (all stale now). */
  stale: number[];
  trashed: boolean;
  collections: Set<string>;
  /** Original creation time (the backdate limit), and the current visible created_at. */
  original: number;
  createdAt: number;
}

export interface ModelCollection {
  title: string;
  notes: Set<string>;
}

export interface Model {
  notes: Map<string, ModelNote>;
  collections: Map<string, ModelCollection>;
  /** Ids of notes created in this run, including deleted ones (never reused by the commands). */
  everNotes: string[];
  everCollections: string[];
  /** What the target offers beyond the documented endpoints. */
  canRestore: boolean;
  canRemove: boolean;
}

export function emptyModel(canRestore: boolean, canRemove: boolean): Model {
  return { notes: new Map(), collections: new Map(), everNotes: [], everCollections: [], canRestore, canRemove };
}

/**
 * A version read after an operation whose effect on the version the document does not settle
 * (membership changes, set-created-at): the model takes it as current and the one before as stale.
 * A value that is not a positive integer is left to the read and update rules.
 */
export function learnVersion(note: ModelNote, read: unknown): void {
  if (typeof read !== 'number' || !Number.isInteger(read) || read < 1 || read === note.version) return;
  note.stale.push(note.version);
  note.version = read;
}

/** The i-th note still alive (optionally among those matching), in creation order: commands hold indexes, not ids. */
export function pickNote(
  model: Model,
  index: number,
  where: (note: ModelNote) => boolean = () => true,
): string | undefined {
  const alive = model.everNotes.filter((id) => model.notes.has(id) && where(model.notes.get(id)!));
  return alive.length === 0 ? undefined : alive[index % alive.length];
}

export function pickCollection(model: Model, index: number): string | undefined {
  const alive = model.everCollections.filter((id) => model.collections.has(id));
  return alive.length === 0 ? undefined : alive[index % alive.length];
}

/** Active notes a collection holds: what note_count certainly counts. */
export function activeCount(model: Model, collectionId: string): { active: number; anyTrashed: boolean } {
  const c = model.collections.get(collectionId)!;
  let active = 0;
  let anyTrashed = false;
  for (const id of c.notes) {
    if (model.notes.get(id)?.trashed) anyTrashed = true;
    else active++;
  }
  return { active, anyTrashed };
}
