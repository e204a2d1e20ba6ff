import type { Op } from '../sequences/ops.js';
import { afterWriteId, type Features, type Kind, loadSpace, stateTargetId } from './space.js';

/**
 * How a walk picks its next operation (explorer.ts): pure functions of the resource's state, the
 * moves, what was tried and which targets are open, so a test can pin the choices without a target.
 */

export interface Move {
  readonly op: string;
  /** The executor's operation for the walk's resource (index 0: the walk made one). */
  readonly make: (k: number) => Op;
  /** The state after it, where the document determines it; undefined: the executor cannot send it here. */
  readonly model: (f: Features) => Features | undefined;
  /** Sent by the companion runner (related notes of the companion show the walk's resource). */
  readonly companion?: boolean;
}

/** Whether the move takes the resource to another lifecycle (trash, restore of a trashed note, delete): one way. */
export const leaves = (f: Features, m: Move): boolean => {
  const g = m.model(f);
  return g !== undefined && g.lifecycle !== f.lifecycle;
};

const tryKey = (m: Move, f: Features) => `${m.op} ${JSON.stringify(f)}`;

/**
 * The moves kept to a level: none may take a feature past the level-th of its values (the
 * features of spec/behaviour-space.yaml are ordered never, once, twice). A walk at level k reaches
 * trash, restore and delete with its features at k or below, so the later lifecycles are visited in
 * every value, not only in the last one the active note climbed to.
 */
export function keptToLevel(kind: Kind, moves: readonly Move[], level: number): Move[] {
  const features = loadSpace().features[kind];
  const at = (name: string, v: string) => (features[name] ?? []).indexOf(v);
  // A feature already past the level (a target that accepted what the model expected refused, such
  // as a move of a trashed note) may stay there: the walk goes on to the states left below it.
  const within = (f: Features, g: Features) =>
    Object.entries(g).every(
      ([name, v]) => name === 'lifecycle' || at(name, v) <= Math.max(level, at(name, f[name] ?? '')),
    );
  return moves.map((m) => ({
    ...m,
    model: (f: Features) => {
      const g = m.model(f);
      return g && within(f, g) ? g : undefined;
    },
  }));
}

/** What sending `m` in state `g` would visit: its open state targets, and half for each open view-after-write. */
export function gainOf(kind: Kind, open: (id: string) => boolean, tried: ReadonlySet<string>) {
  const views = loadSpace().views[kind].shown_by;
  // Asked for thousands of states by one search (nearestMove): each target is looked up once, by
  // operation, lifecycle, feature and value, without building its id again.
  type Seen = Map<string, Map<string, Map<string, boolean>>>; // feature -> lifecycle -> value -> open
  const byOp = new Map<string, { states: Seen; views: number }>();
  const openOf = (op: string) => {
    let known = byOp.get(op);
    if (!known) {
      known = { states: new Map(), views: 0.5 * views.filter((v) => open(afterWriteId(kind, op, v))).length };
      byOp.set(op, known);
    }
    return known;
  };
  const child = <V>(map: Map<string, V>, key: string, make: () => V): V => {
    let v = map.get(key);
    if (v === undefined) map.set(key, (v = make()));
    return v;
  };
  return (g: Features, m: Move): number => {
    const known = openOf(m.op);
    const life = g.lifecycle!;
    let gain = known.views;
    for (const name in g) {
      if (name === 'lifecycle') continue;
      const value = g[name]!;
      const seen = child(
        child(known.states, name, () => new Map()),
        life,
        () => new Map<string, boolean>(),
      );
      if (child(seen, value, () => open(stateTargetId(m.op, kind, life, name, value)))) gain++;
    }
    return gain === 0 || tried.has(tryKey(m, g)) || m.model(g) === undefined ? 0 : gain;
  };
}

/** Records that `m` was sent in state `f` (a walk does not send the same move in the same state twice). */
export const markTried = (tried: Set<string>, m: Move, f: Features) => tried.add(tryKey(m, f));

const isDelete = (m: Move) => m.op === 'deleteNote' || m.op === 'deleteCollection';

/**
 * The move to make now: the one visiting most without leaving the lifecycle; else the first of the
 * shortest way within it to a state that visits something; else the best move that leaves (a
 * delete last); else the first of the shortest way by any move.
 */
export function nextMove(
  kind: Kind,
  f: Features,
  moves: readonly Move[],
  tried: ReadonlySet<string>,
  open: (id: string) => boolean,
): Move | undefined {
  const gain = gainOf(kind, open, tried);
  const ranked = moves.map((m) => ({ m, g: gain(f, m) })).sort((a, b) => b.g - a.g);
  const within = ranked.find((r) => r.g > 0 && !leaves(f, r.m));
  if (within) return within.m;
  const staying = moves.map((m) => ({
    ...m,
    model: (g: Features) => {
      const h = m.model(g);
      return h && h.lifecycle === g.lifecycle ? h : undefined;
    },
  }));
  const stay = nearestMove(f, staying, gain, tried);
  if (stay) return moves.find((m) => m.op === stay.op);
  const best = ranked.find((r) => r.g > 0 && !isDelete(r.m)) ?? ranked.find((r) => r.g > 0);
  if (best) return best.m;
  return nearestMove(f, moves, gain, tried);
}

/**
 * The first move of the shortest way by `moves` (breadth first over the modelled states) to a
 * state where one of `all` visits something.
 */
export function nearestMove(
  f: Features,
  moves: readonly Move[],
  gain: (g: Features, m: Move) => number,
  tried: ReadonlySet<string>,
  all: readonly Move[] = moves,
): Move | undefined {
  const key = (g: Features) => JSON.stringify(g);
  const queue: Array<{ g: Features; first: Move }> = [];
  const seen = new Set([key(f)]);
  for (const m of moves) {
    const g = m.model(f);
    if (g && !seen.has(key(g)) && !tried.has(tryKey(m, f))) {
      seen.add(key(g));
      queue.push({ g, first: m });
    }
  }
  for (let i = 0; i < queue.length; i++) {
    const { g, first } = queue[i]!;
    if (all.some((m) => gain(g, m) > 0)) return first;
    for (const m of moves) {
      const h = m.model(g);
      if (h && !seen.has(key(h))) {
        seen.add(key(h));
        queue.push({ g: h, first });
      }
    }
  }
  return undefined;
}
