import FindMyWay from 'find-my-way';

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

/** Stands in for a segment that is not valid percent-encoding, to learn which parameter it is. */
const MALFORMED = '\u0000malformed';

/**
 * Route patterns ({name} segments capture one path segment) on find-my-way, Fastify's radix
 * router: a literal segment beats a parameter (/v2/notes/search before /v2/notes/{note_id}). The
 * core routes with it, so a request answered in-process and one answered over HTTP meet the same
 * table.
 */
export class Router<R extends { method: string; path: string }> {
  // No length cap on a parameter: an over-long id is refused by the core as not a UUID, not as no route.
  private readonly router = FindMyWay({ caseSensitive: true, maxParamLength: Number.MAX_SAFE_INTEGER });
  private readonly methods: string[];

  constructor(routes: readonly R[]) {
    for (const route of routes) {
      const pattern = route.path.replace(/\{(\w+)\}/g, ':$1');
      // find-my-way throws on a second route for the same method and pattern.
      this.router.on(route.method as FindMyWay.HTTPMethod, pattern, () => {}, { route });
    }
    this.methods = [...new Set(routes.map((r) => r.method))];
  }

  /**
   * The route and its path parameters. HEAD matches the GET route of the path (the http layer
   * answers it as that GET without a body); a path served only under other methods gives the
   * methods it allows (HEAD listed wherever GET is).
   */
  match(method: string, path: string): RouteMatch<R> {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const found = this.find(wanted, path);
    if (found) return { kind: 'matched', route: found.route, params: found.params };
    if (path.includes('%')) {
      const parameter = this.malformed(wanted, path);
      if (parameter !== undefined) return { kind: 'malformed_parameter', parameter };
    }
    const allowed = this.allowedMethods(path);
    return allowed.length === 0 ? { kind: 'not_found' } : { kind: 'method_not_allowed', allowed };
  }

  /** Every method some route serves at this path (HEAD wherever GET is); empty for an unknown path. */
  allowedMethods(path: string): string[] {
    const allowed = this.methods.filter((m) => this.find(m, path) !== undefined);
    if (allowed.includes('GET')) allowed.push('HEAD');
    return allowed;
  }

  private find(method: string, path: string): { route: R; params: Record<string, string> } | undefined {
    if (!this.methods.includes(method)) return undefined;
    const found = this.router.find(method as FindMyWay.HTTPMethod, path);
    if (!found) return undefined;
    const params = { ...found.params } as Record<string, string>;
    // An empty segment is no parameter: /v2/notes/ is not a note's path.
    for (const name in params) if (params[name] === '') return undefined;
    return { route: (found.store as { route: R }).route, params };
  }

  /** The parameter whose segment is not valid percent-encoding, if the path is otherwise a route's. */
  private malformed(method: string, path: string): string | undefined {
    const segments = path.split('/').map((s) => (decodes(s) ? s : MALFORMED));
    const found = this.router.find(method as FindMyWay.HTTPMethod, segments.join('/'));
    if (!found) return undefined;
    return Object.entries(found.params).find(([, value]) => value === MALFORMED)?.[0];
  }
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}
