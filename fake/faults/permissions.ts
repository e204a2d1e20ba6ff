import type { Level } from '../store/records.js';
import type { FaultName } from './catalogue.js';
import type { FaultFactory } from './hooks.js';

/** A server that reads one grant level as another (or not at all). */
const grantsRead = (level: Level, as: Level | undefined): FaultFactory => () => ({
  store: { grantLevel: (next) => (resourceId, userId) => {
    const granted = next(resourceId, userId);
    return granted === level ? as : granted;
  } },
});

export const PERMISSION_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  'permissions.access.grant-ignored': grantsRead('access', undefined),
  'permissions.edit.treated-as-access': grantsRead('edit', 'access'),
  'permissions.contribute.treated-as-access': grantsRead('contribute', 'access'),
  'permissions.own.owner-only': grantsRead('own', 'edit'),
};
