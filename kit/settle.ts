import { primaryName } from '../spec/profile.js';
import type { Api } from './core/api.js';
import type { Exchange } from './core/client.js';
import { type LedgerEntry, print } from './core/ledger.js';

/**
 * What a listing of an account shows the final sweep (kit/sweep.ts): its notes or collections,
 * page by page, and which of them are the run's. The one way to know what a create left when its
 * answer could not be read, or when the target answers 404 to a delete of what it holds.
 */

/** Pages of 100 listed at most, per user and kind: a listing of a large shared account must end too. */
const MAX_PAGES = 20;
const PAGE = 100;

export interface AccountItem {
  id: string;
  title?: string;
  content?: string;
  createdAt?: number;
  /** The uncertain create this item is the result of, when it was recognised by what the create sent. */
  matched?: LedgerEntry;
}

export interface Listing {
  items: AccountItem[];
  /** Every page was read to the end (no next_page): an uncertain create not listed was not made. */
  complete: boolean;
}

export async function listAccount(api: Api, kind: 'note' | 'collection'): Promise<Listing> {
  const items: AccountItem[] = [];
  const cursors = new Set<string>();
  // Notes with their content where the profile names the parameter (a target may refuse it: then without).
  let content = kind === 'note' && primaryName(api.profileNames.notes_list?.include_content) !== undefined;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    let x: Exchange;
    try {
      x = await (kind === 'note'
        ? api.listNotes({ limit: PAGE, ...(cursor ? { cursor } : {}), ...(content ? { include_content: true } : {}) })
        : api.listCollections({ limit: PAGE, ...(cursor ? { cursor } : {}) }));
    } catch {
      return { items, complete: false };
    }
    if (x.status !== 200 && content && page === 0) {
      content = false;
      page--;
      continue;
    }
    const body = x.json as { results?: unknown; next_page?: unknown } | undefined;
    if (x.status !== 200 || !Array.isArray(body?.results)) return { items, complete: false };
    for (const result of body.results) {
      const item = accountItem(result);
      if (item) items.push(item);
    }
    const next = body.next_page;
    if (next === undefined || next === null) return { items, complete: true };
    // A cursor it gives again (or one the kit cannot send) would list the same pages forever.
    if (typeof next !== 'string' || cursors.has(next) || api.profileNames[listNames(kind)]?.cursor === undefined)
      return { items, complete: false };
    cursors.add(next);
    cursor = next;
  }
  return { items, complete: false };
}

const listNames = (kind: 'note' | 'collection') => (kind === 'note' ? 'notes_list' : 'collections_list');

function accountItem(result: unknown): AccountItem | undefined {
  const r = result as { id?: unknown; title?: unknown; content?: unknown; created_at?: unknown } | null;
  const id = typeof r?.id === 'string' ? r.id : typeof r?.id === 'number' ? String(r.id) : undefined;
  if (!id) return undefined;
  const createdAt = typeof r?.created_at === 'string' ? Date.parse(r.created_at) : Number.NaN;
  return {
    id,
    ...(typeof r?.title === 'string' ? { title: r.title } : {}),
    ...(typeof r?.content === 'string' ? { content: r.content } : {}),
    ...(Number.isNaN(createdAt) ? {} : { createdAt }),
  };
}

export interface RunMarks {
  readonly runId: string;
  /** Every id the run's journal names for this user and kind (made, deleted, or uncertain with an id). */
  readonly journaled: ReadonlySet<string>;
  /** The user's uncertain creates of this kind still open; an item recognised by one takes it. */
  readonly waiting: readonly LedgerEntry[];
  /** How far the target's clock may be behind the kit's. */
  readonly toleranceMs: number;
}

/**
 * Whether a listed item is the run's: an id the run journaled, the run's marker in its title or
 * content (suites/harness/data.ts writes `zq<runId>` words and "notes-conformance run <runId>"),
 * or what an uncertain create sent (its prints), made no earlier than that create was sent (or at
 * the creation time it asked for). Another user's data in a shared account is none of these.
 */
export function ownedByRun(item: AccountItem, marks: RunMarks, taken = new Set<LedgerEntry>()): boolean {
  if (marks.journaled.has(item.id)) return true;
  const text = `${item.title ?? ''}\n${item.content ?? ''}`;
  if (text.includes(`zq${marks.runId}`) || text.includes(`notes-conformance run ${marks.runId}`)) return true;
  const prints = [item.content, item.title].filter((t): t is string => t !== undefined).map(print);
  const entry = marks.waiting.find(
    (e) => !taken.has(e) && e.prints?.some((p) => prints.includes(p)) && madeInTime(item, e, marks.toleranceMs),
  );
  if (!entry) return false;
  taken.add(entry);
  item.matched = entry;
  return true;
}

/**
 * Made by that create: at the creation time it asked for, or (a target that ignores it) during the
 * run, no earlier than the create was sent, within the clock tolerance (sentAt is when the kit
 * journaled it, just after the answer; the request's timeout is the most it waited before).
 */
function madeInTime(item: AccountItem, entry: LedgerEntry, toleranceMs: number): boolean {
  if (item.createdAt === undefined) return true;
  const asked = entry.askedCreatedAt === undefined ? Number.NaN : Date.parse(entry.askedCreatedAt);
  if (Math.abs(item.createdAt - asked) < 1000) return true;
  return entry.sentAt === undefined || item.createdAt >= entry.sentAt - toleranceMs - MAX_WAIT_MS;
}

/** The longest a create's answer may take before the kit journals it (a request timeout, generous). */
const MAX_WAIT_MS = 120_000;
