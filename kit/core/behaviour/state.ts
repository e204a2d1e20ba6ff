import type { Exchange } from '../client.js';
import type { Owner } from '../ledger.js';

/**
 * The state of the API as the document describes it, per user: what the exchanges of a run
 * established about each note and collection they touched, field by field, with the rule that
 * promises each value. It is written from the API document, not from the fake: a field is known
 * only while every change to it went through an operation whose effect the document determines;
 * an effect the document leaves open (a membership change's effect on `version`, say) makes the
 * field unknown until the next read tells it. What each operation does to it is effects.ts; what
 * the document predicts from it is outcomes.ts. The oracle, the model-based checks and the
 * differential run all keep their state here (issue 17, item 1: one interpreter).
 */

/** A value the run established, the rule that promises it, and the answer that established it. */
export interface Fact<T> {
  readonly value: T;
  readonly rule: string;
  readonly by: Exchange;
  /**
   * The rule of the write that set the value, where a later operation that promised to keep it
   * (set-created-at, a membership change) now stands as `rule`.
   */
  readonly origin?: string;
}

/** When the resource last changed, in the order of the run's requests (sequence numbers) and in wall time. */
export interface Clock {
  /** Writes to the resource sent and not answered yet. */
  inFlight: number;
  /** The sequence number at which the latest write to it was answered (0: none since the run knew it). */
  lastEndSeq: number;
  /** Wall time (ms) at which the latest write to it was answered. */
  lastEndAt: number;
}

/** A write the target refused: it must have changed nothing, so a later answer showing its effect breaks `rule`. */
export interface Refusal {
  readonly rule: string;
  readonly by: Exchange;
  /** The field values the refused request asked for (content, created_at...). */
  readonly asked: Readonly<Record<string, unknown>>;
}

export interface KnownNote {
  readonly id: string;
  owner: Owner;
  content?: Fact<string>;
  /** The title the target derived from the current content (the derivation is the target's choice). */
  title?: Fact<string>;
  version?: Fact<number>;
  /**
   * Versions the note had and no longer has, oldest first, with what replaced them: an update
   * (`update`), or a read after an operation whose effect on the version is not shown (`learned`).
   */
  stale: StaleVersion[];
  /** The version before an operation whose effect on it is not shown: stale once a read shows another. */
  unsettledVersion?: number;
  createdAt?: Fact<number>;
  /**
   * The created_at the create answered: the original creation is this instant or later (later when
   * the create supplied a time and "originally created" may mean the server's time of the create).
   */
  firstCreatedAt?: number;
  updatedAt?: Fact<number>;
  trashed?: Fact<boolean>;
  /** The original creation time (the backdate limit), known for notes created without a supplied time. */
  original?: number;
  /**
   * The collections holding the note, each with the rule of the operation that linked it; undefined
   * when the run cannot know them all (a link it did not see, another user's collection).
   */
  links?: Map<string, Fact<true>>;
  /** Collections the note was taken out of, with the rule of the operation that did it. */
  unlinked: Map<string, Fact<false>>;
  deleted?: Fact<true>;
  clock: Clock;
  refusals: Refusal[];
}

export interface StaleVersion {
  readonly value: number;
  readonly by: 'update' | 'learned';
}

export interface KnownCollection {
  readonly id: string;
  owner: Owner;
  title?: Fact<string>;
  description?: Fact<string | null>;
  createdAt?: Fact<number>;
  updatedAt?: Fact<number>;
  /** Every note the collection holds (undefined: the run cannot know them all). */
  members?: Set<string>;
  deleted?: Fact<true>;
  clock: Clock;
  refusals: Refusal[];
}

/** Resources an exchange writes to, found before it is sent (so that reads overlapping it judge nothing). */
export interface Touches {
  notes: string[];
  collections: string[];
}

export class World {
  readonly notes = new Map<string, KnownNote>();
  readonly collections = new Map<string, KnownCollection>();
  /**
   * Creates the target refused for their input, by the id they supplied (`note <id>`, `collection
   * <id>`): a refusal creates nothing, so a resource found under that id later breaks its rule.
   */
  readonly refusedCreates = new Map<string, Refusal>();
  /**
   * The levels the fixture API granted, in order, by `note <id> <actor>` or `collection <id> <actor>`
   * (grants.ts), and the fixture users granted anything on a collection.
   */
  readonly grants = new Map<string, string[]>();
  readonly collectionGrantees = new Set<string>();
  /**
   * Fixture users made with a note quota: its limit, the creates accepted so far, the last accepted
   * set-created-at, and whether a delete made the count unknown (whether it gives a create back is not shown).
   */
  readonly quotas = new Map<string, { limit: number; created: number; setCreatedAt?: Exchange; unknown?: boolean }>();
  /** The note of each attachment the fixture API added. */
  readonly attachments = new Map<string, string>();
  /** The notes granted to each fixture user, at any level, with the sequence number of the first grant. */
  readonly sharedWith = new Map<string, Map<string, number>>();
  /** Every id an answer of the run showed (items of lists and searches included): ids that may exist. */
  readonly seen = new Set<string>();
  /** Every request gets a sequence number when sent and another when answered. */
  private seq = 0;

  tick(): number {
    return ++this.seq;
  }

  note(id: string, owner: Owner): KnownNote {
    let n = this.notes.get(id);
    if (!n) {
      n = { id, owner, stale: [], unlinked: new Map(), clock: newClock(), refusals: [] };
      this.notes.set(id, n);
    }
    return n;
  }

  collection(id: string, owner: Owner): KnownCollection {
    let c = this.collections.get(id);
    if (!c) {
      c = { id, owner, clock: newClock(), refusals: [] };
      this.collections.set(id, c);
    }
    return c;
  }

  /** A write is about to be sent: reads overlapping it cannot be judged on these resources. */
  writeStarted(t: Touches): void {
    for (const r of this.resources(t)) r.clock.inFlight++;
  }

  /** The write was answered (whatever the answer): the resources changed, or were refused, now. */
  writeEnded(t: Touches, seq: number, at: number): void {
    for (const r of this.resources(t)) {
      r.clock.inFlight = Math.max(0, r.clock.inFlight - 1);
      r.clock.lastEndSeq = Math.max(r.clock.lastEndSeq, seq);
      r.clock.lastEndAt = Math.max(r.clock.lastEndAt, at);
    }
  }

  /** What a collection's note_count must be, when the run knows it: every member known and active. */
  activeCount(c: KnownCollection): number | undefined {
    if (!c.members) return undefined;
    let count = 0;
    for (const id of c.members) {
      const n = this.notes.get(id);
      // Whether trashed notes count is not shown: a collection holding one has no known count.
      if (n?.trashed?.value !== false) return undefined;
      count++;
    }
    return count;
  }

  /** The run no longer knows which collections hold the note, nor the counts of those it knew. */
  forgetLinks(n: KnownNote): void {
    for (const id of n.links?.keys() ?? []) {
      const c = this.collections.get(id);
      if (c) c.members = undefined;
    }
    n.links = undefined;
  }

  /** Everything about the note becomes unknown (an accepted request whose effect the run cannot tell). */
  forgetNote(n: KnownNote): void {
    n.content = undefined;
    n.title = undefined;
    n.version = undefined;
    n.unsettledVersion = undefined;
    n.createdAt = undefined;
    n.updatedAt = undefined;
    n.trashed = undefined;
    n.refusals = [];
    this.forgetLinks(n);
  }

  forgetCollection(c: KnownCollection): void {
    c.title = undefined;
    c.description = undefined;
    c.createdAt = undefined;
    c.updatedAt = undefined;
    c.refusals = [];
    for (const id of c.members ?? []) {
      const n = this.notes.get(id);
      if (n) n.links = undefined;
    }
    c.members = undefined;
  }

  private *resources(t: Touches): Iterable<KnownNote | KnownCollection> {
    for (const id of t.notes) {
      const n = this.notes.get(id);
      if (n) yield n;
    }
    for (const id of t.collections) {
      const c = this.collections.get(id);
      if (c) yield c;
    }
  }
}

function newClock(): Clock {
  return { inFlight: 0, lastEndSeq: 0, lastEndAt: 0 };
}

/**
 * Whether a reading that began at `startSeq` (wall time `startedAt`) shows the resource as the
 * shadow knows it: no write to it was in flight or answered after the reading began, and, for
 * search and related notes, the last one was answered more than the index lag before.
 */
export function settled(clock: Clock, startSeq: number, startedAt: number, lagMs = 0): boolean {
  return clock.inFlight === 0 && clock.lastEndSeq < startSeq && (lagMs <= 0 || clock.lastEndAt + lagMs < startedAt);
}
