import type { Fact, KnownNote } from '../behaviour/state.js';
import type { Exchange } from '../client.js';
import { agree, instantOf, ruleOf, sameNumber, sameText, show } from './compare.js';
import type { Env } from './env.js';

/** Where a note's fields were seen: its full form (read and write answers) or an item of a page. */
export type NoteView = 'full' | 'list' | 'search' | 'related';

/**
 * Judges every field a response reports about a known note against the shadow. The caller has
 * made sure the note was settled when the answer was made (no write in flight or since, the
 * index lag passed for search and related notes).
 */
export function agreeNote(env: Env, n: KnownNote, item: Record<string, unknown>, view: NoteView, x: Exchange): void {
  const { j } = env;
  const what = `${x.method} ${x.path} (note ${n.id})`;
  const at = instantOf(env.precisionMs);
  if ('content' in item) agree(j, n.content, n.refusals, 'content', item.content, sameText, x, what);
  if ('title' in item) agree(j, n.title, n.refusals, 'title', item.title, sameText, x, what);
  if ('title' in item && typeof item.content === 'string') plainTitle(env, item.content, item.title, x, what);
  if ('version' in item) agree(j, n.version, n.refusals, 'version', item.version, sameNumber, x, what);
  if ('created_at' in item) agree(j, listed(n.createdAt, view), n.refusals, 'created_at', item.created_at, at, x, what);
  if ('updated_at' in item) agree(j, n.updatedAt, n.refusals, 'updated_at', item.updated_at, at, x, what);
  if ('trashed_at' in item && n.trashed) {
    const trashed = n.trashed;
    const ok = trashed.value ? item.trashed_at !== null && item.trashed_at !== undefined : item.trashed_at === null;
    j.that(
      trashed.value && view === 'full' && x.method === 'GET' ? 'notes.read.trashed-included' : trashed.rule,
      ok,
      () =>
        `${what}: trashed_at is ${show(item.trashed_at)}, but the note is ${trashed.value ? 'trashed' : 'active'}` +
        ` since ${trashed.by.method} ${trashed.by.path}`,
      x,
      trashed.by,
    );
  }
  if (Array.isArray(item.collection_ids)) agreeLinks(env, n, item.collection_ids, x, what);
}

/** A first line of plain words: letters and digits, single spaces, nothing markdown could mark up. */
const PLAIN_LINE = /^[\p{L}\p{N}]+(?: [\p{L}\p{N}]+)*$/u;

/**
 * "The first line of a note's markdown content is its title": how markers, emphasis or long lines
 * become a title is the target's choice, but a first line of a few plain words is the title itself,
 * whatever the derivation (judged wherever an answer shows a note's content and title together).
 */
function plainTitle(env: Env, content: string, title: unknown, x: Exchange, what: string): void {
  const first = content.split(/\r?\n/, 1)[0]!;
  if (first.length > 80 || !PLAIN_LINE.test(first)) return;
  env.j.that(
    'notes.title.first-line',
    title === first,
    () => `${what}: the content's first line is ${show(first)}, yet the title is ${show(title)}`,
    x,
  );
}

/** After set-created-at, lists and searches show the new created_at under their own rule. */
function listed(fact: Fact<number> | undefined, view: NoteView): Fact<number> | undefined {
  if (!fact || view === 'full' || fact.rule !== 'notes.set-created-at.applied') return fact;
  return { ...fact, rule: 'notes.set-created-at.lists-follow' };
}

/** collection_ids is exactly the set of collections holding the note, each once. */
function agreeLinks(env: Env, n: KnownNote, seen: unknown[], x: Exchange, what: string): void {
  const { j } = env;
  const links = n.links;
  if (!links) return;
  const ids = seen.filter((v): v is string => typeof v === 'string');
  j.that(
    'membership.collection-ids.current',
    new Set(ids).size === seen.length,
    () => `${what}: collection_ids lists a collection twice or holds a non-string: ${show(seen)}`,
    x,
  );
  // A set that is not the collections holding the note breaks the general rule, besides the operation's own.
  const current = ids.length === links.size && ids.every((id) => links.has(id));
  j.that(
    'membership.collection-ids.current',
    current,
    () => `${what}: collection_ids is ${show(ids)}, the note is in ${show([...links.keys()])}`,
    x,
  );
  for (const id of ids) {
    if (links.has(id)) continue;
    const gone = n.unlinked.get(id);
    const refusal = n.refusals.find((r) => r.asked.link === id);
    const rule = refusal?.rule ?? gone?.rule ?? 'membership.collection-ids.current';
    const by = refusal?.by ?? gone?.by;
    j.that(
      rule,
      false,
      () =>
        refusal
          ? `${what}: collection_ids holds ${id}, a link the target refused (${refusal.by.method} ${refusal.by.path} answered ${refusal.by.status})`
          : gone
            ? `${what}: collection_ids still holds ${id}, which ${gone.by.method} ${gone.by.path} took the note out of`
            : `${what}: collection_ids holds ${id}, a collection the run never linked the note to`,
      x,
      by,
    );
  }
  for (const [id, fact] of links) {
    const present = ids.includes(id);
    const blame = present
      ? fact
      : ruleOf(
          fact,
          n.refusals.filter((r) => r.asked.unlink === id),
          'unlink',
          id,
        );
    j.that(
      blame.rule,
      present,
      () => `${what}: collection_ids ${show(ids)} lacks ${id}, linked by ${fact.by.method} ${fact.by.path}`,
      x,
      blame.by,
    );
  }
}
