import type { Op } from '../core/model-operations.js';
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
import type { Side, Step } from './side.js';

/** Runs one operation on one side (kept apart from Side, which the executors read: no import cycle). */
export function execute(side: Side, op: Op): Promise<Step | undefined> {
  switch (op.kind) {
    case 'createNote':
      return createNote(side, op);
    case 'updateNote':
      return updateNote(side, op);
    case 'setCreatedAt':
      return setCreatedAt(side, op);
    case 'trashNote':
      return trashNote(side, op.note);
    case 'restoreNote':
      return restoreNote(side, op.note);
    case 'deleteNote':
      return deleteNote(side, op.note);
    case 'readNote':
      return readNote(side, op.note);
    case 'createCollection':
      return createCollection(side, op);
    case 'deleteCollection':
      return deleteCollection(side, op.coll);
    case 'readCollection':
      return readCollection(side, op.coll);
    case 'listCollection':
      return listCollection(side, op.coll);
    case 'addNote':
      return addNote(side, op.note, op.coll);
    case 'moveNote':
      return moveNote(side, op.note, op.from, op.to);
    case 'removeNote':
      return removeNote(side, op.note, op.coll);
  }
}
