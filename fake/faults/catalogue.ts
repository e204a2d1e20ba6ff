import { ATTACHMENT_ACCESS_FAULTS, ATTACHMENTS_FAULTS } from './attachments.js';
import { COLLECTION_STATE_FAULTS, COLLECTIONS_FAULTS } from './collections.js';
import { COLLECTIONS_QUERY_FAULTS } from './collections-query.js';
import { CONTENT_FAULTS } from './content.js';
import type { Fault, FaultSpec } from './hooks.js';
import { HTTP_FAULTS } from './http.js';
import { MEMBERSHIP_FAULTS, MEMBERSHIP_LINK_FAULTS } from './membership.js';
import { NOTES_LIFECYCLE_FAULTS } from './notes-lifecycle.js';
import { NOTES_LIST_FAULTS } from './notes-list.js';
import { NOTES_RELATED_FAULTS, SEARCH_INPUT_AND_SUMMARY_FAULTS } from './notes-related.js';
import { NOTES_SEARCH_FAULTS } from './notes-search.js';
import { NOTE_STATE_FAULTS } from './notes-state.js';
import { NOTES_WRITE_FAULTS } from './notes-write.js';
import { PERMISSION_FAULTS } from './permissions.js';
import { RESPONSE_FAULTS } from './responses.js';
import { SEAM_FAULTS } from './seams.js';
import { HELD_OUT, SEQUENCE_FAULTS } from './sequences.js';
import { STALE_VIEW_FAULTS } from './stale-views.js';
import { DATE_FAULTS, TIMESTAMP_FAULTS } from './timestamps.js';

export type { FaultSpec } from './hooks.js';

/**
 * Named, deliberate violations the fake can be started with, each tied to the rules it breaks.
 * They exist only to prove that the kit's checks can fail (the fault matrix); nothing else uses
 * them. Each fault is one entry in its area's file: what it breaks, what it does, and its hooks
 * (fake/http/hooks.ts), installed around the reference by fake/instance.ts.
 */
const AREAS = [
  HTTP_FAULTS,
  RESPONSE_FAULTS,
  SEAM_FAULTS,
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
  SEQUENCE_FAULTS,
] as const;

type Areas = (typeof AREAS)[number];
/** Every fault's name: the keys of the area files (a union over AREAS, so nothing is written twice). */
export type FaultName = Areas extends infer A ? (A extends Areas ? keyof A & string : never) : never;

/** Every fault by name; a name in two areas is refused when the module loads. */
export const FAULTS_BY_NAME: Readonly<Record<FaultName, Fault>> = (() => {
  const all: Record<string, Fault> = {};
  for (const area of AREAS) {
    for (const [name, fault] of Object.entries(area) as Array<[string, Fault]>) {
      if (Object.hasOwn(all, name)) throw new Error(`fault ${name} is defined twice`);
      all[name] = fault;
    }
  }
  return all as Record<FaultName, Fault>;
})();

export const FAULTS: Readonly<Record<FaultName, FaultSpec>> = Object.fromEntries(
  Object.entries(FAULTS_BY_NAME).map(([name, { hooks: _, ...spec }]) => [name, spec]),
) as Record<FaultName, FaultSpec>;

/** The faults of the matrix: every fault but issue 32's held-out batch (sequences.ts). */
export const FAULT_NAMES = (Object.keys(FAULTS) as FaultName[]).filter((n) => !HELD_OUT.has(n as never)).sort();

/** Issue 32's held-out batch of sequence faults (scripts/measure-batch.js measures it). */
export const BATCH_FAULT_NAMES = (Object.keys(SEQUENCE_FAULTS) as FaultName[]).sort();

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
