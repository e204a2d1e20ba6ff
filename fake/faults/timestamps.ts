import type { RuleId } from '../../spec/rule-ids.js';
import type { TimestampField, TimestampPolicy } from '../service/policy.js';
import type { Fault, FaultFactory, OperationWrapper } from './hooks.js';
import { fields, withFields } from './support.js';

const relaxed =
  (field: TimestampField, rule: Partial<TimestampPolicy>): FaultFactory =>
  () => ({ policy: { timestamps: { [field]: rule } } });

/**
 * The two relaxations of a request timestamp `name` (the policy's `field`) as faults:
 * `<prefix>offset-optional` breaks `<prefix>offset-required` (an offset no longer required) and
 * `<prefix>future-accepted` breaks `<prefix>not-future`.
 */
export function relaxations<const P extends string>(prefix: P, field: TimestampField, name: string) {
  const fault = (rule: string, does: string, relax: Partial<TimestampPolicy>): Fault => ({
    rules: [`${prefix}${rule}` as RuleId],
    does,
    hooks: relaxed(field, relax),
  });
  return {
    [`${prefix}offset-optional`]: fault('offset-required', `${name} without an offset is read as UTC`, {
      offsetRequired: false,
    }),
    [`${prefix}future-accepted`]: fault('not-future', `a future ${name} is accepted`, { notFuture: false }),
  } as Record<`${P}offset-optional` | `${P}future-accepted`, Fault>;
}

/** Request timestamp rules relaxed per field: an offset no longer required, the future accepted. */
export const TIMESTAMP_FAULTS = {
  ...relaxations('collections.create.created-at-', 'collection.create.created_at', 'created_at'),
  ...relaxations('collections.create.updated-at-', 'collection.create.updated_at', 'updated_at'),
  ...relaxations('collections.update.updated-at-', 'collection.update.updated_at', 'updated_at'),
  ...relaxations('notes.create.created-at-', 'note.create.created_at', 'created_at'),
  ...relaxations('notes.create.updated-at-', 'note.create.updated_at', 'updated_at'),
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
