/**
 * What routing found for a method and path. Routing is HTTP's business: a miss is a result the
 * http layer answers (404, 405 with Allow, a CORS preflight), never a service error.
 */
export type RouteMatch<R> =
  | { readonly kind: 'matched'; readonly route: R; readonly params: Record<string, string> }
  | { readonly kind: 'not_found' }
  /** The path exists, the method does not; `allowed` is what an Allow header lists. */
  | { readonly kind: 'method_not_allowed'; readonly allowed: readonly string[] }
  /** A path parameter that is not valid percent-encoding. */
  | { readonly kind: 'malformed_parameter'; readonly parameter: string };

/** Matches paths against route patterns ({name} segments capture one path segment). */
export class Router<R extends { method: string; path: string }> {
  private readonly compiled: Array<{ route: R; segments: string[] }>;

  constructor(routes: readonly R[]) {
    this.compiled = routes.map((route) => ({ route, segments: route.path.split('/').slice(1) }));
    const seen = new Set<string>();
    for (const { route, segments } of this.compiled) {
      const key = `${route.method} ${segments.map((s) => (s.startsWith('{') ? '{}' : s)).join('/')}`;
      if (seen.has(key)) throw new Error(`two routes for ${route.method} ${route.path}`);
      seen.add(key);
    }
  }

  /**
   * The route and its path parameters. HEAD matches the GET route of the path (the http layer
   * answers it as that GET without a body); a path served only under other methods gives the
   * methods it allows (HEAD listed wherever GET is).
   */
  match(method: string, path: string): RouteMatch<R> {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const parts = path.split('/');
    const allowed = new Set<string>();
    let best: { route: R; segments: string[]; literals: number } | undefined;
    for (const { route, segments } of this.compiled) {
      const literals = matchSegments(segments, parts);
      if (literals === undefined) continue;
      if (route.method !== wanted) {
        allowed.add(route.method);
        continue;
      }
      // The most literal match wins: /v2/notes/search beats /v2/notes/{note_id}.
      if (!best || literals > best.literals) best = { route, segments, literals };
    }
    if (best) {
      const params: Record<string, string> = Object.create(null);
      for (let i = 0; i < best.segments.length; i++) {
        const seg = best.segments[i]!;
        if (seg.charCodeAt(0) !== 123 /* { */) continue;
        const name = seg.slice(1, -1);
        const value = decodeSegment(parts[i + 1]!);
        if (value === undefined) return { kind: 'malformed_parameter', parameter: name };
        params[name] = value;
      }
      return { kind: 'matched', route: best.route, params };
    }
    if (allowed.size === 0) return { kind: 'not_found' };
    if (allowed.has('GET')) allowed.add('HEAD');
    return { kind: 'method_not_allowed', allowed: [...allowed] };
  }

  /** Every method some route serves at this path (HEAD wherever GET is); empty for an unknown path. */
  allowedMethods(path: string): string[] {
    const parts = path.split('/');
    const allowed = new Set<string>();
    for (const { route, segments } of this.compiled)
      if (matchSegments(segments, parts) !== undefined) allowed.add(route.method);
    if (allowed.has('GET')) allowed.add('HEAD');
    return [...allowed];
  }
}

/** The number of literal segments matched, or undefined when the pattern does not match. */
function matchSegments(segments: readonly string[], parts: readonly string[]): number | undefined {
  if (segments.length !== parts.length - 1) return undefined;
  let literals = 0;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i + 1]!;
    if (seg.charCodeAt(0) === 123 /* { */) {
      if (part === '') return undefined;
    } else if (seg !== part) {
      return undefined;
    } else {
      literals++;
    }
  }
  return literals;
}

function decodeSegment(raw: string): string | undefined {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
