import type { TimestampField, TimestampPolicy } from '../service/policy.js';
import type { FaultName } from './catalogue.js';
import type { FaultFactory } from './hooks.js';

const relaxed = (field: TimestampField, rule: Partial<TimestampPolicy>): FaultFactory => () => ({ policy: { timestamps: { [field]: rule } } });

/** Request timestamp rules relaxed per field: an offset no longer required, the future accepted. */
export const TIMESTAMP_FAULTS: Partial<Record<FaultName, FaultFactory>> = {
  'collections.create.created-at-offset-optional': relaxed('collection.create.created_at', { offsetRequired: false }),
  'collections.create.created-at-future-accepted': relaxed('collection.create.created_at', { notFuture: false }),
  'collections.create.updated-at-offset-optional': relaxed('collection.create.updated_at', { offsetRequired: false }),
  'collections.create.updated-at-future-accepted': relaxed('collection.create.updated_at', { notFuture: false }),
  'collections.update.updated-at-offset-optional': relaxed('collection.update.updated_at', { offsetRequired: false }),
  'collections.update.updated-at-future-accepted': relaxed('collection.update.updated_at', { notFuture: false }),
  'notes.list.bounds-offset-optional': relaxed('notes.list.bounds', { offsetRequired: false }),
  'notes.search.bounds-offset-optional': relaxed('notes.search.bounds', { offsetRequired: false }),
  'collections.list.bounds-offset-optional': relaxed('collections.list.bounds', { offsetRequired: false }),
  'collections.search.bounds-offset-optional': relaxed('collections.search.bounds', { offsetRequired: false }),
};
