/**
 * The few places inside the reference's algorithms where a fault cannot be put around an
 * operation or a store call: the ranking, the reading of instants, ownership. The reference asks
 * `ctx.broken(seam)` there (with a comment); fake/faults/seams.ts says which rule each one breaks.
 */
export const SEAMS = [
  'auth.scope.collections-unchecked',
  'auth.scope.notes-unchecked',
  'conventions.timestamps.compared-as-strings',
  'conventions.timestamps.offset-ignored',
  'notes.search.query-optional',
  'notes.search.title-not-indexed',
  'notes.search.unranked',
  'permissions.collection.grants-ignored',
] as const;

export type Seam = (typeof SEAMS)[number];
