import type { Exchange } from '../client.js';
import type { Judgements } from './judge.js';
import type { Observation } from './observation.js';

/**
 * Rate-limit headers (section 8): "Responses carry headers in the families X-RateLimit-* and
 * X-Complexity-*"; which endpoints and which exact names is not shown, and the profile may declare
 * them (capabilities.rate_limit_headers).
 */

/** The operations of headers.rate-limit.families: a run that saw a success of each has seen enough to say. */
const FAMILY_OPERATIONS = [
  'searchNotes',
  'getRelatedNotes',
  'listNotes',
  'listCollections',
  'searchCollections',
  'getNote',
  'createNote',
];

const FAMILIES = [
  ['x-ratelimit-', 'X-RateLimit-*'],
  ['x-complexity-', 'X-Complexity-*'],
] as const;

export interface DeclaredRateLimitHeaders {
  readonly operations?: readonly string[];
  readonly names?: readonly string[];
  /** An exhausted bucket's answer carries Retry-After (headers.rate-limit.exhausted). */
  readonly retry_after?: boolean;
}

/** What a worker's answers showed of the header families, to pass between worker processes. */
export interface RateLimitHeadersRecord {
  readonly successes: ReadonlyArray<readonly [string, Exchange]>;
  readonly carried: readonly string[];
}

export class RateLimitHeaders {
  /** A success of each operation of the rule, the first seen (the evidence if no answer carried a family). */
  private readonly successes = new Map<string, Exchange>();
  /** The families some answer of the run carried (any status: a 429 carries them too). */
  private readonly carried = new Set<string>();
  private concluded = false;

  constructor(
    private readonly declared: DeclaredRateLimitHeaders | undefined,
    /** The status the profile declares for an exhausted bucket (statuses.rate_limited). */
    private readonly limitedStatus?: number,
  ) {}

  /**
   * Every answer: which families it carries, the declared names on a declared operation's success,
   * and on an exhausted bucket's answer the declared Retry-After (whole seconds, as the check reads it).
   */
  observe(j: Judgements, o: Observation): void {
    if (this.declared?.retry_after === true && o.x.status === this.limitedStatus)
      j.that(
        'headers.rate-limit.exhausted',
        /^\d+$/.test(o.x.headers['retry-after'] ?? ''),
        () => `${o.method} ${o.path} answered ${o.x.status}, an exhausted bucket, without Retry-After in seconds`,
        o.x,
      );
    const names = Object.keys(o.x.headers);
    for (const [prefix] of FAMILIES) if (names.some((h) => h.startsWith(prefix))) this.carried.add(prefix);
    if (o.op === undefined || o.x.status < 200 || o.x.status >= 300 || !o.ownToken) return;
    if (FAMILY_OPERATIONS.includes(o.op) && !this.successes.has(o.op)) this.successes.set(o.op, o.x);
    const declared = this.declared;
    if (!declared?.names?.length || !declared.operations?.includes(o.op)) return;
    const missing = declared.names.filter((name) => o.x.headers[name.toLowerCase()] === undefined);
    j.that(
      'headers.rate-limit.declared',
      missing.length === 0,
      () => `${o.method} ${o.path} (${o.op}, declared to carry them) answered without ${missing.join(', ')}`,
      o.x,
    );
  }

  /** What another worker's answers showed (its record()), as if seen here. */
  absorb(other: RateLimitHeadersRecord): void {
    for (const [op, x] of other.successes) if (!this.successes.has(op)) this.successes.set(op, x);
    for (const prefix of other.carried) this.carried.add(prefix);
  }

  record(): RateLimitHeadersRecord {
    return { successes: [...this.successes], carried: [...this.carried] };
  }

  /** At the end of the run: whether any answer carried each family, once the run has seen every operation of the rule. */
  conclude(j: Judgements): void {
    if (this.concluded || this.successes.size < FAMILY_OPERATIONS.length) return;
    this.concluded = true;
    const evidence = this.successes.get('searchNotes')!;
    for (const [prefix, family] of FAMILIES)
      j.that(
        'headers.rate-limit.families',
        this.carried.has(prefix),
        () =>
          `no answer of the run carried an ${family} header (successes of ${FAMILY_OPERATIONS.join(', ')} seen;` +
          ` ${evidence.method} ${evidence.path} for one)`,
        evidence,
      );
  }
}
