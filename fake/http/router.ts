import { DomainError } from '../service/errors.js';

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

  /** The route and its path parameters; not_found for an unknown path, method_not_allowed for a known one. */
  match(method: string, path: string): { route: R; params: Record<string, string> } {
    const parts = path.split('/');
    let allowed: string[] | undefined;
    let best: { route: R; segments: string[]; literals: number } | undefined;
    for (const { route, segments } of this.compiled) {
      if (segments.length !== parts.length - 1) continue;
      let literals = 0;
      let ok = true;
      for (let i = 0; i < segments.length; i++) {
        const seg = segments[i]!;
        const part = parts[i + 1]!;
        if (seg.charCodeAt(0) === 123 /* { */) {
          if (part === '') { ok = false; break; }
        } else if (seg !== part) {
          ok = false;
          break;
        } else {
          literals++;
        }
      }
      if (!ok) continue;
      if (route.method !== method) {
        (allowed ??= []).push(route.method);
        continue;
      }
      // The most literal match wins: /v2/notes/search beats /v2/notes/{note_id}.
      if (!best || literals > best.literals) best = { route, segments, literals };
    }
    if (best) {
      const params: Record<string, string> = Object.create(null);
      best.segments.forEach((seg, i) => {
        if (seg.charCodeAt(0) === 123) params[seg.slice(1, -1)] = parts[i + 1]!;
      });
      return { route: best.route, params: decodeParams(params) };
    }
    if (allowed) throw new DomainError('method_not_allowed', `${method} is not allowed here; use ${[...new Set(allowed)].join(', ')}`);
    throw new DomainError('not_found', `no endpoint at ${path}`);
  }
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  for (const key of Object.keys(params)) {
    if (!params[key]!.includes('%')) continue;
    try {
      params[key] = decodeURIComponent(params[key]!);
    } catch {
      throw new DomainError('validation', `path parameter ${key} is not valid percent-encoding`);
    }
  }
  return params;
}
