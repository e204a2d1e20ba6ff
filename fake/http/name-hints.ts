import type { Route } from './routes.js';

/**
 * Hints for a client that guessed a name: where a name the route does not know belongs (the other
 * half of the request, an object of the body of the same endpoint), or the closest name declared in
 * the same place. Computed only for refusals, never on the path of a good request.
 */

type Where = 'query' | 'body' | 'inner';

interface Declared {
  readonly route: Route;
  readonly where: Where;
  /** For inner names: the wire name of the object that holds them (config). */
  readonly holder?: string;
}

/** Every wire name of every route, with where it is declared. */
export type NameDirectory = ReadonlyMap<string, readonly Declared[]>;

export function nameDirectory(routes: readonly Route[]): NameDirectory {
  const out = new Map<string, Declared[]>();
  const add = (wire: string, declared: Declared) => out.set(wire, [...(out.get(wire) ?? []), declared]);
  for (const route of routes) {
    for (const wire of Object.keys(route.query)) add(wire, { route, where: 'query' });
    for (const wire of Object.keys(route.body ?? {})) add(wire, { route, where: 'body' });
    for (const [canonical, fields] of Object.entries(route.inner ?? {})) {
      const holder = Object.keys(route.body ?? {}).find((w) => route.body![w] === canonical) ?? canonical;
      for (const wire of Object.keys(fields)) add(wire, { route, where: 'inner', holder });
    }
  }
  return out;
}

type Place = { kind: 'query' } | { kind: 'body' } | { kind: 'inner'; field: string; wire: string };

/** One hint for an unknown name, in words, or undefined when nothing fits. */
export function suggestionFor(directory: NameDirectory, route: Route, name: string, place: Place): string | undefined {
  const declared = directory.get(name) ?? [];
  const here = declared.filter((d) => d.route === route);
  const elsewhere = here.find((d) => d.where !== place.kind);
  if (elsewhere) return belongsHere(elsewhere);
  const close = closest(name, namesIn(route, place));
  if (close !== undefined) return `did you mean ${close}?`;
  // The name may be close to one of the other half of the request (a body field sent as a parameter).
  for (const other of otherPlaces(route, place)) {
    const there = closest(name, namesIn(route, other));
    if (there !== undefined)
      return `did you mean ${there}, ${belongsHere({ route, where: other.kind === 'inner' ? 'inner' : other.kind })}?`;
  }
  // Never a name of another endpoint: a client that guessed wrong here is not helped by one that
  // belongs elsewhere (collection search's config is not note search's response-shape object).
  return undefined;
}

function belongsHere(d: Declared): string {
  if (d.where === 'query') return 'a query parameter here: send it in the query string';
  if (d.where === 'body') return 'a field of the JSON body here';
  return `a field of the ${d.holder} object here`;
}

/** The places of a route other than `place`: its query, its body and the objects of its body. */
function otherPlaces(route: Route, place: Place): Place[] {
  const all: Place[] = [{ kind: 'query' }, ...(route.body ? [{ kind: 'body' } as const] : [])];
  return all.filter((p) => p.kind !== place.kind);
}

/** The declared wire names of the place the unknown name was sent in, with their canonical names. */
function namesIn(route: Route, place: Place): ReadonlyArray<readonly [wire: string, canonical: string]> {
  const fields =
    place.kind === 'query' ? route.query : place.kind === 'body' ? (route.body ?? {}) : route.inner?.[place.field];
  return Object.entries(fields ?? {});
}

/** Names other servers give the same thing, by canonical name: none is close to another by spelling. */
const SYNONYMS = new Map<string, ReadonlySet<string>>([
  ['cursor', new Set(['cursor', 'page', 'page_token', 'pagetoken', 'next', 'next_page', 'after', 'continuation'])],
  ['input', new Set(['input', 'content', 'text', 'body'])],
  ['query', new Set(['query', 'q', 'text', 'search'])],
]);
const PREFIXES = /^(filter_by_|contains_|has_|with_|include_|in_|is_)+/;
const stem = (name: string) => name.toLowerCase().replace(PREFIXES, '');

/**
 * The declared name closest to `name`: same stem once filter_by_/contains_/has_/with_/include_
 * prefixes are dropped (filter_by_contains_open_tasks ~ contains_open_tasks), the first word of a
 * declared name (order ~ order_by), the canonical name
 * itself or another server's name for it (page for a cursor), else the smallest edit distance within a third of the length.
 */
export function closest(name: string, declared: ReadonlyArray<readonly [string, string]>): string | undefined {
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  const lower = name.toLowerCase();
  const limit = Math.max(2, Math.floor(name.length / 3));
  for (const [wire, canonical] of declared) {
    const sameThing =
      stem(lower) === stem(wire) ||
      lower === canonical ||
      stem(lower) === stem(canonical) ||
      wire.toLowerCase().startsWith(`${lower}_`) ||
      SYNONYMS.get(canonical)?.has(lower) === true;
    const score = sameThing ? 0 : editDistance(lower, wire.toLowerCase());
    if (score <= limit && score < bestScore) {
      best = wire;
      bestScore = score;
    }
  }
  return best;
}

/** Levenshtein distance, two rows (names are short). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
