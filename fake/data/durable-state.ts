import { accessSync, constants, existsSync, readdirSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ServiceContext } from '../service/context.js';
import { ChangeTracker } from './change-tracker.js';
import { DataFileError } from './errors.js';
import { JournalFile, journalPathOf, readJournal, replayJournal } from './journal.js';
import {
  readStateDocument,
  STATE_CAP_BYTES,
  STATE_LOAD_LIMIT_BYTES,
  stateImage,
  temporaryPathOf,
  writeFileAtomically,
} from './state.js';
import { lockStateFile } from './state-lock.js';
import { applyState } from './state-reader.js';

/** A journal longer than this, or than the state file, is folded into the state file. */
const MIN_COMPACTION_BYTES = 16 * 1024 * 1024;
const SYNC_INTERVAL_MS = 1_000;
/** Past this (state and journal), close leaves the journal beside the state file instead of folding it in. */
const FOLD_ON_CLOSE_BYTES = 32 * 1024 * 1024;
/** After a failed save, a write tries a full save again at most this often. */
const RETRY_INTERVAL_MS = 5_000;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface DurableStateOptions {
  /** One line for the operator: a failed save, a recovered one, a torn journal line dropped. */
  report: (line: string) => void;
  /** The state's cap in bytes (STATE_CAP_BYTES; smaller in tests). */
  capBytes?: number;
}

/** Why a write is refused before it is served. */
export interface StateRefusal {
  kind: 'state_not_saved' | 'state_full';
  message: string;
}

/**
 * `--state FILE`: the state file plus its journal. Every answered write is in the journal before
 * its answer leaves (kill -9 loses nothing), flushed to disk within a second; the journal is
 * folded into the state file when it grows past the state file's size, and on close. One fake
 * per file (a lock file); a save that fails is reported and the fake refuses writes until a save
 * succeeds again, instead of answering 200 for changes it cannot keep.
 */
export class DurableState {
  private journal: JournalFile | undefined;
  private tracker: ChangeTracker | undefined;
  private generation = 0;
  private stateBytes = 0;
  /** The journal's size right after the last save (its header line). */
  private journalStart = 0;
  private failure: string | undefined;
  private lastAttempt = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** When the state was last folded in, and whether a delete made room since. */
  private foldedAt = 0;
  private deletedSinceFold = false;

  private constructor(
    private readonly ctx: ServiceContext,
    readonly path: string,
    private readonly release: () => void,
    private readonly options: DurableStateOptions,
  ) {}

  /** Locks the file and loads it with its journal; `restored` is false on the first start. */
  static open(
    ctx: ServiceContext,
    path: string,
    options: DurableStateOptions,
  ): { durable: DurableState; restored: boolean } {
    try {
      accessSync(dirname(resolve(path)), constants.W_OK);
    } catch {
      throw new DataFileError(`${path}: cannot save the state there (the directory is missing or not writable)`);
    }
    const release = lockStateFile(path);
    const durable = new DurableState(ctx, path, release, options);
    try {
      return { durable, restored: durable.load() };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** After the start's own users and seed data: one full save, then every change goes to the journal. */
  start(): void {
    this.compact();
    this.tracker = new ChangeTracker(this.ctx);
    this.timer = setInterval(() => this.guard(() => this.journal?.sync()), SYNC_INTERVAL_MS);
    this.timer.unref();
  }

  /** Why a write must be refused now, or undefined. Reads (and searches) are always served. */
  refusal(method: string, path: string): StateRefusal | undefined {
    if (SAFE_METHODS.has(method.toUpperCase()) || path.endsWith('/search')) return undefined;
    const full = this.full(method, path);
    if (full) return { kind: 'state_full', message: full };
    const failure = this.saveFailure();
    return failure ? { kind: 'state_not_saved', message: failure } : undefined;
  }

  /**
   * Over the cap: the journal holds full images of what changed (an upper bound of what the next
   * save writes), so the exact size is known only after folding it in, which is done before refusing.
   */
  private full(method: string, path: string): string | undefined {
    const cap = this.options.capBytes ?? STATE_CAP_BYTES;
    const journaled = (this.journal?.size ?? 0) - this.journalStart;
    // Deletes make room; the fixture API (its reset above all) is the operator's, not a client's.
    if (method.toUpperCase() === 'DELETE' || !path.startsWith('/v2/') || this.stateBytes + journaled <= cap)
      return undefined;
    // Folding in is the only exact measure, and a whole save (3.8 s at the cap): not on every write
    // near the cap (every PATCH there folded), only once it can tell more (a delete, 4 MiB, 30 s).
    const worth = this.deletedSinceFold || journaled >= 4 * 2 ** 20 || Date.now() - this.foldedAt >= 30_000;
    if (journaled > 0 && this.failure === undefined && worth) this.guard(() => this.compact());
    const pending = (this.journal?.size ?? 0) - this.journalStart;
    if (this.stateBytes + pending <= cap) return undefined;
    const unfolded = pending > 0 ? ` and ${mib(pending)} of changes not folded in yet` : '';
    return (
      `the state in ${this.path} is at its cap (${mib(this.stateBytes)} of ${mib(cap)} saved${unfolded}): writes are refused ` +
      'so that every one acknowledged can be saved and loaded again; delete notes or collections to make room, ' +
      'or start another fake with another --state file'
    );
  }

  private saveFailure(): string | undefined {
    if (this.failure === undefined) return undefined;
    if (Date.now() - this.lastAttempt >= RETRY_INTERVAL_MS) {
      this.lastAttempt = Date.now();
      try {
        this.compact();
        this.options.report(`state saved again to ${this.path}; writes are accepted again`);
        this.failure = undefined;
        return undefined;
      } catch (error) {
        this.failure = describe(this.path, error);
      }
    }
    return `${this.failure}; writes are refused until a save succeeds (retried every ${RETRY_INTERVAL_MS / 1000} s)`;
  }

  /** Journals what a request changed; returns why it could not (then the request must not read as done). */
  afterRequest(method: string, path: string, status: number, fixture: boolean): string | undefined {
    const tracker = this.tracker;
    if (!tracker || this.closed) return undefined;
    if (!SAFE_METHODS.has(method.toUpperCase()) && status >= 200 && status < 300) {
      if (method.toUpperCase() === 'DELETE') this.deletedSinceFold = true;
      tracker.touchPath(path);
      if (fixture) tracker.touchUsers();
    }
    if (tracker.empty) return undefined;
    return this.guard(() => {
      this.journal!.append(tracker.take());
      if (this.journal!.size > Math.max(MIN_COMPACTION_BYTES, this.stateBytes)) this.compact();
    });
  }

  /** Marks what an in-process fixture call changed (no path to read the ids from). */
  touched(ids: readonly string[]): string | undefined {
    if (!this.tracker) return undefined;
    this.tracker.touchUsers();
    for (const id of ids) this.tracker.touchPath(`/${encodeURIComponent(id)}`);
    return this.afterRequest('GET', '/', 200, false);
  }

  /** Folds everything into the state file and lets the file go; throws when that save fails. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    try {
      const journaled = (this.journal?.size ?? 0) - this.journalStart;
      // Folding a big state in takes seconds (3.8 s at the cap), and a stop must be prompt: its
      // journal, synced, is as durable, and the next start replays it (after a failed save, the
      // journal lacks what was refused: try the full save). Nothing journaled: nothing to fold.
      const big = this.stateBytes + journaled > FOLD_ON_CLOSE_BYTES;
      if (this.journal && journaled > 0 && big && this.failure === undefined) {
        this.journal.sync();
        this.journal.close();
        this.journal = undefined;
        this.options.report(`the last changes stay in ${journalPathOf(this.path)}; the next start folds them in`);
        return;
      }
      if (journaled > 0 || !this.journal) this.compact();
      this.journal?.close();
      this.journal = undefined;
      const journal = journalPathOf(this.path);
      if (existsSync(journal)) unlinkSync(journal);
    } catch (error) {
      throw new DataFileError(describe(this.path, error));
    } finally {
      this.journal?.close();
      this.release();
    }
  }

  private load(): boolean {
    removeLeftovers(this.path);
    const document = readStateDocument(this.path, STATE_LOAD_LIMIT_BYTES);
    const journalPath = journalPathOf(this.path);
    if (document === undefined && !existsSync(journalPath)) return false;
    const base = (document ?? emptyState()) as Record<string, unknown>;
    const generation = base.generation ?? 0;
    if (typeof generation !== 'number' || !Number.isSafeInteger(generation) || generation < 0)
      throw new DataFileError(`${this.path}: generation: expected an integer >= 0`);
    this.generation = generation;
    const { entries, torn } = readJournal(journalPath, generation);
    if (torn) this.options.report(`${journalPath}: dropped a torn last line (a write cut off before it was answered)`);
    const source = entries.length > 0 ? `${this.path} (with ${journalPath})` : this.path;
    applyState(this.ctx, entries.length > 0 ? replayJournal(base, entries) : base, source);
    return true;
  }

  /** The whole state to the file (atomically), then an empty journal continuing it. */
  private compact(): void {
    const generation = this.generation + 1;
    this.stateBytes = writeFileAtomically(this.path, JSON.stringify({ ...stateImage(this.ctx), generation }));
    this.generation = generation;
    this.journal ??= new JournalFile(journalPathOf(this.path));
    this.journal.restart(generation);
    this.journalStart = this.journal.size;
    this.foldedAt = Date.now();
    this.deletedSinceFold = false;
  }

  /** Runs a save step; a failure is reported once and turns the fake read-only. */
  private guard(step: () => void): string | undefined {
    try {
      step();
      return undefined;
    } catch (error) {
      const first = this.failure === undefined;
      this.failure = describe(this.path, error);
      this.lastAttempt = Date.now();
      if (first) this.options.report(`${this.failure}; writes are refused from now on`);
      return this.failure;
    }
  }
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function describe(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = (error as Error).message?.split('\n')[0] ?? String(error);
  return `could not save the state to ${path} (${code ? `${code}: ` : ''}${message})`;
}

function emptyState() {
  return { format: 'notes-conformance-fake-state', version: 1, users: [], collections: [], notes: [], grants: [] };
}

/** Temporary files of saves killed midway: this one's, and the per-process ones of older versions. */
function removeLeftovers(path: string): void {
  const dir = dirname(resolve(path));
  const name = basename(path);
  const old = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\\d+\\.tmp$`);
  for (const entry of readdirSync(dir)) {
    if (entry === basename(temporaryPathOf(path)) || old.test(entry)) {
      try {
        unlinkSync(join(dir, entry));
      } catch {}
    }
  }
}
