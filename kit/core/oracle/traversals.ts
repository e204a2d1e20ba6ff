import { instantOf as ms } from '../../../spec/patterns.js';
import { sameInstant } from '../behaviour/outcomes.js';
import type { Clock } from '../behaviour/state.js';
import type { Exchange } from '../client.js';
import type { Owner } from '../ledger.js';
import type { Judgements } from './judge.js';

/** The time bounds of a list or search, in the kit's own names. */
export const BOUNDS = ['created_after', 'created_before', 'updated_after', 'updated_before'] as const;
export type Bound = (typeof BOUNDS)[number];

/**
 * A walk through the pages of one list: from a first page (no cursor) along next_page, with the
 * same filters. When the last page arrives the walk is complete and must have held every known
 * resource of the caller that matched its filters and did not change meanwhile.
 */
export interface Traversal {
  readonly actor: Owner;
  /** The filters and order, without the cursor: a page with other filters is not part of this walk. */
  readonly key: string;
  /** The filters and order alone (filtersOf): what a cursor must be reused with. */
  readonly filters: string;
  readonly startSeq: number;
  readonly startedAt: number;
  pages: number;
  readonly seen: Map<string, number>;
  /** The last item of the page before: the order runs on across pages (order.ts). */
  tail?: Record<string, unknown>;
  /**
   * A first page whose total says every result is on it, yet whose next_page points on: either
   * total or next_page is wrong, and the next page of the walk tells which (settleEnd).
   */
  pendingEnd?: { readonly x: Exchange; readonly total: number };
  /** The first page's total: "matches before pagination" is the same on every page while nothing changes. */
  firstTotal?: number;
}

/** The rules a page's total and its next_page at the end belong to. */
export interface EndRules {
  readonly total: string;
  readonly end: string;
}

/**
 * The page after a first page whose total and next_page disagreed: results on it show the list
 * goes on past total (total is wrong), an empty page shows next_page pointed past the end.
 */
export function settleEnd(
  j: Judgements,
  walk: Traversal,
  results: number,
  x: Exchange,
  rules: EndRules,
  endIs: string,
): void {
  const first = walk.pendingEnd;
  if (!first) return;
  walk.pendingEnd = undefined;
  const what = `${first.x.method} ${first.x.path}`;
  if (results > 0)
    j.that(
      rules.total,
      false,
      () =>
        `${what}: total ${first.total} with as many results, but its next_page leads to ${results} more ` +
        `(${x.method} ${x.path}): total does not count every match`,
      first.x,
      x,
    );
  else
    j.that(
      rules.end,
      false,
      () => `${what}: all ${first.total} results were on this page, yet next_page led to an empty page; ${endIs}`,
      first.x,
      x,
    );
}

export class Traversals {
  private readonly byCursor = new Map<string, Traversal>();
  /** The filters and order of the page that handed out each cursor (kept after the walk follows it). */
  private readonly issued = new Map<string, string>();

  /** The filters and order a cursor was handed out under, when the run saw it handed out to this actor. */
  issuedUnder(actor: Owner, cursor: unknown): string | undefined {
    return typeof cursor === 'string' ? this.issued.get(`${actor} ${cursor}`) : undefined;
  }

  /** The walk a page with the same filters continues, left in place (the page's own judgements take it: page()). */
  peek(input: Readonly<Record<string, unknown>>, actor: Owner): Traversal | undefined {
    const t = typeof input.cursor === 'string' ? this.byCursor.get(`${actor} ${input.cursor}`) : undefined;
    return t?.key === keyOf(input) ? t : undefined;
  }

  /** The walk a page belongs to: a new one for a first page, the one whose cursor it followed, or none. */
  page(
    input: Readonly<Record<string, unknown>>,
    cursor: unknown,
    actor: Owner,
    startSeq: number,
    startedAt: number,
  ): Traversal | undefined {
    const key = keyOf(input);
    if (cursor === undefined)
      return { actor, key, filters: filtersOf(input), startSeq, startedAt, pages: 1, seen: new Map() };
    const t = typeof cursor === 'string' ? this.byCursor.get(`${actor} ${cursor}`) : undefined;
    if (!t || t.key !== key) return undefined;
    this.byCursor.delete(`${actor} ${cursor}`);
    t.pages++;
    return t;
  }

  /** The page pointed on to `next`: the walk continues when a page asks for that cursor. */
  continues(t: Traversal, next: string): void {
    // Bounded: walks left unfinished by checks are dropped oldest first.
    if (this.byCursor.size > 1_000) this.byCursor.delete(this.byCursor.keys().next().value!);
    this.byCursor.set(`${t.actor} ${next}`, t);
    if (this.issued.size > 1_000) this.issued.delete(this.issued.keys().next().value!);
    this.issued.set(`${t.actor} ${next}`, t.filters);
  }
}

/** What a cursor must be reused with: the time bounds, the collection and contains filters, and order_by (updated_at when none is given). */
const FILTERS = [
  ...['created_after', 'created_before', 'updated_after', 'updated_before'],
  'collection',
  'open_tasks',
  'tasks',
  'images',
  'files',
];

export function filtersOf(input: Readonly<Record<string, unknown>>): string {
  return JSON.stringify([...FILTERS.map((k) => input[k] ?? null), input.order_by ?? 'updated_at']);
}

function keyOf(input: Readonly<Record<string, unknown>>): string {
  const rest = Object.entries(input)
    .filter(([k, v]) => k !== 'cursor' && k !== 'limit' && v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify(rest);
}

/** Whether nothing changed the resource since the walk began (it must then be found exactly once). */
export function unchangedSince(clock: Clock, startSeq: number): boolean {
  return clock.inFlight === 0 && clock.lastEndSeq < startSeq;
}

/**
 * Whether a known instant lies inside the bounds, outside them, or too close to one to tell at the
 * target's precision ('edge'); 'exact' when it equals a bound to the millisecond and the bound is an
 * instant the precision holds (inclusive bounds keep it).
 */
export function insideBounds(
  value: { created_at?: number; updated_at?: number },
  input: Readonly<Record<string, unknown>>,
  precisionMs: number,
): 'inside' | 'outside' | 'edge' | 'exact' | 'unknown' {
  let verdict: 'inside' | 'exact' = 'inside';
  for (const bound of BOUNDS) {
    const limit = ms(input[bound]);
    if (limit === undefined) continue;
    const v = bound.startsWith('created') ? value.created_at : value.updated_at;
    if (v === undefined) return 'unknown';
    // Equal to the millisecond, on an instant the target's precision holds exactly: on the bound.
    if (v === limit && limit % Math.max(1, precisionMs) === 0) {
      verdict = 'exact';
      continue;
    }
    if (sameInstant(v, limit, precisionMs) || Math.abs(v - limit) < precisionMs) return 'edge';
    const after = bound.endsWith('after');
    if (after ? v < limit : v > limit) return 'outside';
  }
  return verdict;
}

export function hasBounds(input: Readonly<Record<string, unknown>>): boolean {
  return BOUNDS.some((b) => input[b] !== undefined);
}

/** "default 50": a first page asked without limit holds 50 results, or all of them when fewer match. */
export function judgeDefaultPage(
  j: Judgements,
  rule: string,
  q: Readonly<Record<string, unknown>>,
  body: Record<string, unknown>,
  results: readonly unknown[],
  x: Exchange,
): void {
  if (q.limit !== undefined || q.cursor !== undefined || !Number.isInteger(body.total)) return;
  j.that(
    rule,
    results.length === Math.min(body.total as number, 50),
    () => `${x.method} ${x.path}: ${results.length} results on a first page without limit, of ${body.total} matching`,
    x,
  );
}
