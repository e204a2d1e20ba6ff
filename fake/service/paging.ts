import { createHash } from 'node:crypto';
import type { OrderedWalk } from '../store/sorted-index.js';
import { DomainError, invalid } from './errors.js';

/** What a cursor carries: the position after the last item, and a hash of the filters it belongs to. */
interface CursorState {
  key: number;
  id: string;
  filters: string;
}

export function filtersHash(filters: unknown): string {
  return createHash('sha256').update(JSON.stringify(filters)).digest('base64url').slice(0, 16);
}

export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify([state.key, state.id, state.filters])).toString('base64url');
}

/**
 * The position a cursor names. A cursor that is not one of ours is a validation failure; one
 * issued for other filters or another order_by is refused as a cursor mismatch.
 */
export function decodeCursor(raw: string, expectedFilters: string, checkFilters: boolean): { key: number; id: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid('the cursor is not valid');
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    typeof parsed[0] !== 'number' ||
    typeof parsed[1] !== 'string' ||
    typeof parsed[2] !== 'string'
  ) {
    throw invalid('the cursor is not valid');
  }
  if (checkFilters && parsed[2] !== expectedFilters) {
    throw new DomainError(
      'cursor_mismatch',
      'the cursor belongs to other filters or another order_by; reuse it with the same ones',
    );
  }
  return { key: parsed[0], id: parsed[1] };
}

export interface Page<T> {
  items: T[];
  total: number;
  /** The position after the last item, when more results remain. */
  next?: { key: number; id: string };
}

/**
 * One page of the records in `index` that `matches` admits, in the given direction, after the
 * cursor position; total counts every match. `keyOf` gives a record's sort key for the next cursor.
 */
export function pageOf<T extends { readonly id: string }>(
  index: OrderedWalk<T>,
  descending: boolean,
  after: { key: number; id: string } | undefined,
  limit: number,
  matches: (item: T) => boolean,
  keyOf: (item: T) => number,
): Page<T> {
  let total = 0;
  index.forEach(descending, undefined, (item) => {
    if (matches(item)) total++;
  });
  const items: T[] = [];
  let more = false;
  index.forEach(descending, after, (item) => {
    if (!matches(item)) return true;
    if (items.length === limit) {
      more = true;
      return false;
    }
    items.push(item);
    return true;
  });
  const last = items[items.length - 1];
  return { items, total, ...(more && last !== undefined ? { next: { key: keyOf(last), id: last.id } } : {}) };
}

/** Whether a value is a cursor this fake issued (for any filters): a list cursor sent under a wrong name. */
export function looksLikeListCursor(value: unknown): boolean {
  if (typeof value !== 'string' || value.length === 0) return false;
  try {
    decodeCursor(value, '', false);
    return true;
  } catch {
    return false;
  }
}
