/**
 * What one side knows about the data its sequence made, learnt only from the operations and
 * their statuses (and versions and times the side itself reported). Both sides hold the same
 * state up to the first difference, so they take the same decisions about what to send.
 */
export interface NoteState {
  uuid: string;
  alive: boolean;
  trashed: boolean;
  /** Indexes of the collections holding the note. */
  colls: Set<number>;
  /** The last version the side reported, and the ones it replaced (stale now). */
  version: number | undefined;
  stale: number[];
  /** The created_at of the create response (the backdate limit) and the current one. */
  original: number;
  createdAt: number;
  /** Created without created_at or updated_at: "original creation" is unambiguous. */
  serverCreated: boolean;
  /** created_at and updated_at so far all came from the window (a supplied updated_at cannot go backwards). */
  windowed: boolean;
  /** updated_at is determined by the document (false after trash, restore, membership, set-created-at). */
  updatedKnown: boolean;
  /** Labels of the instants supplied for this note: the only ones its timestamps may show. */
  stamps: Set<string>;
}

export interface CollectionState {
  uuid: string;
  alive: boolean;
  /** updated_at is determined (false once membership changed it may or may not have moved). */
  updatedKnown: boolean;
  stamps: Set<string>;
}

export class SideState {
  readonly notes: NoteState[] = [];
  readonly colls: CollectionState[] = [];
  /** Timestamps supplied so far: each is the window start plus one more hour, so they only grow. */
  private stamps = 0;

  constructor(readonly windowStart: number) {}

  nextStamp(): number {
    return this.windowStart + ++this.stamps * 3_600_000;
  }

  /**
   * The index-th note this sequence created among those `where` accepts (deleted ones count:
   * acting on them is a documented refusal). Operations pick among the notes for which the
   * document determines the outcome, instead of skipping when they land on another.
   */
  note(index: number, where: (n: NoteState) => boolean = () => true): { i: number; n: NoteState } | undefined {
    const fit = this.notes.flatMap((n, i) => (where(n) ? [{ i, n }] : []));
    return fit.length === 0 ? undefined : fit[index % fit.length];
  }

  coll(
    index: number,
    where: (c: CollectionState, i: number) => boolean = () => true,
  ): { i: number; c: CollectionState } | undefined {
    const fit = this.colls.flatMap((c, i) => (where(c, i) ? [{ i, c }] : []));
    return fit.length === 0 ? undefined : fit[index % fit.length];
  }

  /** A note that still exists (for duplicate ids: reusing a deleted one's id is not documented). */
  aliveNote(index: number): NoteState | undefined {
    const alive = this.notes.filter((n) => n.alive);
    return alive.length === 0 ? undefined : alive[index % alive.length];
  }

  aliveColl(index: number): CollectionState | undefined {
    const alive = this.colls.filter((c) => c.alive);
    return alive.length === 0 ? undefined : alive[index % alive.length];
  }

  /** Notes a collection holds, and whether any is trashed (whether those count is not shown). */
  members(coll: number): { notes: NoteState[]; anyTrashed: boolean } {
    const notes = this.notes.filter((n) => n.alive && n.colls.has(coll));
    return { notes, anyTrashed: notes.some((n) => n.trashed) };
  }

  unlinkCollection(coll: number): void {
    for (const n of this.notes) {
      if (n.colls.delete(coll)) n.updatedKnown = false;
    }
  }
}
