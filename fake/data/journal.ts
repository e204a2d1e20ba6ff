import {
  closeSync,
  existsSync,
  fchmodSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import type { JournalEntry } from './change-tracker.js';
import { DataFileError } from './errors.js';

export const journalPathOf = (statePath: string) => `${statePath}.journal`;

/**
 * The append-only journal beside the state file: a header line naming the generation of the state
 * file it continues, then one line per request that changed something (a JSON array of entries).
 * A line is written before the request is answered, so an answered write is in the file (the page
 * cache survives kill -9); the file is flushed to disk at most a second later.
 */
export class JournalFile {
  private readonly fd: number;
  private bytes = 0;
  private unsynced = false;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'a', 0o600);
    // Created by an older run or by hand with wider rights: it holds tokens.
    fchmodSync(this.fd, 0o600);
  }

  get size(): number {
    return this.bytes;
  }

  /** Starts the journal over for a state file of `generation` (after a compaction). */
  restart(generation: number): void {
    ftruncateSync(this.fd, 0);
    this.bytes = 0;
    this.write(`${JSON.stringify({ journal_of: generation })}\n`);
    this.sync();
  }

  append(entries: readonly JournalEntry[]): void {
    // Unlinked under us (the directory was removed): writing on would lose every change silently.
    if (fstatSync(this.fd).nlink === 0)
      throw Object.assign(new Error('the journal file was deleted'), { code: 'ENOENT' });
    this.write(`${JSON.stringify(entries)}\n`);
  }

  /** Flushes what was appended since the last call (the one-second timer, and before closing). */
  sync(): void {
    if (!this.unsynced) return;
    fdatasyncSync(this.fd);
    this.unsynced = false;
  }

  close(): void {
    closeSync(this.fd);
  }

  private write(line: string): void {
    const data = Buffer.from(line);
    let written = 0;
    try {
      while (written < data.length) written += writeSync(this.fd, data, written);
    } catch (error) {
      // A torn line is ignored by the reader only at the end: cut it off so later lines stay readable.
      if (written > 0) ftruncateSync(this.fd, this.bytes);
      throw error;
    }
    this.bytes += data.length;
    this.unsynced = true;
  }
}

/** The journal's lines for a state file of `generation`; none when it continues an older one. */
export function readJournal(path: string, generation: number): { entries: JournalEntry[][]; torn: boolean } {
  if (!existsSync(path)) return { entries: [], torn: false };
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  // The last piece has no newline: empty after a clean write, a torn line after a kill mid-write.
  const torn = lines.pop() !== '';
  if (lines.length === 0) return { entries: [], torn };
  const fail = (line: number, what: string) => new DataFileError(`${path}: line ${line}: ${what}`);
  let header: unknown;
  try {
    header = JSON.parse(lines[0]!);
  } catch {
    throw fail(1, 'not a journal header');
  }
  const of = (header as { journal_of?: unknown } | null)?.journal_of;
  if (typeof of !== 'number' || !Number.isSafeInteger(of)) throw fail(1, 'expected {"journal_of": generation}');
  // Left from before the last compaction (killed between the state file's rename and the truncation).
  if (of !== generation) return { entries: [], torn: false };
  const entries = lines.slice(1).map((line, i) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw fail(i + 2, 'not valid JSON');
    }
    if (!Array.isArray(value)) throw fail(i + 2, 'expected an array of changes');
    value.forEach((entry, k) => {
      checkEntry(entry, (what) => fail(i + 2, `change ${k}: ${what}`));
    });
    return value as JournalEntry[];
  });
  return { entries, torn };
}

const TAGS = new Set(['u', '-u', 'c', '-c', 'n', '-n', 'g', 'clear']);

function checkEntry(entry: unknown, fail: (what: string) => DataFileError): void {
  if (!Array.isArray(entry) || !TAGS.has(entry[0])) throw fail(`expected [${[...TAGS].join('|')}, value]`);
  const [tag, value] = entry as [string, unknown];
  if (tag === 'clear') return;
  if (tag === 'g') {
    if (!Array.isArray(value)) throw fail('expected the grants as an array');
  } else if (tag.startsWith('-')) {
    if (typeof value !== 'string') throw fail('expected the removed id as a string');
  } else if (value === null || typeof value !== 'object' || typeof (value as { id?: unknown }).id !== 'string') {
    throw fail('expected a record with a string id');
  }
}

/** The state value with the journal's changes applied in order (checked afterwards, as a whole). */
export function replayJournal(
  state: Record<string, unknown>,
  lines: readonly (readonly JournalEntry[])[],
): Record<string, unknown> {
  const byId = (list: unknown) =>
    new Map(Array.isArray(list) ? list.map((r, i) => [String((r as { id?: unknown })?.id ?? `#${i}`), r]) : []);
  const users = byId(state.users);
  const collections = byId(state.collections);
  const notes = byId(state.notes);
  let grants = state.grants;
  for (const line of lines) {
    for (const entry of line) {
      switch (entry[0]) {
        case 'clear':
          users.clear();
          collections.clear();
          notes.clear();
          grants = [];
          break;
        case 'u':
          users.set(entry[1].id, entry[1]);
          break;
        case '-u':
          users.delete(entry[1]);
          break;
        case 'c':
          collections.set(entry[1].id, entry[1]);
          break;
        case '-c':
          collections.delete(entry[1]);
          break;
        case 'n':
          notes.set(entry[1].id, entry[1]);
          break;
        case '-n':
          notes.delete(entry[1]);
          break;
        case 'g':
          grants = entry[1];
          break;
      }
    }
  }
  return {
    ...state,
    users: [...users.values()],
    collections: [...collections.values()],
    notes: [...notes.values()],
    grants,
  };
}
