import { ATTACHMENT_ACCESS_FAULTS, ATTACHMENTS_FAULTS } from './attachments.js';
import type { FaultName } from './catalogue.js';
import { COLLECTION_STATE_FAULTS, COLLECTIONS_FAULTS } from './collections.js';
import { COLLECTIONS_QUERY_FAULTS } from './collections-query.js';
import { CONTENT_FAULTS } from './content.js';
import { type FaultFactory, type InstalledFaults, installFaults } from './hooks.js';
import { MEMBERSHIP_FAULTS, MEMBERSHIP_LINK_FAULTS } from './membership.js';
import { NOTES_LIFECYCLE_FAULTS } from './notes-lifecycle.js';
import { NOTES_LIST_FAULTS } from './notes-list.js';
import { NOTES_RELATED_FAULTS, SEARCH_INPUT_AND_SUMMARY_FAULTS } from './notes-related.js';
import { NOTES_SEARCH_FAULTS } from './notes-search.js';
import { NOTE_STATE_FAULTS } from './notes-state.js';
import { NOTES_WRITE_FAULTS } from './notes-write.js';
import { PERMISSION_FAULTS } from './permissions.js';
import { DATE_FAULTS, TIMESTAMP_FAULTS } from './timestamps.js';

/**
 * Faults that break the reference from outside (policy overrides, operation and store wrappers),
 * by area. Faults not listed here are seams: the http layer or an algorithm asks `broken(name)`,
 * or they change a response after the fact (response-faults.ts). A test keeps the catalogue, this
 * table and the seams in step.
 */
const AREAS: ReadonlyArray<Partial<Record<FaultName, FaultFactory>>> = [
  NOTES_WRITE_FAULTS,
  NOTES_LIFECYCLE_FAULTS,
  NOTES_LIST_FAULTS,
  NOTES_SEARCH_FAULTS,
  NOTES_RELATED_FAULTS,
  TIMESTAMP_FAULTS,
  PERMISSION_FAULTS,
  CONTENT_FAULTS,
  COLLECTIONS_FAULTS,
  COLLECTIONS_QUERY_FAULTS,
  MEMBERSHIP_FAULTS,
  ATTACHMENTS_FAULTS,
  NOTE_STATE_FAULTS,
  COLLECTION_STATE_FAULTS,
  MEMBERSHIP_LINK_FAULTS,
  DATE_FAULTS,
  ATTACHMENT_ACCESS_FAULTS,
  SEARCH_INPUT_AND_SUMMARY_FAULTS,
];

export const FAULT_BEHAVIOURS: Partial<Record<FaultName, FaultFactory>> = {};
for (const area of AREAS) {
  for (const [name, factory] of Object.entries(area) as Array<[FaultName, FaultFactory]>) {
    // Two behaviours for one fault would silently drop one: refuse at load time.
    if (FAULT_BEHAVIOURS[name]) throw new Error(`fault ${name} has a behaviour in two areas`);
    FAULT_BEHAVIOURS[name] = factory;
  }
}

/** The hooks of the faults an instance was started with (catalogue order, so composition is stable). */
export function installed(active: ReadonlySet<FaultName>): InstalledFaults {
  const factories = [...active].sort().flatMap((name) => FAULT_BEHAVIOURS[name] ?? []);
  return installFaults(factories);
}
