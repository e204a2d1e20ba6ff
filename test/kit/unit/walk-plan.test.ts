import { describe, expect, it } from 'vitest';
import { FRESH_NOTE, noteAfter } from '../../../kit/core/explore/features.js';
import type { Features } from '../../../kit/core/explore/space.js';
import { keptToLevel, type Move, nearestMove, nextMove } from '../../../kit/core/explore/walk-plan.js';

/** Moves of a note walk with the explorer's models, reduced to what the planner reads. */
const move = (op: string, model: (f: Features) => Features | undefined): Move => ({
  op,
  make: () => ({ kind: 'readNote', note: 0 }),
  model,
});
const editable = (f: Features) => f.lifecycle === 'active' || f.lifecycle === 'restored';
const MOVES: Move[] = [
  move('getNote', (f) => f),
  move('updateNote', (f) => (editable(f) ? noteAfter(f, 'updateNote') : f)),
  move('trashNote', (f) => (f.lifecycle === 'deleted' ? f : noteAfter(f, 'trashNote'))),
  move('restoreNote', (f) => noteAfter(f, 'restoreNote')),
  move('deleteNote', (f) => noteAfter(f, 'deleteNote')),
];
const only = (...ids: string[]) => {
  const set = new Set(ids);
  return (id: string) => set.has(id);
};

describe('the explorer walk planner (kit/core/explore/walk-plan.ts)', () => {
  it('takes the move that visits an open target without leaving the lifecycle first', () => {
    const open = only('state:updateNote:note:active:updated=never', 'state:trashNote:note:active:updated=never');
    expect(nextMove('note', FRESH_NOTE, MOVES, new Set(), open)?.op).toBe('updateNote');
  });

  it('leaves the lifecycle when nothing within it visits anything, a delete after the others', () => {
    const open = only('state:trashNote:note:active:updated=never', 'state:deleteNote:note:active:updated=never');
    expect(nextMove('note', FRESH_NOTE, MOVES, new Set(), open)?.op).toBe('trashNote');
  });

  it('restoring an active note stays in the lifecycle, so it is not held back as a one-way move', () => {
    const open = only('state:restoreNote:note:active:backdated=never', 'state:getNote:note:trashed:backdated=never');
    expect(nextMove('note', FRESH_NOTE, MOVES, new Set(), open)?.op).toBe('restoreNote');
  });

  it('walks the shortest way to a state with an open target: update first, to trash an updated note', () => {
    const open = only('state:getNote:note:trashed:updated=once');
    expect(nextMove('note', FRESH_NOTE, MOVES, new Set(), open)?.op).toBe('updateNote');
    const updated = noteAfter(FRESH_NOTE, 'updateNote');
    expect(nextMove('note', updated, MOVES, new Set(), open)?.op).toBe('trashNote');
  });

  it('never sends the same move in the same state twice', () => {
    const open = only('state:getNote:note:active:updated=never');
    const tried = new Set([`getNote ${JSON.stringify(FRESH_NOTE)}`]);
    expect(nextMove('note', FRESH_NOTE, MOVES, tried, open)).toBeUndefined();
  });

  it('a walk kept to a level never takes a feature past it, so a later lifecycle is reached in that value', () => {
    const open = only('state:getNote:note:trashed:updated=never', 'state:updateNote:note:active:updated=never');
    const level0 = keptToLevel('note', MOVES, 0);
    // Updating would visit a target, but only above the level: the walk trashes the note as it is.
    expect(nextMove('note', FRESH_NOTE, level0, new Set(), open)?.op).toBe('trashNote');
    const once = noteAfter(FRESH_NOTE, 'updateNote');
    expect(
      keptToLevel('note', MOVES, 1)
        .find((m) => m.op === 'updateNote')
        ?.model(once),
    ).toBeUndefined();
    expect(
      keptToLevel('note', MOVES, 2)
        .find((m) => m.op === 'updateNote')
        ?.model(once)?.updated,
    ).toBe('twice');
  });

  it('lets a walk go on from a feature the target took past the level (it accepted what the model refused)', () => {
    const past = { ...FRESH_NOTE, moved: 'twice' };
    const level1 = keptToLevel('note', MOVES, 1);
    expect(level1.find((m) => m.op === 'trashNote')?.model(past)?.lifecycle).toBe('trashed');
    // Still no move that takes a feature further past the level than it is.
    expect(level1.find((m) => m.op === 'updateNote')?.model(noteAfter(past, 'updateNote'))).toBeUndefined();
  });

  it('finds no way where no modelled state has anything open', () => {
    const gain = () => 0;
    expect(nearestMove(FRESH_NOTE, MOVES, gain, new Set())).toBeUndefined();
  });
});
