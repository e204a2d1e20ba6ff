import type { Backdate } from '../sequences/ops.js';
import type { KnownCollection, KnownNote } from './state.js';

/**
 * What the document predicts of a request from the state (state.ts), before it is sent: whether it
 * must be accepted or refused, and under which rule; undefined where the document leaves it open or
 * the state does not know enough. The oracle judges answers by these, the model-based checks
 * expect them, and the differential run sends only requests whose outcome they settle.
 */

const alive = (r: { deleted?: unknown } | undefined) => r !== undefined && !r.deleted;

/**
 * PATCH /v2/notes/{id} with `version`: refused while trashed ("update and set-created-at are
 * refused until the note is restored"), refused unless it equals the current version.
 */
export type UpdateOutcome = 'trashed' | 'stale' | 'ahead' | 'current';

export function updateOutcome(n: KnownNote, version: number): UpdateOutcome | undefined {
  if (n.deleted) return undefined;
  if (n.trashed?.value === true) return 'trashed';
  return versionOutcome(n, version);
}

/** The version part alone: equal to the current version, lower (one it had), or higher. */
export function versionOutcome(n: KnownNote, version: number): Exclude<UpdateOutcome, 'trashed'> | undefined {
  if (!n.version) return undefined;
  return version === n.version.value ? 'current' : version < n.version.value ? 'stale' : 'ahead';
}

export const UPDATE_RULES: Readonly<Record<Exclude<UpdateOutcome, 'current'>, string>> = {
  trashed: 'notes.update.trashed-refused',
  stale: 'notes.update.version-stale-refused',
  ahead: 'notes.update.version-ahead-refused',
};

/** Whether two instants are the same at the target's precision (a store may cut a supplied instant). */
export function sameInstant(a: number, b: number, precisionMs: number): boolean {
  return precisionMs <= 1 ? a === b : Math.abs(a - b) < precisionMs;
}

/**
 * PATCH /v2/notes/{id}/created-at with `value`: refused while trashed, refused in the future, refused
 * "later than when the note was originally created"; accepted otherwise, under the rule that
 * promises it: the original creation bound when it moves created_at later than it is now.
 * `now` and `toleranceMs` place "the future". A value after the created_at the create answered is
 * judged only when the original creation is known (a create that supplied a time leaves it open).
 */
export type BackdateOutcome =
  | { accepted: false; rule: string }
  | { accepted: true; rule: 'notes.set-created-at.applied' | 'notes.set-created-at.original-creation-bound' };

export function setCreatedAtOutcome(
  n: KnownNote,
  value: number,
  clock: { now: number; toleranceMs: number; precisionMs: number },
): BackdateOutcome | undefined {
  if (n.deleted || !n.trashed) return undefined;
  if (n.trashed.value) return { accepted: false, rule: 'notes.set-created-at.trashed-refused' };
  if (value > clock.now + clock.toleranceMs) return { accepted: false, rule: 'notes.set-created-at.not-future' };
  const original = n.original;
  if (original !== undefined && value > original && !sameInstant(value, original, clock.precisionMs))
    return { accepted: false, rule: 'notes.set-created-at.backdate-only' };
  // Not known: whether a value after the created_at the create answered is later than the original creation.
  const lowest = backdateLimit(n);
  if (original === undefined && (lowest === undefined || value > lowest)) return undefined;
  const current = n.createdAt?.value;
  return {
    accepted: true,
    rule:
      current !== undefined && value > current
        ? 'notes.set-created-at.original-creation-bound'
        : 'notes.set-created-at.applied',
  };
}

/**
 * The earliest instant "originally created" can mean: the original creation when it is known, else
 * the created_at the create answered (a create that supplied a time may mean it or the server's).
 */
export function backdateLimit(n: KnownNote): number | undefined {
  return n.original ?? n.firstCreatedAt;
}

/** Whether a note can take a set-created-at of this kind: 'later' needs the original creation known (a server-chosen one). */
export function backdatable(n: KnownNote, when: Backdate): boolean {
  return backdateLimit(n) !== undefined && (when !== 'later' || n.original !== undefined);
}

/**
 * The instant a set-created-at of this kind sends (the note must be `backdatable`), and the kind it
 * really is: 'between' needs an earlier backdate, and before one it is a plain backdate. The model
 * runs and the differential run send the same instants for the same operation.
 */
export function backdateInstant(
  n: KnownNote,
  op: { when: Backdate; days: number },
  clock: { now: number; toleranceMs: number; precisionMs: number },
): { value: number; when: Backdate } {
  const original = backdateLimit(n)!;
  const createdAt = n.createdAt?.value ?? original;
  const when = op.when === 'between' && createdAt >= original ? 'earlier' : op.when;
  const value = {
    earlier: () => original - op.days * DAY,
    between: () => Math.floor((createdAt + original) / 2),
    equal: () => original,
    // One precision step later: a store that cuts instants may cut a single millisecond away.
    later: () => original + clock.precisionMs,
    future: () => clock.now + clock.toleranceMs * 2 + op.days * DAY + 60_000,
  }[when]();
  return { value, when };
}

const DAY = 86_400_000;

/** Trash an active note, restore a trashed one (section 3); the other way round is not documented. */
export function trashDetermined(n: KnownNote, trash: boolean): boolean {
  return alive(n) && n.trashed !== undefined && n.trashed.value !== trash;
}

/**
 * Membership requests whose outcome the document settles: an active note not yet in the collection
 * (add); in the source and not in another target (move); in the collection (remove). Re-adding a
 * link, moving onto the source or onto a link that exists, and membership of trashed notes are not
 * shown. The note's links must be known.
 */
export function addDetermined(n: KnownNote, c: KnownCollection): boolean {
  return active(n) && alive(c) && n.links !== undefined && !n.links.has(c.id);
}

export function moveDetermined(n: KnownNote, from: KnownCollection, to: KnownCollection): boolean {
  return (
    active(n) && alive(from) && alive(to) && from.id !== to.id && n.links?.has(from.id) === true && !n.links.has(to.id)
  );
}

export function removeDetermined(n: KnownNote, c: KnownCollection): boolean {
  return active(n) && alive(c) && n.links?.has(c.id) === true;
}

function active(n: KnownNote): boolean {
  return alive(n) && n.trashed?.value === false;
}

/** The note's collections as the state knows them (empty when unknown: callers check `links` first). */
export function linksOf(n: KnownNote): string[] {
  return [...(n.links?.keys() ?? [])];
}

/** Versions the note had before, as the stale update of a run may send them (latest last). */
export function staleVersions(n: KnownNote, by?: 'update' | 'learned'): number[] {
  return n.stale.filter((s) => by === undefined || s.by === by).map((s) => s.value);
}
