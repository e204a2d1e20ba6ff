import { ATTACHMENT_ACCESS_FAULTS, ATTACHMENTS_FAULTS } from './attachments.js';
import { COLLECTION_STATE_FAULTS, COLLECTIONS_FAULTS } from './collections.js';
import { COLLECTIONS_QUERY_FAULTS } from './collections-query.js';
import { CONTENT_FAULTS } from './content.js';
import type { Fault, FaultSpec } from './hooks.js';
import { MEMBERSHIP_FAULTS, MEMBERSHIP_LINK_FAULTS } from './membership.js';
import { NOTES_LIFECYCLE_FAULTS } from './notes-lifecycle.js';
import { NOTES_LIST_FAULTS } from './notes-list.js';
import { NOTES_RELATED_FAULTS, SEARCH_INPUT_AND_SUMMARY_FAULTS } from './notes-related.js';
import { NOTES_SEARCH_FAULTS } from './notes-search.js';
import { NOTE_STATE_FAULTS } from './notes-state.js';
import { NOTES_WRITE_FAULTS } from './notes-write.js';
import { PERMISSION_FAULTS } from './permissions.js';
import { SEAM_FAULTS } from './seams.js';
import { STALE_VIEW_FAULTS } from './stale-views.js';
import { DATE_FAULTS, TIMESTAMP_FAULTS } from './timestamps.js';

export type { FaultSpec } from './hooks.js';

/**
 * Named, deliberate violations the fake can be started with, each tied to the rules it breaks.
 * They exist only to prove that the kit's checks can fail (the fault matrix); nothing else uses
 * them. Each fault is one entry in its area's file: what it breaks, what it does, and its hooks
 * (seams.ts lists the few that the http layer or the service asks for by name instead).
 */
const AREAS = [
  NOTES_WRITE_FAULTS,
  NOTES_LIFECYCLE_FAULTS,
  NOTE_STATE_FAULTS,
  NOTES_LIST_FAULTS,
  NOTES_SEARCH_FAULTS,
  NOTES_RELATED_FAULTS,
  SEARCH_INPUT_AND_SUMMARY_FAULTS,
  TIMESTAMP_FAULTS,
  DATE_FAULTS,
  PERMISSION_FAULTS,
  CONTENT_FAULTS,
  COLLECTIONS_FAULTS,
  COLLECTION_STATE_FAULTS,
  COLLECTIONS_QUERY_FAULTS,
  MEMBERSHIP_FAULTS,
  MEMBERSHIP_LINK_FAULTS,
  ATTACHMENTS_FAULTS,
  ATTACHMENT_ACCESS_FAULTS,
  STALE_VIEW_FAULTS,
] as const;

/** Written out area by area: a mapped type over AREAS loses its keys in the service's circular imports. */
export type FaultName =
  | keyof typeof SEAM_FAULTS
  | keyof typeof STALE_VIEW_FAULTS
  | keyof typeof NOTES_WRITE_FAULTS
  | keyof typeof NOTES_LIFECYCLE_FAULTS
  | keyof typeof NOTE_STATE_FAULTS
  | keyof typeof NOTES_LIST_FAULTS
  | keyof typeof NOTES_SEARCH_FAULTS
  | keyof typeof NOTES_RELATED_FAULTS
  | keyof typeof SEARCH_INPUT_AND_SUMMARY_FAULTS
  | keyof typeof TIMESTAMP_FAULTS
  | keyof typeof DATE_FAULTS
  | keyof typeof PERMISSION_FAULTS
  | keyof typeof CONTENT_FAULTS
  | keyof typeof COLLECTIONS_FAULTS
  | keyof typeof COLLECTION_STATE_FAULTS
  | keyof typeof COLLECTIONS_QUERY_FAULTS
  | keyof typeof MEMBERSHIP_FAULTS
  | keyof typeof MEMBERSHIP_LINK_FAULTS
  | keyof typeof ATTACHMENTS_FAULTS
  | keyof typeof ATTACHMENT_ACCESS_FAULTS;

/** Every fault with hooks, by name; a name in two areas is refused when the module loads. */
export const FAULT_HOOKS: ReadonlyMap<FaultName, Fault> = (() => {
  const all = new Map<FaultName, Fault>();
  for (const area of AREAS) {
    for (const [name, fault] of Object.entries(area) as Array<[FaultName, Fault]>) {
      if (all.has(name) || Object.hasOwn(SEAM_FAULTS, name)) throw new Error(`fault ${name} is defined twice`);
      all.set(name, fault);
    }
  }
  return all;
})();

export const FAULTS: Readonly<Record<FaultName, FaultSpec>> = Object.fromEntries([
  ...Object.entries(SEAM_FAULTS),
  ...[...FAULT_HOOKS].map(([name, { hooks: _, ...spec }]) => [name, spec]),
]) as Record<FaultName, FaultSpec>;

export const FAULT_NAMES = Object.keys(FAULTS).sort() as FaultName[];

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}

/** Validates fault names given by a user (CLI, options), naming the unknown ones. */
export function parseFaults(names: readonly string[]): ReadonlySet<FaultName> {
  const unknown = names.filter((n) => !isFaultName(n));
  if (unknown.length > 0)
    throw new Error(`unknown fault(s): ${unknown.join(', ')} (see notes-conformance fake --list-faults)`);
  return new Set(names as FaultName[]);
}
