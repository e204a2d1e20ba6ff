import type { KnownCollection } from '../behaviour/state.js';
import type { Exchange } from '../client.js';
import { agree, instantOf, sameText, show } from './compare.js';
import type { Env } from './env.js';

/**
 * Judges every field a response reports about a known collection against the shadow (the caller
 * has made sure the collection was settled when the answer was made). `countRule` names the rule
 * that promises note_count where the response carries it.
 */
export function agreeCollection(
  env: Env,
  c: KnownCollection,
  item: Record<string, unknown>,
  x: Exchange,
  countRule = 'collections.read.note-count',
  fieldRule?: string,
): void {
  const { j } = env;
  const what = `${x.method} ${x.path} (collection ${c.id})`;
  const at = instantOf(env.precisionMs);
  const as = <T>(fact: { value: T; rule: string; by: Exchange } | undefined) =>
    fact && fieldRule ? { ...fact, rule: fieldRule } : fact;
  if ('title' in item) agree(j, as(c.title), c.refusals, 'title', item.title, sameText, x, what);
  if ('description' in item)
    agree(j, as(c.description), c.refusals, 'description', item.description, sameText, x, what);
  if ('created_at' in item && !fieldRule) agree(j, c.createdAt, c.refusals, 'created_at', item.created_at, at, x, what);
  if ('updated_at' in item && !fieldRule) agree(j, c.updatedAt, c.refusals, 'updated_at', item.updated_at, at, x, what);
  if ('note_count' in item) {
    const count = env.world.activeCount(c);
    // One more than known, after another user's create named the collection: that create linked it.
    const foreign = c.refusals.filter((r) => 'foreignNote' in r.asked);
    const blame = count !== undefined && item.note_count === count + 1 ? foreign[foreign.length - 1] : undefined;
    if (count !== undefined)
      j.that(
        blame?.rule ?? countRule,
        item.note_count === count,
        () =>
          `${what}: note_count is ${show(item.note_count)}, but the collection holds ${count} active note(s)` +
          ` (${[...(c.members ?? [])].join(', ') || 'none'})` +
          (blame ? `; ${blame.by.method} ${blame.by.path} by another user named it` : ''),
        x,
        blame?.by,
      );
  }
}
