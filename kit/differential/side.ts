import type { Api } from '../core/api.js';
import { type Observation, Symbols } from './normalise.js';
import { SideState } from './state.js';

/** One executed operation: a readable line (with this side's symbols) and what the side answered. */
export interface Step {
  line: string;
  observed: Observation;
}

/**
 * One server (the target or the reference fake) running a sequence. An operation the document
 * does not determine in the current state (trashing a trashed note, moving from a collection
 * that does not hold the note...) is skipped on both sides alike: it returns undefined.
 */
export class Side {
  readonly state: SideState;
  readonly sym: Symbols;

  constructor(
    readonly api: Api,
    windowStart: number,
    readonly marker: string,
    readonly clockToleranceMs: number,
    readonly precisionMs = 1,
  ) {
    this.state = new SideState(windowStart);
    this.sym = new Symbols(precisionMs);
  }

  /** N3, or N3 (deleted) / N3 (trashed): the state matters to read the step. */
  noteName(i: number): string {
    const n = this.state.noteAt(i);
    return `${this.sym.id(n.id, 'N')}${n.deleted ? ' (deleted)' : n.trashed?.value ? ' (trashed)' : ''}`;
  }

  collName(i: number): string {
    const c = this.state.collAt(i);
    return `${this.sym.id(c.id, 'C')}${c.deleted ? ' (deleted)' : ''}`;
  }
}
