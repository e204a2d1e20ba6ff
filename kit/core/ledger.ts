import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { journalPath } from './run-folder.js';

export type ResourceKind = 'note' | 'collection' | 'user';
/** Who can delete it: the main user, the second user, or a fixture user (deleted with the user). */
export type Owner = 'primary' | 'secondary' | `user:${string}`;

export interface LedgerEntry {
  /**
   * `uncertain`: a create whose answer could not be read (no answer, a 5xx, a success without an
   * id): the resource may exist. Its id is the one the kit sent, or empty when it sent none.
   * `refused`: a create the target refused (4xx), which a target may have stored all the same: the
   * final sweep looks for it in a listing, as for an uncertain one, but never names it unknown.
   */
  op: 'created' | 'deleted' | 'trashed' | 'uncertain' | 'refused';
  kind: ResourceKind;
  id: string;
  owner: Owner;
  /** Put in the target's trash by the run: a 404 on its delete then does not mean it is gone. */
  trashed?: true;
  /** A delete the target answered 404: gone, or a target that cannot find what it holds (settled by a listing). */
  notFound?: true;
  /** An uncertain create: prints (hashes) of what it sent, by which a listing recognises what it made (printsOf). */
  prints?: string[];
  /** An uncertain create: when it was sent (epoch ms), and the creation time it asked for, if any. */
  sentAt?: number;
  askedCreatedAt?: string;
}

/**
 * The cleanup journal: every resource a run creates is appended here the moment the target
 * confirms it, and every delete likewise. Each test file cleans up its own at the end; the run
 * sweeps whatever is left (a failed check, an interrupted run) and counts what it could not remove.
 */
export class Ledger {
  private readonly path: string;
  private readonly mine = new Map<string, LedgerEntry>();

  constructor(runDir: string) {
    this.path = journalPath(runDir);
  }

  created(kind: ResourceKind, id: string, owner: Owner): void {
    const entry: LedgerEntry = { op: 'created', kind, id, owner };
    this.mine.set(`${kind}:${id}`, entry);
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`);
  }

  /** Loads what an earlier process journaled and left pending (the run's final sweep). */
  adopt(entries: readonly LedgerEntry[]): void {
    for (const entry of entries) this.mine.set(`${entry.kind}:${entry.id}`, entry);
  }

  /**
   * A create the target may have made, though the kit could not read that it did (see LedgerEntry):
   * with what it sent, so that a listing of the account can tell what it made (kit/sweep.ts).
   */
  uncertain(
    kind: ResourceKind,
    id: string | undefined,
    owner: Owner,
    sent?: unknown,
    op: 'uncertain' | 'refused' = 'uncertain',
  ): void {
    const body = (sent ?? {}) as { created_at?: unknown; updated_at?: unknown };
    const asked = typeof body.created_at === 'string' ? body.created_at : body.updated_at;
    const entry: LedgerEntry = {
      op,
      kind,
      id: id ?? '',
      owner,
      prints: printsOf(kind, sent),
      sentAt: Date.now(),
      ...(typeof asked === 'string' ? { askedCreatedAt: asked } : {}),
    };
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`);
  }

  trashed(kind: ResourceKind, id: string): void {
    const entry = this.mine.get(`${kind}:${id}`);
    if (!entry) return;
    entry.trashed = true;
    appendFileSync(this.path, `${JSON.stringify({ op: 'trashed', kind, id, owner: entry.owner })}\n`);
  }

  ownerOf(kind: ResourceKind, id: string): Owner | undefined {
    return this.mine.get(`${kind}:${id}`)?.owner;
  }

  isTrashed(kind: ResourceKind, id: string): boolean {
    return this.mine.get(`${kind}:${id}`)?.trashed === true;
  }

  /** Gone: deleted, or (`notFound`) answered 404 to its owner's delete, which a listing may contradict. */
  deleted(kind: ResourceKind, id: string, notFound = false): void {
    const key = `${kind}:${id}`;
    const entry = this.mine.get(key);
    this.mine.delete(key);
    const line = { op: 'deleted', kind, id, owner: entry?.owner ?? 'primary', ...(notFound ? { notFound: true } : {}) };
    appendFileSync(this.path, `${JSON.stringify(line)}\n`);
    // A fixture user takes its notes and collections with it.
    if (kind === 'user') {
      for (const other of [...this.mine.values()]) if (other.owner === `user:${id}`) this.deleted(other.kind, other.id);
    }
  }

  /** What this process created and has not deleted: users last, so their data goes first. */
  pending(): LedgerEntry[] {
    const order = { note: 0, collection: 1, user: 2 };
    return [...this.mine.values()].sort((a, b) => order[a.kind] - order[b.kind]);
  }
}

/** Every entry of the run's journal, in the order written. */
export function journalEntries(runDir: string): LedgerEntry[] {
  const path = journalPath(runDir);
  if (!existsSync(path)) return [];
  const entries: LedgerEntry[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    try {
      entries.push(JSON.parse(line) as LedgerEntry);
    } catch {
      // a line cut short by a worker killed mid-write (an interrupted run)
    }
  }
  return entries;
}

/**
 * What identifies a create's result in a listing, hashed (the journal keeps no content): a
 * note's content and its first line as a title (as sent, and without heading markers), a
 * collection's title. None for a body without them.
 */
export function printsOf(kind: ResourceKind, sent: unknown): string[] {
  const body = (sent ?? {}) as { content?: unknown; title?: unknown };
  if (kind === 'collection') return typeof body.title === 'string' ? [print(body.title)] : [];
  if (typeof body.content !== 'string') return [];
  const first = body.content.split('\n')[0]!;
  return [...new Set([body.content, first, first.replace(/^#+\s*/, '')].map(print))];
}

export function print(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}

/** Everything the whole run created and did not delete, read back from the journal. */
export function pendingInJournal(runDir: string): LedgerEntry[] {
  const open = new Map<string, LedgerEntry>();
  for (const entry of journalEntries(runDir)) {
    const key = `${entry.kind}:${entry.id}`;
    // A refused create of an existing id (409) made nothing: what that id names is still pending.
    if (entry.op === 'uncertain' || entry.op === 'refused') continue;
    if (entry.op === 'created') open.set(key, entry);
    else if (entry.op === 'trashed') {
      const trashed = open.get(key);
      if (trashed) trashed.trashed = true;
    } else open.delete(key);
  }
  const order = { note: 0, collection: 1, user: 2 };
  return [...open.values()].sort((a, b) => order[a.kind] - order[b.kind]);
}

/** How many of each kind the whole run created (the journal's `created` lines, deleted or not): the report's cost. */
export function journalCreates(runDir: string): Record<ResourceKind, number> {
  const counts: Record<ResourceKind, number> = { note: 0, collection: 0, user: 0 };
  const seen = new Set<string>();
  for (const entry of journalEntries(runDir)) {
    const key = `${entry.kind}:${entry.id}`;
    if (entry.op !== 'created' || seen.has(key)) continue;
    seen.add(key);
    counts[entry.kind]++;
  }
  return counts;
}

/**
 * Creates the run could not confirm (op `uncertain`) and did not settle later: no create or
 * delete (but one answered 404) of the same id followed. Only a listing settles those without an
 * id (kit/sweep.ts).
 */
export function uncertainInJournal(runDir: string): LedgerEntry[] {
  const open = new Map<string, LedgerEntry>();
  let anonymous = 0;
  for (const entry of journalEntries(runDir)) {
    const key = `${entry.kind}:${entry.id}`;
    if (entry.op === 'uncertain') open.set(entry.id ? key : `${key}#${anonymous++}`, entry);
    // A 404 to a delete of the id the kit gave does not settle it: the target may have made it under an id of its own.
    else if (entry.op === 'created' || (entry.op === 'deleted' && !entry.notFound)) open.delete(key);
  }
  return [...open.values()];
}
