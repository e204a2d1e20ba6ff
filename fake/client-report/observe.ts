import { loadRules } from '../../spec/rules.js';
import type { Served } from '../http/core.js';
import { closest } from '../http/name-hints.js';
import type { Route } from '../http/routes.js';
import type { FakeRequest } from '../http/types.js';
import { RuleFinder } from './classify.js';

/**
 * What a client's requests told about it: each rule of the catalogue a request broke (refused, or
 * answered only because the profile dropped a name or read a null as absent) or relied on beyond
 * the document (names the document does not show), how often, and the first request that did it.
 * `fake --client-report FILE` writes it when the fake stops; GET /__fake/client-report serves it.
 */
export interface ClientFinding {
  rule: string;
  /** `broke`: the request departs from the document; `relied`: it used names the document does not show. */
  kind: 'broke' | 'relied';
  count: number;
  first: { at: string; method: string; url: string; status: number; field?: string; message?: string };
  /** The names the client used where the document shows none (at most 20, first seen first). */
  names: string[];
}

export interface ClientReportData {
  /** When the fake started observing, and how many API requests it saw. */
  since: string;
  requests: number;
  profile: string;
  findings: ClientFinding[];
}

/** Not a client's doing: the fake's own state or load. */
const NOT_THE_CLIENTS = new Set(['server_busy', 'state_full', 'state_not_saved', 'internal_error']);
const MOST_FINDINGS = 500;
const MOST_NAMES = 20;

export class ClientLog {
  /** Made at the first request: the catalogue is read only by a fake that serves one. */
  private finderMade: RuleFinder | undefined;
  private readonly found = new Map<string, ClientFinding>();
  private requests = 0;
  private readonly since: string;

  constructor(
    private readonly routes: readonly Route[],
    private readonly profile: string,
    private readonly now: () => number,
    private readonly redact: (url: string) => string,
  ) {
    this.since = new Date(now()).toISOString();
  }

  private get finder(): RuleFinder {
    this.finderMade ??= new RuleFinder(loadRules());
    return this.finderMade;
  }

  observe(request: FakeRequest, served: Served): void {
    const op = served.op;
    if (op === undefined) return;
    this.requests++;
    // Most requests: a success that used no name the document leaves open. Nothing to note.
    if (
      served.refusal === undefined &&
      served.notShown === undefined &&
      served.ignored === undefined &&
      served.nulled === undefined
    )
      return;
    const seen = (
      rule: string,
      kind: ClientFinding['kind'],
      field?: string,
      names: readonly string[] = [],
      why = served.detail?.message,
    ) => this.note(rule, kind, request, served, field, names, why);
    if (served.refusal !== undefined) {
      if (NOT_THE_CLIENTS.has(served.refusal)) return;
      const message = served.detail?.message ?? served.refusal;
      const unknown = /^unknown (?:query parameter|field) ([^\s;]+)/.exec(message)?.[1];
      const rule = this.finder.refused({
        op,
        kind: served.refusal,
        ...(served.detail?.field ? { field: served.detail.field } : {}),
        message,
        hadToken: request.headers?.authorization !== undefined,
      });
      seen(rule, 'broke', unknown ?? served.detail?.field ?? this.fieldOf(op, served.refusal, message));
      return;
    }
    for (const entry of served.ignored ?? []) {
      const m = /^(.*) \((query|body)\)$/.exec(entry);
      if (!m) continue;
      const hint = this.hint(op, m[1]!, m[2] as 'query' | 'body');
      const why = `${m[1]} (${m[2]}) is not a name of this endpoint${hint ? ` (${hint})` : ''}; ignored (unknown_fields: ignore)`;
      seen(this.finder.unknownName(op, hint), 'broke', m[1], [], why);
    }
    for (const name of served.nulled ?? [])
      seen(
        this.finder.nulled(op),
        'broke',
        name,
        [],
        `${name}: null, which the document does not allow here; read as absent (null_fields: absent)`,
      );
    if (served.notShown) seen(this.finder.notShown(op), 'relied', served.notShown[0], served.notShown);
  }

  data(): ClientReportData {
    const findings = [...this.found.values()].sort((a, b) =>
      a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : a.kind < b.kind ? -1 : 1,
    );
    return { since: this.since, requests: this.requests, profile: this.profile, findings };
  }

  /** The field a refusal is about: the name its message starts with, when the endpoint has it. */
  private fieldOf(op: string, kind: string, message: string): string | undefined {
    if (kind === 'conflict') return 'id';
    const word = /^[A-Za-z_][\w]*/.exec(message)?.[0];
    const route = this.routes.find((r) => r.op === op);
    if (!word || !route) return undefined;
    const known = [...Object.entries(route.query), ...Object.entries(route.body ?? {})];
    return known.some(([wire, canonical]) => wire === word || canonical === word) ? word : undefined;
  }

  /** What the refusal would have said of a dropped name: where it belongs, or the closest accepted one. */
  private hint(op: string, name: string, place: 'query' | 'body'): string | undefined {
    const route = this.routes.find((r) => r.op === op);
    if (!route) return undefined;
    if (place === 'body' && Object.hasOwn(route.query, name)) return 'a query parameter here';
    const close = closest(name, Object.entries(place === 'query' ? route.query : (route.body ?? {})));
    return close === undefined ? undefined : `did you mean ${close}?`;
  }

  private note(
    rule: string,
    kind: ClientFinding['kind'],
    request: FakeRequest,
    served: Served,
    field: string | undefined,
    names: readonly string[],
    why: string | undefined,
  ): void {
    const key = `${rule} ${kind}`;
    let finding = this.found.get(key);
    if (!finding) {
      if (this.found.size >= MOST_FINDINGS) return;
      finding = {
        rule,
        kind,
        count: 0,
        first: {
          at: new Date(this.now()).toISOString(),
          method: request.method.toUpperCase(),
          url: this.redact(request.url),
          status: served.response.status,
          ...(field ? { field } : {}),
          ...(why ? { message: why } : {}),
        },
        names: [],
      };
      this.found.set(key, finding);
    }
    finding.count++;
    for (const name of names)
      if (finding.names.length < MOST_NAMES && !finding.names.includes(name)) finding.names.push(name);
  }
}
