import { DomainError } from '../service/errors.js';
import { parseQuery } from './parse.js';
import type { Route } from './routes.js';

/** What to do with a query parameter or body field the route does not know (profile: unknown_fields). */
export type UnknownFields = 'refuse' | 'ignore';

/**
 * The wire <-> canonical name mapping of one route. The service speaks canonical names only;
 * this class renames what the client sent on the way in, and the names in validation messages
 * on the way out, so a client reads the parameter it sent (collection_id, in_collections), not
 * the service's internal name.
 */
export class WireNames {
  private readonly toWire: ReadonlyMap<string, string>;

  constructor(
    private readonly route: Route,
    private readonly unknown: UnknownFields,
  ) {
    const toWire = new Map<string, string>();
    for (const fields of [route.query, route.body ?? {}]) {
      for (const wire of Object.keys(fields)) if (!toWire.has(fields[wire]!)) toWire.set(fields[wire]!, wire);
    }
    this.toWire = toWire;
  }

  /** The query string under canonical names (a null-prototype map). */
  query(search: string): Record<string, string> {
    const out: Record<string, string> = Object.create(null);
    if (search === '') return out;
    const raw = parseQuery(search);
    for (const wire of Object.keys(raw)) {
      const canonical = this.canonical(this.route.query, wire, 'query parameter');
      if (canonical !== undefined) out[canonical] = raw[wire]!;
    }
    return out;
  }

  /** A JSON body with its top-level keys renamed to canonical names; other JSON values pass unchanged. */
  body(body: unknown): unknown {
    const fields = this.route.body;
    if (!fields || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
    const out: Record<string, unknown> = Object.create(null);
    for (const [wire, value] of Object.entries(body)) {
      const canonical = this.canonical(fields, wire, 'field');
      if (canonical !== undefined) out[canonical] = value;
    }
    return out;
  }

  /**
   * The message of a validation refusal with its canonical field name replaced by the wire name.
   * The field is the error's own, else the name the message starts with (the service's messages
   * start with the canonical name they refuse: "collection must be a UUID").
   */
  message(error: DomainError): string {
    // The field may carry an index or a path (collection_ids[2]); the name the client sent is its head.
    const field =
      /^[A-Za-z_][A-Za-z0-9_]*/.exec(error.field ?? '')?.[0] ??
      /^[A-Za-z_][A-Za-z0-9_]*(?=[\s[.]|$)/.exec(error.message)?.[0];
    if (error.kind !== 'validation' || field === undefined) return error.message;
    const wire = this.toWire.get(field);
    if (wire === undefined || wire === field || !error.message.startsWith(field)) return error.message;
    return wire + error.message.slice(field.length);
  }

  /** Own properties only: `toString` or `constructor` are names like any other, not inherited lookups. */
  private canonical(fields: Readonly<Record<string, string>>, wire: string, what: string): string | undefined {
    if (Object.hasOwn(fields, wire)) return fields[wire];
    if (this.unknown === 'ignore') return undefined;
    throw new DomainError('validation', `unknown ${what} ${wire}`);
  }
}
