import type { Api } from '../../suites/harness/api.js';
import type { Op } from '../../suites/model/operations.js';
import {
  addNote,
  createCollection,
  deleteCollection,
  listCollection,
  moveNote,
  readCollection,
  removeNote,
} from './exec-collections.js';
import { createNote, deleteNote, readNote, restoreNote, setCreatedAt, trashNote, updateNote } from './exec-notes.js';
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

  run(op: Op): Promise<Step | undefined> {
    switch (op.kind) {
      case 'createNote':
        return createNote(this, op);
      case 'updateNote':
        return updateNote(this, op);
      case 'setCreatedAt':
        return setCreatedAt(this, op);
      case 'trashNote':
        return trashNote(this, op.note);
      case 'restoreNote':
        return restoreNote(this, op.note);
      case 'deleteNote':
        return deleteNote(this, op.note);
      case 'readNote':
        return readNote(this, op.note);
      case 'createCollection':
        return createCollection(this, op);
      case 'deleteCollection':
        return deleteCollection(this, op.coll);
      case 'readCollection':
        return readCollection(this, op.coll);
      case 'listCollection':
        return listCollection(this, op.coll);
      case 'addNote':
        return addNote(this, op.note, op.coll);
      case 'moveNote':
        return moveNote(this, op.note, op.from, op.to);
      case 'removeNote':
        return removeNote(this, op.note, op.coll);
    }
  }

  /** N3, or N3 (deleted) / N3 (trashed): the state matters to read the step. */
  noteName(i: number): string {
    const n = this.state.notes[i]!;
    return `${this.sym.id(n.uuid, 'N')}${n.alive ? (n.trashed ? ' (trashed)' : '') : ' (deleted)'}`;
  }

  collName(i: number): string {
    const c = this.state.colls[i]!;
    return `${this.sym.id(c.uuid, 'C')}${c.alive ? '' : ' (deleted)'}`;
  }
}
