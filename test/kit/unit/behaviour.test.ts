import { describe, expect, it } from 'vitest';
import {
  collectionCreated,
  collectionDeleted,
  createdAtSet,
  learnVersion,
  membershipChanged,
  noteCreated,
  noteDeleted,
  noteTrashed,
  noteUpdated,
} from '../../../kit/core/behaviour/effects.js';
import {
  addDetermined,
  moveDetermined,
  removeDetermined,
  setCreatedAtOutcome,
  staleVersions,
  trashDetermined,
  updateOutcome,
} from '../../../kit/core/behaviour/outcomes.js';
import { World } from '../../../kit/core/behaviour/state.js';
import type { Exchange } from '../../../kit/core/client.js';

/**
 * The one interpreter of documented behaviour (kit/core/behaviour/) on its own: what each effect
 * does to the state and what the outcomes predict, against the document's words.
 */
const N = '11111111-1111-4111-8111-111111111111';
const A = '22222222-2222-4222-8222-222222222222';
const B = '33333333-3333-4333-8333-333333333333';
const DAY = 86_400_000;
const CREATED = Date.UTC(2026, 0, 1);
const by = { method: 'TEST', path: '/', status: 200 } as unknown as Exchange;
const clock = { now: CREATED + 10 * DAY, toleranceMs: 2_000, precisionMs: 1 };

function world(): World {
  const w = new World();
  for (const id of [A, B])
    collectionCreated(
      w,
      { id, owner: 'primary', title: id, description: null, suppliedCreated: false, suppliedUpdated: false },
      by,
    );
  noteCreated(
    w,
    {
      id: N,
      owner: 'primary',
      content: '# One\nbody',
      title: 'One',
      version: 1,
      createdAt: CREATED,
      updatedAt: CREATED,
      suppliedCreated: false,
      suppliedUpdated: false,
      links: [A],
      named: [A],
    },
    by,
  );
  return w;
}

describe('the one interpreter', () => {
  it('create: content, version, times and links as answered; the original creation known when the server chose it', () => {
    const w = world();
    const n = w.notes.get(N)!;
    expect(n.content?.value).toBe('# One\nbody');
    expect(n.version?.value).toBe(1);
    expect(n.original).toBe(CREATED);
    expect([...n.links!.keys()]).toEqual([A]);
    expect(n.links!.get(A)!.rule).toBe('notes.create.collection-ids-linked');
    expect(w.activeCount(w.collections.get(A)!)).toBe(1);
    expect(w.activeCount(w.collections.get(B)!)).toBe(0);
  });

  it('a create with a supplied time leaves "originally created" open, but keeps the answered created_at as a limit', () => {
    const w = new World();
    const n = noteCreated(
      w,
      {
        id: N,
        owner: 'primary',
        createdAt: CREATED,
        suppliedCreated: true,
        suppliedUpdated: false,
        links: [],
        named: [],
      },
      by,
    );
    expect(n.original).toBeUndefined();
    expect(n.firstCreatedAt).toBe(CREATED);
    expect(setCreatedAtOutcome(n, CREATED + DAY, clock)).toBeUndefined();
  });

  it('update: the version sent becomes stale, created_at stays under the update rule', () => {
    const w = world();
    const n = w.notes.get(N)!;
    expect(updateOutcome(n, 1)).toBe('current');
    expect(updateOutcome(n, 2)).toBe('ahead');
    noteUpdated(n, { content: 'Two', title: 'Two', version: 2, updatedAt: CREATED + 1, suppliedUpdated: false }, by);
    expect(updateOutcome(n, 1)).toBe('stale');
    expect(staleVersions(n, 'update')).toEqual([1]);
    expect(n.content?.rule).toBe('notes.update.content-replaced');
    expect(n.createdAt?.rule).toBe('notes.update.created-at-unchanged');
  });

  it('set-created-at: earlier, equal and between are accepted, later and future refused, trashed refused', () => {
    const w = world();
    const n = w.notes.get(N)!;
    expect(setCreatedAtOutcome(n, CREATED - DAY, clock)).toEqual({
      accepted: true,
      rule: 'notes.set-created-at.applied',
    });
    expect(setCreatedAtOutcome(n, CREATED, clock)).toMatchObject({ accepted: true });
    expect(setCreatedAtOutcome(n, CREATED + 1, clock)).toEqual({
      accepted: false,
      rule: 'notes.set-created-at.backdate-only',
    });
    expect(setCreatedAtOutcome(n, clock.now + DAY, clock)).toEqual({
      accepted: false,
      rule: 'notes.set-created-at.not-future',
    });
    createdAtSet(n, CREATED - 2 * DAY, by);
    // Later than the current created_at, not later than the original: the original creation is the bound.
    expect(setCreatedAtOutcome(n, CREATED - DAY, clock)).toEqual({
      accepted: true,
      rule: 'notes.set-created-at.original-creation-bound',
    });
    noteTrashed(w, n, true, by);
    expect(setCreatedAtOutcome(n, CREATED - DAY, clock)).toEqual({
      accepted: false,
      rule: 'notes.set-created-at.trashed-refused',
    });
  });

  it('set-created-at changes metadata only: content, title and version stay; updated_at becomes unknown', () => {
    const w = world();
    const n = w.notes.get(N)!;
    createdAtSet(n, CREATED - DAY, by);
    expect(n.version).toMatchObject({ value: 1, rule: 'notes.set-created-at.version-unchanged' });
    expect(n.content).toMatchObject({
      rule: 'notes.set-created-at.metadata-only',
      origin: 'notes.create.content-stored',
    });
    expect(n.updatedAt).toBeUndefined();
    expect(n.createdAt?.value).toBe(CREATED - DAY);
  });

  it('trash: refused updates, version unknown until a read; a version the read shows replaces the one before', () => {
    const w = world();
    const n = w.notes.get(N)!;
    expect(trashDetermined(n, false)).toBe(false);
    noteTrashed(w, n, true, by);
    expect(updateOutcome(n, 1)).toBe('trashed');
    expect(n.version).toBeUndefined();
    expect(w.collections.get(A)!.updatedAt).toBeUndefined();
    expect(w.activeCount(w.collections.get(A)!)).toBeUndefined();
    noteTrashed(w, n, false, by);
    learnVersion(n, 3, by);
    expect(n.version?.value).toBe(3);
    expect(staleVersions(n, 'learned')).toEqual([1]);
    expect(staleVersions(n, 'update')).toEqual([]);
  });

  it('membership: move adds to the target and removes from the source; the version is left open', () => {
    const w = world();
    const n = w.notes.get(N)!;
    const [a, b] = [w.collections.get(A)!, w.collections.get(B)!];
    expect(addDetermined(n, a)).toBe(false);
    expect(moveDetermined(n, a, b)).toBe(true);
    expect(moveDetermined(n, b, a)).toBe(false);
    membershipChanged(w, 'moveNote', 'primary', n, a, b, by);
    expect([...n.links!.keys()]).toEqual([B]);
    expect(n.unlinked.get(A)?.rule).toBe('membership.move.moves');
    expect(n.version).toBeUndefined();
    expect(n.content?.rule).toBe('membership.move.content-unchanged');
    expect(removeDetermined(n, b)).toBe(true);
    expect(w.activeCount(a)).toBe(0);
    expect(w.activeCount(b)).toBe(1);
  });

  it("a collection's delete takes its notes out of it: their version and updated_at are left open", () => {
    const w = world();
    const n = w.notes.get(N)!;
    collectionDeleted(w, w.collections.get(A)!, by);
    expect(n.links?.size).toBe(0);
    expect(n.unlinked.get(A)?.rule).toBe('collections.delete.unlinks-notes');
    expect(n.version).toBeUndefined();
    expect(n.updatedAt).toBeUndefined();
    expect(n.unsettledVersion).toBe(1);
  });

  it('a deleted note leaves every collection and is no longer an update target', () => {
    const w = world();
    const n = w.notes.get(N)!;
    noteDeleted(w, n, by);
    expect(w.collections.get(A)!.members?.size).toBe(0);
    expect(updateOutcome(n, 1)).toBeUndefined();
    expect(trashDetermined(n, true)).toBe(false);
  });
});
