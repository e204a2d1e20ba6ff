import { instantOf as ms } from '../../../spec/patterns.js';
import { objectOf } from '../behaviour/request.js';
import { settled } from '../behaviour/state.js';
import type { Env } from './env.js';
import type { Observation } from './observation.js';

const RULES = {
  listNotes: {
    honoured: 'notes.list.order-by-honoured',
    default: 'notes.list.order-by-default-updated-at',
    direction: 'notes.list.order-direction',
  },
  listCollections: {
    honoured: 'collections.list.order-by-honoured',
    default: 'collections.list.order-by-default-updated-at',
    direction: 'collections.list.order-direction',
  },
} as const;

/**
 * The order of one page of a list, from the timestamps its items show: by order_by (updated_at
 * when none is given), one way, and the way the profile declares (list_order). Only items of
 * resources the run knows and that nothing changed meanwhile are compared. Items closer than
 * the target's precision have no defined order; a page that runs against the declared direction
 * in a single pair may as well be ordered by another field, so only two or more such pairs, and
 * none the declared way, judge the direction. Relevance-ranked search is never judged.
 */
export function judgeOrder(env: Env, o: Observation): void {
  if (o.op !== 'listNotes' && o.op !== 'listCollections') return;
  if (o.x.status < 200 || o.x.status >= 300) return;
  const q = o.input ?? {};
  const field = q.order_by === undefined ? 'updated_at' : q.order_by;
  if (field !== 'created_at' && field !== 'updated_at') return;
  const rules = RULES[o.op];
  const rule = q.order_by === undefined ? rules.default : rules.honoured;
  const results = objectOf(o.x.json).results;
  // Only resources of the run that nothing changed while the page was made: another client's write
  // racing the page says nothing of the order (a subsequence of an ordered page is ordered).
  const shadows = o.op === 'listNotes' ? env.world.notes : env.world.collections;
  const items = (Array.isArray(results) ? results : []).map(objectOf).filter((item) => {
    const r = typeof item.id === 'string' ? shadows.get(item.id) : undefined;
    return r !== undefined && settled(r.clock, o.startSeq, o.startedAt);
  });
  let up = 0;
  let down = 0;
  let against: { a: Record<string, unknown>; b: Record<string, unknown> } | undefined;
  const newestFirst = env.listOrder === undefined ? undefined : env.listOrder === 'newest_first';
  for (let i = 1; i < items.length; i++) {
    const a = ms(items[i - 1]![field]);
    const b = ms(items[i]![field]);
    if (a === undefined || b === undefined || Math.abs(b - a) < Math.max(1, env.precisionMs)) continue;
    if (b > a) up++;
    else down++;
    if (newestFirst !== undefined && b > a === newestFirst) against ??= { a: items[i - 1]!, b: items[i]! };
  }
  if (up + down === 0) return;
  const what = `${o.method} ${o.path}`;
  const shown = (item: Record<string, unknown> | undefined) => `${String(item?.id)} (${String(item?.[field])})`;
  const mixed = up > 0 && down > 0;
  env.j.that(
    mixed && field === 'created_at' && o.op === 'listNotes' && backdated(env, items)
      ? 'notes.set-created-at.lists-follow'
      : rule,
    !mixed,
    () =>
      `${what}: the page is not ordered by ${field}: ${up} pair(s) of items rise and ${down} fall` +
      (against ? `, e.g. ${shown(against.a)} before ${shown(against.b)}` : ''),
    o.x,
  );
  if (mixed || newestFirst === undefined) return;
  const wrong = newestFirst ? up : down;
  if (wrong === 1 && up + down === 1) return;
  env.j.that(
    rules.direction,
    wrong === 0,
    () =>
      `${what}: the page runs ${newestFirst ? 'oldest' : 'newest'} first by ${field}, the profile declares` +
      ` ${env.listOrder}: ${shown(against?.a)} before ${shown(against?.b)}`,
    o.x,
  );
}

/** Whether a page holds a note whose created_at set-created-at changed (the list must order by the new one). */
function backdated(env: Env, items: ReadonlyArray<Record<string, unknown>>): boolean {
  return items.some((item) => {
    const n = typeof item.id === 'string' ? env.world.notes.get(item.id) : undefined;
    return n?.createdAt?.rule === 'notes.set-created-at.applied';
  });
}
