import { type CheckContext, type Exchange, KitError, searchIndexLagMs, show } from '../harness/index.js';

export type Item = Record<string, unknown>;

export const items = (x: Exchange): Item[] => {
  const results = (x.json as { results?: unknown } | undefined)?.results;
  return Array.isArray(results) ? (results as Item[]) : [];
};
export const idsOf = (x: Exchange): string[] => items(x).map((i) => i.id as string);
export const field = (x: Exchange, name: string): unknown => (x.json as Record<string, unknown> | undefined)?.[name];
export const refused = (x: Exchange) => x.status >= 400 && x.status < 500;

/** What has_next_page must say of a search page: more is reachable within the window (offset + results < total). */
export const moreReachable = (x: Exchange) => Number(field(x, 'offset')) + items(x).length < Number(field(x, 'total'));

/** The same instant written with another offset (the kit compares instants, and so must the target). */
export function withOffset(at: number, minutes: number): string {
  const wall = new Date(at + minutes * 60_000).toISOString().slice(0, 23);
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(Math.floor(n)).padStart(2, '0');
  return `${wall}${minutes < 0 ? '-' : '+'}${pad(abs / 60)}:${pad(abs % 60)}`;
}

/**
 * Whether a search finds a note by a word it holds is advisory (notes.search.finds-matching-note):
 * a check that needs it says so as the kit's problem, not the target's failure.
 */
export function notFound(x: Exchange, wanted: readonly string[]): KitError | undefined {
  const missing = wanted.filter((id) => !idsOf(x).includes(id));
  if (x.status === 200 && missing.length === 0) return undefined;
  return new KitError(
    `a search for a word these notes hold misses ${missing.length} of ${wanted.length}, so the check cannot judge (see notes.search.finds-matching-note): ${show(x)}`,
  );
}

/**
 * A search for `word` (limit 50) once it finds all of `wanted`: polled while the target's search index
 * catches up (search_index_lag_ms). Never finding them means the check cannot judge (error), as in notFound.
 */
export async function searchFinding(
  t: CheckContext,
  word: string,
  wanted: readonly string[],
  q: { limit?: number } = { limit: 50 },
): Promise<Exchange> {
  const { value } = await t.poll(
    () => t.api.searchNotes(q, { query: word }),
    (x) => notFound(x, wanted) === undefined,
  );
  const problem = notFound(value, wanted);
  if (problem)
    throw new KitError(`${problem.message} (polled for search_index_lag_ms = ${searchIndexLagMs(t.ctx)} ms)`);
  return value;
}

/** Before failing a filter for leaving a note out, make sure the unfiltered search finds it at all. */
export async function requireFound(t: CheckContext, word: string, wanted: readonly string[]): Promise<void> {
  await searchFinding(t, word, wanted);
}

/**
 * A request that carries a name from the profile and is refused says the name is wrong: the
 * profile rule fails, and the documented rule it stood in for cannot be judged (error, not fail).
 */
export const notHonoured = (what: string, x: Exchange) =>
  new KitError(
    `${what} is refused, so the profile's name is not honoured (see notes.search.parameter-names): ${show(x)}`,
  );
