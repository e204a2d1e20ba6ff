import type { FaultName } from './catalogue.js';
import { type FaultFactory, type InstalledFaults, installFaults } from './hooks.js';
import { CONTENT_FAULTS } from './content.js';
import { NOTES_LIFECYCLE_FAULTS } from './notes-lifecycle.js';
import { NOTES_WRITE_FAULTS } from './notes-write.js';
import { NEW_ATTACHMENT_FAULTS } from './new-attachments.js';
import { NEW_COLLECTION_FAULTS } from './new-collections.js';
import { NEW_CONVENTION_FAULTS } from './new-conventions.js';
import { NEW_MEMBERSHIP_FAULTS } from './new-membership.js';
import { NEW_NOTE_FAULTS } from './new-notes.js';
import { NEW_SEARCH_FAULTS } from './new-search.js';
import { PERMISSION_FAULTS } from './permissions.js';
import { TIMESTAMP_FAULTS } from './timestamps.js';

/**
 * Faults that break the reference from outside (policy overrides, operation and store wrappers),
 * by area. Faults not listed here are seams: the http layer or an algorithm asks `broken(name)`,
 * or they change a response after the fact (response-faults.ts). A test keeps the catalogue, this
 * table and the seams in step.
 */
export const FAULT_BEHAVIOURS: Partial<Record<FaultName, FaultFactory>> = {
  ...NOTES_WRITE_FAULTS,
  ...NOTES_LIFECYCLE_FAULTS,
  ...TIMESTAMP_FAULTS,
  ...PERMISSION_FAULTS,
  ...CONTENT_FAULTS,
  ...NEW_NOTE_FAULTS,
  ...NEW_COLLECTION_FAULTS,
  ...NEW_MEMBERSHIP_FAULTS,
  ...NEW_CONVENTION_FAULTS,
  ...NEW_ATTACHMENT_FAULTS,
  ...NEW_SEARCH_FAULTS,
};

/** The hooks of the faults an instance was started with (catalogue order, so composition is stable). */
export function installed(active: ReadonlySet<FaultName>): InstalledFaults {
  const factories = [...active].sort().flatMap((name) => FAULT_BEHAVIOURS[name] ?? []);
  return installFaults(factories);
}
