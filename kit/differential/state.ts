import { type KnownCollection, type KnownNote, World } from '../core/behaviour/state.js';

/**
 * What one side knows about the data its sequence made: the state of the one interpreter of
 * documented behaviour (kit/core/behaviour/), learnt only from the operations and this side's
 * answers, plus what the sequence itself needs (creation order, the instants it supplied). Both
 * sides hold the same state up to the first difference, so they take the same decisions about
 * what to send.
 */
export class SideState {
  readonly world = new World();
  /** Ids of the notes and collections the sequence created, in creation order (deleted ones stay). */
  readonly notes: string[] = [];
  readonly colls: string[] = [];
  /** Labels of the instants supplied for each note or collection: the only ones its timestamps may show. */
  private readonly labels = new Map<string, Set<string>>();
  /** Notes whose created_at and updated_at so far all came from the window (a supplied updated_at cannot go backwards). */
  private readonly windowed = new Set<string>();
  /** Timestamps supplied so far: each is the window start plus one more hour, so they only grow. */
  private stamps = 0;

  constructor(readonly windowStart: number) {}

  nextStamp(): number {
    return this.windowStart + ++this.stamps * 3_600_000;
  }

  stampsOf(id: string): Set<string> {
    let set = this.labels.get(id);
    if (!set) this.labels.set(id, (set = new Set()));
    return set;
  }

  isWindowed(id: string): boolean {
    return this.windowed.has(id);
  }

  setWindowed(id: string, windowed: boolean): void {
    if (windowed) this.windowed.add(id);
    else this.windowed.delete(id);
  }

  noteAt(i: number): KnownNote {
    return this.world.notes.get(this.notes[i]!)!;
  }

  collAt(i: number): KnownCollection {
    return this.world.collections.get(this.colls[i]!)!;
  }

  /**
   * The index-th note this sequence created among those `where` accepts (deleted ones count:
   * acting on them is a documented refusal). Operations pick among the notes for which the
   * document determines the outcome, instead of skipping when they land on another.
   */
  note(index: number, where: (n: KnownNote) => boolean = () => true): { i: number; n: KnownNote } | undefined {
    const fit = this.notes.flatMap((_, i) => (where(this.noteAt(i)) ? [{ i, n: this.noteAt(i) }] : []));
    return fit.length === 0 ? undefined : fit[index % fit.length];
  }

  coll(
    index: number,
    where: (c: KnownCollection, i: number) => boolean = () => true,
  ): { i: number; c: KnownCollection } | undefined {
    const fit = this.colls.flatMap((_, i) => (where(this.collAt(i), i) ? [{ i, c: this.collAt(i) }] : []));
    return fit.length === 0 ? undefined : fit[index % fit.length];
  }

  /** A note that still exists (for duplicate ids: reusing a deleted one's id is not documented). */
  aliveNote(index: number): KnownNote | undefined {
    const alive = this.notes.map((_, i) => this.noteAt(i)).filter((n) => !n.deleted);
    return alive.length === 0 ? undefined : alive[index % alive.length];
  }

  aliveColl(index: number): KnownCollection | undefined {
    const alive = this.colls.map((_, i) => this.collAt(i)).filter((c) => !c.deleted);
    return alive.length === 0 ? undefined : alive[index % alive.length];
  }

  /** Notes a collection holds, and whether any is trashed (whether those count is not shown). */
  members(coll: number): { notes: KnownNote[]; anyTrashed: boolean } {
    const c = this.collAt(coll);
    const notes = [...(c.members ?? [])].map((id) => this.world.notes.get(id)!).filter((n) => !n.deleted);
    return { notes, anyTrashed: notes.some((n) => n.trashed?.value === true) };
  }
}
