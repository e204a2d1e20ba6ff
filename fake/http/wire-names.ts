import { DomainError, invalid } from '../service/errors.js';
import { looksLikeListCursor } from '../service/paging.js';
import { type NameDirectory, suggestionFor } from './name-hints.js';
import { parseQuery } from './parse.js';
import type { Route } from './routes.js';

/** What to do with a query parameter or body field the route does not know (profile: unknown_fields). */
export type UnknownFields = 'refuse' | 'ignore';
/** What a null in an optional field the document gives no null means (profile: null_fields). */
export type NullFields = 'refuse' | 'absent';

const NONE: readonly string[] = [];
/** Unknown names described one by one, at most (a hostile body may carry thousands). */
const LISTED_UNKNOWNS = 20;

/** Where a name was sent: the query string, the body, or inside an object of the body (`config`). */
type Place = { kind: 'query' } | { kind: 'body' } | { kind: 'inner'; field: string; wire: string };

interface Unknown {
  readonly name: string;
  readonly place: Place;
  /** Read for query parameters only (a lost cursor); a body field's value is not kept. */
  readonly value: unknown;
}

/**
 * The wire <-> canonical names of one route. The service speaks canonical names only; each request
 * gets a RequestNames that renames what the client sent on the way in, and the names in validation
 * messages on the way out, so a client reads the parameter it sent (collection_id, in_collections),
 * not the service's internal name.
 */
export class WireNames {
  constructor(
    readonly route: Route,
    readonly unknown: UnknownFields,
    readonly nulls: NullFields,
    readonly directory: NameDirectory,
  ) {}

  request(): RequestNames {
    return new RequestNames(this);
  }
}

/** The names of one request: what it sent under which name, and what it sent that the route does not know. */
export class RequestNames {
  /** canonical (or canonical.inner) -> the wire name this request used. */
  private readonly sent = new Map<string, string>();
  private readonly unknowns: Unknown[] = [];
  /** Unknown names past the ones kept (counted, not described). */
  private moreUnknowns = 0;

  constructor(private readonly names: WireNames) {}

  /** The query string under canonical names (a null-prototype map). */
  query(search: string): Record<string, string> {
    const out: Record<string, string> = Object.create(null);
    if (search === '') return out;
    const raw = parseQuery(search);
    for (const wire of Object.keys(raw)) {
      const canonical = this.canonical(this.names.route.query, wire, { kind: 'query' }, raw[wire]);
      if (canonical !== undefined) out[canonical] = raw[wire]!;
    }
    return out;
  }

  /** A JSON body with its keys renamed to canonical names (and those of its declared inner objects). */
  body(body: unknown): unknown {
    const { body: fields, inner, nullable } = this.names.route;
    if (!fields || !isObject(body)) return body;
    const out: Record<string, unknown> = Object.create(null);
    // Keys, then each value: Object.entries made a pair per field, and a body of 200,000 unknown
    // fields (an object V8 keeps as a dictionary) spent 200 ms there against 100 ms this way.
    for (const wire of Object.keys(body)) {
      const value = body[wire];
      const canonical = this.canonical(fields, wire, { kind: 'body' }, value);
      if (canonical === undefined) continue;
      if (value === null && this.names.nulls === 'absent' && nullable?.includes(canonical)) {
        this.nulled = [...this.nulled, wire];
        continue;
      }
      const innerFields = inner?.[canonical];
      out[canonical] = innerFields && isObject(value) ? this.inner(innerFields, canonical, wire, value) : value;
    }
    return out;
  }

  /**
   * Refuses the request when it sent names the route does not know: all of them at once, each
   * with a hint (where the name belongs, or the closest declared name). Under unknown_fields:
   * ignore they are dropped instead, except a list cursor sent under another name: dropping it
   * would serve the first page again, with a next_page, to a client that pages forever.
   */
  settle(): void {
    if (this.unknowns.length === 0) return;
    if (this.names.unknown === 'refuse') {
      const more = this.moreUnknowns > 0 ? [`and ${this.moreUnknowns} more unknown names`] : [];
      throw new DomainError('validation', [...this.unknowns.map((u) => this.describe(u)), ...more].join('; '));
    }
    const cursorName = this.wireOf('cursor', 'query');
    const lostCursor = this.unknowns.find(
      (u) => u.place.kind === 'query' && cursorName !== undefined && looksLikeListCursor(u.value),
    );
    if (lostCursor) {
      throw invalid(
        `query parameter ${lostCursor.name} carries a cursor, but the cursor parameter here is ${cursorName}; ` +
          'ignoring it would serve the first page again',
      );
    }
  }

  /**
   * The wire names this request used for names the document does not show (the route's
   * `notShown`), as sent: `filter_by_collection_ids`, `config.include_note_content`.
   */
  notShownUsed(): readonly string[] {
    const notShown = this.names.route.notShown;
    if (notShown === undefined || this.sent.size === 0) return NONE;
    const out: string[] = [];
    for (const canonical of notShown) {
      const wire = this.sent.get(canonical);
      if (wire === undefined) continue;
      const dot = canonical.indexOf('.');
      out.push(dot === -1 ? wire : `${this.sent.get(canonical.slice(0, dot)) ?? canonical.slice(0, dot)}.${wire}`);
    }
    return out;
  }

  /** Fields whose null was read as absent (null_fields: absent): the document gives them no null. */
  nulled: readonly string[] = NONE;

  /** The names the request sent that were dropped (unknown_fields: ignore), as `name (query)` or `config.x (body)`. */
  /** Whether unknown_fields: ignore dropped anything (a cheap test before `ignored` builds the list). */
  get dropped(): boolean {
    return this.names.unknown === 'ignore' && this.unknowns.length > 0;
  }

  get ignored(): readonly string[] {
    if (this.names.unknown !== 'ignore') return [];
    const more = this.moreUnknowns > 0 ? [`${this.moreUnknowns} more`] : [];
    return [...this.unknowns.map((u) => `${printable(qualified(u))} (${placeWord(u.place)})`), ...more];
  }

  /**
   * The message of a validation refusal with its canonical field name replaced by the name the
   * client sent. The field is the error's own (`collection_ids[2]`, `response_shape.include_content`),
   * else the name the message starts with (the service's messages start with the canonical name).
   */
  message(error: DomainError): string {
    if (error.kind !== 'validation') return error.message;
    const path = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?/.exec(error.field ?? '')?.[0];
    const field = path ?? /^[A-Za-z_][A-Za-z0-9_]*(?=[\s[.]|$)/.exec(error.message)?.[0];
    if (field === undefined || !error.message.startsWith(field)) return error.message;
    const [top, inner] = field.split('.') as [string, string | undefined];
    const wireTop = this.sent.get(top) ?? this.wireOf(top);
    if (wireTop === undefined) return error.message;
    const wire = inner === undefined ? wireTop : `${wireTop}.${this.sent.get(field) ?? inner}`;
    return wire + error.message.slice(field.length);
  }

  private inner(
    fields: Readonly<Record<string, string>>,
    outer: string,
    outerWire: string,
    value: Record<string, unknown>,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = Object.create(null);
    for (const [wire, inner] of Object.entries(value)) {
      const canonical = this.canonical(fields, wire, { kind: 'inner', field: outer, wire: outerWire }, inner);
      if (canonical !== undefined) out[canonical] = inner;
    }
    return out;
  }

  /** Own properties only: `toString` or `constructor` are names like any other, not inherited lookups. */
  private canonical(
    fields: Readonly<Record<string, string>>,
    wire: string,
    place: Place,
    value: unknown,
  ): string | undefined {
    if (Object.hasOwn(fields, wire)) {
      const canonical = fields[wire]!;
      this.sent.set(place.kind === 'inner' ? `${place.field}.${canonical}` : canonical, wire);
      return canonical;
    }
    if (this.unknowns.length < LISTED_UNKNOWNS) this.unknowns.push({ name: wire, place, value });
    else this.moreUnknowns++;
    return undefined;
  }

  /** The first declared wire name of a canonical name on this route. */
  private wireOf(canonical: string, only?: 'query' | 'body'): string | undefined {
    const { query, body } = this.names.route;
    for (const [kind, fields] of [
      ['query', query],
      ['body', body ?? {}],
    ] as const) {
      if (only !== undefined && kind !== only) continue;
      const wire = Object.keys(fields).find((w) => fields[w] === canonical);
      if (wire !== undefined) return wire;
    }
    return undefined;
  }

  private describe(u: Unknown): string {
    const hint = suggestionFor(this.names.directory, this.names.route, u.name, u.place);
    return `unknown ${u.place.kind === 'query' ? 'query parameter' : 'field'} ${qualified(u)}${hint ? ` (${hint})` : ''}`;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const qualified = (u: Unknown) => (u.place.kind === 'inner' ? `${u.place.wire}.${u.name}` : u.name);
const placeWord = (place: Place) => (place.kind === 'query' ? 'query' : 'body');
/**
 * A name as sent, fit for a header and a line of its own: \uXXXX for all but printable ASCII (a
 * newline in a key forged a line on standard error, and made the header throw: no answer at all),
 * cut past 600 characters, more than a token's 512, so that a token is never cut and stays redactable.
 */
const printable = (name: string) =>
  (name.length > 600 ? `${name.slice(0, 600)}...` : name).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
