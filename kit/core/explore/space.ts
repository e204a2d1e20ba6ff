import { specFile } from '../../../spec/paths.js';
import { CONTAINS_KINDS } from '../../../spec/profile.js';
import { loadRules } from '../../../spec/rules.js';
import { readYamlFile } from '../../../spec/yaml-file.js';

/**
 * The behaviour space (spec/behaviour-space.yaml) and the coverage targets derived from it. The
 * oracle marks targets covered from the run's traffic (../oracle/coverage.ts); the explorer plans
 * requests for those left (explorer.ts); the report lists them all.
 */

export type Kind = 'note' | 'collection';
export type Dimension = 'state' | 'after-write' | 'inputs' | 'bounds' | 'paging' | 'repeats' | 'callers';
export const DIMENSIONS: readonly Dimension[] = [
  'state',
  'after-write',
  'inputs',
  'bounds',
  'paging',
  'repeats',
  'callers',
];

export interface Space {
  readonly features: Readonly<Record<Kind, Readonly<Record<string, readonly string[]>>>>;
  readonly operations: Readonly<Record<Kind, readonly string[]>>;
  readonly views: Readonly<Record<Kind, { readonly writes: readonly string[]; readonly shown_by: readonly string[] }>>;
  /** Pairs of inputs; a third element `same`: both name one resource (a collection by id and by title). */
  readonly inputs: Readonly<Record<string, ReadonlyArray<readonly [string, string, 'same'?]>>>;
  /** Per list view, the time bounds met with a resource of the caller on each side of them by its two times. */
  readonly bounds: Readonly<Record<string, readonly string[]>>;
  readonly paging: Readonly<Record<string, readonly string[]>>;
  readonly repeats: readonly string[];
  /** By kind, who asks (the other token user, or a permission level granted) and what they send. */
  readonly callers: Readonly<Record<Kind, Readonly<Record<string, readonly string[]>>>>;
  readonly excluded?: ReadonlyArray<{ readonly targets: string; readonly why: string }>;
}

export interface Target {
  readonly id: string;
  readonly dimension: Dimension;
  /** The operation the target sends (for after-write targets, the view read). */
  readonly op: string;
  /** Profile fields the target needs declared (a name or an endpoint the document does not show). */
  readonly needs: readonly string[];
  /** How many documented rules name the operation: the planner spends a small budget on the heaviest first. */
  readonly weight: number;
}

let cached: Space | undefined;

export function loadSpace(): Space {
  cached ??= readYamlFile(specFile('behaviour-space.yaml')) as Space;
  return cached;
}

/** A resource's state: one value per feature. */
export type Features = Record<string, string>;

/** Ids of the state targets: an operation on a resource in a lifecycle, with one other feature's value. */
export function stateTargetId(op: string, kind: Kind, lifecycle: string, feature: string, value: string): string {
  return `state:${op}:${kind}:${lifecycle}:${feature}=${value}`;
}

/** The state targets a request visits: the operation on a resource with these features. */
export function stateTargetsOf(op: string, kind: Kind, f: Features): string[] {
  return Object.entries(f)
    .filter(([name]) => name !== 'lifecycle')
    .map(([name, value]) => stateTargetId(op, kind, f.lifecycle!, name, value));
}

export const afterWriteId = (kind: Kind, write: string, view: string) => `after-write:${kind}:${write}>${view}`;
export const inputsId = (op: string, a: string, b: string, same?: 'same') =>
  `inputs:${op}:${a}+${b}${same ? '=same' : ''}`;
export const boundsId = (op: string, bound: string) => `bounds:${op}:${bound}:split`;
export const pagingId = (op: string, boundary: string) => `paging:${op}:${boundary}`;
export const repeatId = (op: string) => `repeats:${op}`;
export const callersId = (kind: Kind, who: string, op: string) => `callers:${kind}:${who}:${op}`;

/** Operations the document names but whose endpoint (or name) only a profile gives. */
const OP_NEEDS: Readonly<Record<string, readonly string[]>> = {
  restoreNote: ['endpoints.restore_note'],
  removeNoteFromCollection: ['endpoints.remove_note_from_collection'],
  'listNotes?collection': ['names.notes_list.collection'],
  'searchNotes?collections': ['names.notes_search.collections'],
};

/** The profile fields an operation (or a view kept to a collection) needs declared before it can be sent. */
export const opNeeds = (op: string): readonly string[] => OP_NEEDS[op] ?? [];

/** The view a request reads: the operation, kept to a collection where its filter says so (spec/behaviour-space.yaml). */
export function viewOf(op: string, input: Readonly<Record<string, unknown>>): string {
  if (op === 'listNotes' && input.collection !== undefined) return 'listNotes?collection';
  if (op === 'searchNotes' && Array.isArray(objectOf(input.body).collections)) return 'searchNotes?collections';
  return op;
}
const objectOf = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
/** Inputs and paging whose names the document does not show. */
const INPUT_NEEDS: Readonly<Record<string, readonly string[]>> = {
  'listNotes:collection': ['names.notes_list.collection'],
  'listNotes:cursor': ['names.notes_list.cursor'],
  'searchNotes:collections': ['names.notes_search.collections'],
  'listCollections:cursor': ['names.collections_list.cursor'],
  // A contains filter is sent where the profile names it, and judged where it says what content matches.
  ...Object.fromEntries(
    (['listNotes', 'searchNotes'] as const).flatMap((op) =>
      CONTAINS_KINDS.map((k) => [
        `${op}:${k}`,
        [`names.${op === 'listNotes' ? 'notes_list' : 'notes_search'}.contains_${k}`, 'content_markers'],
      ]),
    ),
  ),
};
const PAGING_NEEDS: Readonly<Record<string, readonly string[]>> = {
  'listNotes:later': ['names.notes_list.cursor'],
  'listNotes:filtered-later': ['names.notes_list.cursor'],
  'listNotes:collection-later': ['names.notes_list.cursor', 'names.notes_list.collection'],
  'listCollections:later': ['names.collections_list.cursor'],
};

/** Every target of the space, in a stable order. */
export function allTargets(space: Space = loadSpace()): Target[] {
  const rulesOf = new Map<string, number>();
  for (const r of loadRules())
    if (r.level === 'documented') for (const op of r.operations) rulesOf.set(op, (rulesOf.get(op) ?? 0) + 1);
  const out: Target[] = [];
  const add = (id: string, dimension: Dimension, op: string, needs: readonly string[]) =>
    out.push({ id, dimension, op, needs: [...new Set(needs)], weight: rulesOf.get(op) ?? 0 });
  for (const kind of ['note', 'collection'] as const) {
    const { lifecycle = [], ...others } = space.features[kind];
    const views = space.views[kind].shown_by.filter((v) => !space.operations[kind].includes(v));
    for (const op of [...space.operations[kind], ...views])
      for (const l of lifecycle)
        for (const [name, values] of Object.entries(others))
          for (const v of values) {
            const needs = [...(OP_NEEDS[op] ?? []), ...(l === 'restored' ? OP_NEEDS.restoreNote! : [])];
            add(stateTargetId(op, kind, l, name, v), 'state', op, needs);
          }
    for (const write of space.views[kind].writes)
      for (const view of space.views[kind].shown_by)
        add(afterWriteId(kind, write, view), 'after-write', view, [
          ...(OP_NEEDS[write] ?? []),
          ...(OP_NEEDS[view] ?? []),
        ]);
  }
  for (const [op, pairs] of Object.entries(space.inputs))
    for (const [a, b, same] of pairs) {
      const needs = [a, b].flatMap((n) => INPUT_NEEDS[`${op}:${n}`] ?? []);
      add(inputsId(op, a, b, same), 'inputs', op, needs);
    }
  for (const [op, bounds] of Object.entries(space.bounds))
    for (const b of bounds)
      add(boundsId(op, b), 'bounds', op, op === 'listCollections' ? [`names.collections_list.${b}`] : []);
  for (const [op, boundaries] of Object.entries(space.paging))
    for (const b of boundaries) add(pagingId(op, b), 'paging', op, PAGING_NEEDS[`${op}:${b}`] ?? []);
  for (const op of space.repeats) add(repeatId(op), 'repeats', op, OP_NEEDS[op] ?? []);
  for (const kind of ['note', 'collection'] as const)
    for (const [who, ops] of Object.entries(space.callers[kind]))
      for (const op of ops)
        add(callersId(kind, who, op), 'callers', op, [
          who === 'stranger' ? 'capabilities.secondary_token' : 'capabilities.fixtures',
        ]);
  const excluded = (space.excluded ?? []).map(
    (e) => new RegExp(`^${e.targets.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^:]*')}$`),
  );
  return out.filter((t) => !excluded.some((re) => re.test(t.id)));
}
