import type { Level } from '../store/records.js';
import type { Fault, FaultFactory } from './hooks.js';

/** A server that reads one grant level as another (or not at all). */
const grantsRead =
  (level: Level, as: Level | undefined): FaultFactory =>
  () => ({
    store: {
      grantLevel: (next) => (resourceId, userId) => {
        const granted = next(resourceId, userId);
        return granted === level ? as : granted;
      },
    },
  });

export const PERMISSION_FAULTS = {
  'permissions.access.grant-ignored': {
    rules: ['permissions.access.read'],
    does: 'access grants on notes are ignored',
    hooks: grantsRead('access', undefined),
  },
  'permissions.edit.treated-as-access': {
    rules: ['permissions.edit.update-delete'],
    does: 'edit grants act as access',
    hooks: grantsRead('edit', 'access'),
  },
  'permissions.contribute.treated-as-access': {
    rules: ['permissions.contribute.add'],
    does: 'contribute grants act as access',
    hooks: grantsRead('contribute', 'access'),
  },
  'permissions.own.owner-only': {
    rules: ['permissions.own.set-created-at'],
    does: 'only the creator can set created_at, whatever the grant',
    hooks: grantsRead('own', 'edit'),
  },
} satisfies Record<string, Fault>;
