import type { Profile } from '../../../spec/profile.js';
import type { Api } from '../api.js';
import type { KnownCollection, KnownNote, World } from '../behaviour/state.js';
import type { Owner } from '../ledger.js';

/**
 * What a sequence of operations runs with (steps.ts): the API it sends through, whose oracle
 * judges every answer and keeps the one state of the run (`world`), and what the sequence itself
 * made, in creation order (operations hold indexes into it, so a sequence means the same thing
 * wherever it runs). The model-based checks, the differential run and the explorer all run on it;
 * none of them judges: a step's answer is the oracle's (`failures` counts what it found broken).
 */
export interface Runner {
  readonly api: Api;
  readonly world: World;
  readonly owner: Owner;
  /** Ids of the notes and collections the sequence created, deleted ones included. */
  readonly mine: { readonly notes: string[]; readonly collections: string[] };
  /** The steps taken, each a readable line with the ids it touched. */
  readonly steps: string[];
  /** Markdown whose first line is `title`, with the run's marker in the body. */
  content(title: string, body?: string): string;
  /** A word that appears nowhere but in this run. */
  word(): string;
  /** A past instant the sequence supplies, `back` steps before the last one (they grow with each call). */
  stamp(): number;
  /** The target's clock tolerance and timestamp precision. */
  readonly clock: { readonly toleranceMs: number; readonly precisionMs: number };
  /** An instant before the sequence's first note (lists and searches bound by it). */
  readonly since: string;
  /** Whether the profile declares this field (a name or endpoint the document does not show). */
  declares(field: string): boolean;
  readonly profile: Profile;
  /** Notes the sequence may make only to pass a full page of 100 (none: never). */
  readonly fillers?: { made: number; readonly max: number };
  /** How often each kind of edge request was sent (edges.ts sends the least sent first). */
  readonly edgesSent: Map<string, number>;
  /** Judgements the oracle found broken so far. */
  failures(): number;
}

const alive = (r: { deleted?: unknown } | undefined) => r !== undefined && !r.deleted;

/** The index-th note of the sequence still alive (or any, deleted ones too), among those `where` accepts. */
export function pickNote(
  run: Runner,
  index: number,
  where: (n: KnownNote) => boolean = () => true,
  deletedToo = false,
): KnownNote | undefined {
  const fit = run.mine.notes.flatMap((id) => {
    const n = run.world.notes.get(id);
    return n && (deletedToo || alive(n)) && where(n) ? [n] : [];
  });
  return fit.length === 0 ? undefined : fit[index % fit.length];
}

export function pickCollection(
  run: Runner,
  index: number,
  where: (c: KnownCollection) => boolean = () => true,
  deletedToo = false,
): KnownCollection | undefined {
  const fit = run.mine.collections.flatMap((id) => {
    const c = run.world.collections.get(id);
    return c && (deletedToo || alive(c)) && where(c) ? [c] : [];
  });
  return fit.length === 0 ? undefined : fit[index % fit.length];
}

/** The sequence's notes and collections that were deleted. */
export function deletedOf(run: Runner, kind: 'notes' | 'collections'): string[] {
  const known = kind === 'notes' ? run.world.notes : run.world.collections;
  return run.mine[kind].filter((id) => known.get(id)?.deleted);
}

export const isTrashed = (n: KnownNote): boolean => n.trashed?.value === true;

/** The version an update sends as the current one: the known one, else the last the run saw. */
export function currentVersion(n: KnownNote): number {
  return n.version?.value ?? n.unsettledVersion ?? 1;
}

export const iso = (ms: number) => new Date(ms).toISOString();
