import type { Features } from './space.js';

/**
 * How documented operations move a resource between the values of its state features
 * (spec/behaviour-space.yaml): the one place both the coverage tracker (what state an answer was
 * given in) and the explorer (which operation leads where) read it. An accepted answer moves the
 * state; a refused one leaves it.
 */

export const FRESH_NOTE: Readonly<Features> = {
  lifecycle: 'active',
  backdated: 'never',
  updated: 'never',
  collections: 'none',
  moved: 'never',
};
export const FRESH_COLLECTION: Readonly<Features> = {
  lifecycle: 'live',
  notes: 'empty',
  renamed: 'never',
  description: 'none',
};

const more = (v: string, once: string, twice: string) => (v === 'never' ? once : twice);
export const collectionsValue = (count: number) => (count === 0 ? 'none' : count === 1 ? 'one' : 'several');

/** A note's features after an accepted operation on it (`links`: its collection count after, when the answer tells). */
export function noteAfter(f: Features, op: string, links?: number): Features {
  const next = { ...f };
  if (op === 'updateNote') next.updated = more(f.updated!, 'once', 'twice');
  else if (op === 'setNoteCreatedAt') next.backdated = more(f.backdated!, 'once', 'twice');
  else if (op === 'trashNote') next.lifecycle = 'trashed';
  else if (op === 'restoreNote' && f.lifecycle === 'trashed') next.lifecycle = 'restored';
  else if (op === 'deleteNote') next.lifecycle = 'deleted';
  else if (op === 'moveNote') next.moved = more(f.moved!, 'once', 'twice');
  if (links !== undefined) next.collections = collectionsValue(links);
  return next;
}

/** A collection's features after an accepted operation on it. */
export function collectionAfter(
  f: Features,
  op: string,
  change: { retitled?: boolean; holding?: boolean; described?: boolean } = {},
): Features {
  const next = { ...f };
  if (change.described !== undefined) next.description = change.described ? 'set' : 'none';
  if (op === 'deleteCollection') next.lifecycle = 'deleted';
  if (change.retitled) next.renamed = 'renamed';
  if (change.holding !== undefined) next.notes = change.holding ? 'holding' : 'empty';
  return next;
}
