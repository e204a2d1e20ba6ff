import type { TimestampField, TimestampPolicy } from '../service/policy.js';
import type { Fault, FaultFactory, OperationWrapper } from './hooks.js';
import { fields, withFields } from './support.js';

const relaxed =
  (field: TimestampField, rule: Partial<TimestampPolicy>): FaultFactory =>
  () => ({ policy: { timestamps: { [field]: rule } } });

/** Request timestamp rules relaxed per field: an offset no longer required, the future accepted. */
export const TIMESTAMP_FAULTS = {
  'collections.create.created-at-offset-optional': {
    rules: ['collections.create.created-at-offset-required'],
    does: 'created_at without an offset is read as UTC',
    hooks: relaxed('collection.create.created_at', { offsetRequired: false }),
  },
  'collections.create.created-at-future-accepted': {
    rules: ['collections.create.created-at-not-future'],
    does: 'a future created_at is accepted',
    hooks: relaxed('collection.create.created_at', { notFuture: false }),
  },
  'collections.create.updated-at-offset-optional': {
    rules: ['collections.create.updated-at-offset-required'],
    does: 'updated_at without an offset is read as UTC',
    hooks: relaxed('collection.create.updated_at', { offsetRequired: false }),
  },
  'collections.create.updated-at-future-accepted': {
    rules: ['collections.create.updated-at-not-future'],
    does: 'a future updated_at is accepted',
    hooks: relaxed('collection.create.updated_at', { notFuture: false }),
  },
  'collections.update.updated-at-offset-optional': {
    rules: ['collections.update.updated-at-offset-required'],
    does: 'updated_at without an offset is read as UTC',
    hooks: relaxed('collection.update.updated_at', { offsetRequired: false }),
  },
  'collections.update.updated-at-future-accepted': {
    rules: ['collections.update.updated-at-not-future'],
    does: 'a future updated_at is accepted',
    hooks: relaxed('collection.update.updated_at', { notFuture: false }),
  },
  'notes.list.bounds-offset-optional': {
    rules: ['notes.list.bounds-offset-required'],
    does: 'bounds without an offset are read as UTC',
    hooks: relaxed('notes.list.bounds', { offsetRequired: false }),
  },
  'notes.search.bounds-offset-optional': {
    rules: ['notes.search.bounds-offset-required'],
    does: 'search bounds without an offset are read as UTC',
    hooks: relaxed('notes.search.bounds', { offsetRequired: false }),
  },
  'collections.list.bounds-offset-optional': {
    rules: ['collections.list.bounds-offset-required'],
    does: 'bounds without an offset are read as UTC',
    hooks: relaxed('collections.list.bounds', { offsetRequired: false }),
  },
  'collections.search.bounds-offset-optional': {
    rules: ['collections.search.bounds-offset-required'],
    does: 'bounds without an offset are read as UTC',
    hooks: relaxed('collections.search.bounds', { offsetRequired: false }),
  },
} satisfies Record<string, Fault>;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3})\d*)?(Z|([+-])(\d{2}):(\d{2}))$/i;

/**
 * What a lenient date library does with 2019-02-30: it counts on from the month's start (March 2).
 * Values that are not date-times at all are left for the reference to refuse.
 */
export function rolledOver(value: unknown): unknown {
  const m = typeof value === 'string' ? DATE_TIME.exec(value) : null;
  if (!m) return value;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  const offset = m[9] ? (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])) : 0;
  const ms =
    Date.UTC(year!, month! - 1, day!, hour!, minute!, second!, Number((m[7] ?? '0').padEnd(3, '0'))) - offset * 60_000;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : value;
}

const rollingOver =
  (...names: string[]): OperationWrapper =>
  (next) =>
  (ctx, call) => {
    const body = fields(call);
    const patch = Object.fromEntries(names.filter((n) => body[n] !== undefined).map((n) => [n, rolledOver(body[n])]));
    return next(ctx, Object.keys(patch).length > 0 ? withFields(call, patch) : call);
  };

/** Faults of issue 10's missing convention rules (the lead folds them into the area files). */
export const DATE_FAULTS = {
  'conventions.timestamps.impossible-dates-rolled-over': {
    rules: ['conventions.timestamps.real-dates'],
    does: 'supplied timestamps such as 2019-02-30 are rolled over to the next month instead of refused',
    hooks: () => ({
      ops: {
        createNote: rollingOver('created_at', 'updated_at'),
        updateNote: rollingOver('updated_at'),
        setNoteCreatedAt: rollingOver('created_at'),
        createCollection: rollingOver('created_at', 'updated_at'),
        updateCollection: rollingOver('updated_at'),
      },
    }),
  },
} satisfies Record<string, Fault>;
