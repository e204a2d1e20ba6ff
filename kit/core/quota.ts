import { CreateCapReached, type QuotaInfo, QuotaSpent, quotaWords } from '../../spec/verdicts.js';
import type { Exchange } from './client.js';
import { writeSpentQuota } from './run-folder.js';

export type { QuotaInfo } from '../../spec/verdicts.js';

/** The first natural quota refusal of the run, for the quota rules to be judged without the fixture API. */
export interface NaturalRefusal {
  /** A create with a fresh id sent once the quota was spent, and its answer. */
  refusal: Exchange;
  refusedId: string;
  /** GET of that id afterwards: anything but 200 means the refused create stored nothing. */
  readAfter: Exchange;
}

export type CreatedKind = 'note' | 'collection';

/** Whether an answer is the documented quota refusal (error.type = quota_exceeded), whatever its status. */
export function quotaBody(x: Exchange): QuotaInfo | undefined {
  if (x.status < 400) return undefined;
  const error = (
    x.json as { error?: { type?: unknown; message?: unknown; details?: Record<string, unknown> } } | undefined
  )?.error;
  if (error?.type !== 'quota_exceeded') return undefined;
  const d = error.details ?? {};
  const pick = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? v : undefined);
  const info: QuotaInfo = {};
  if (pick(d.used) !== undefined) info.used = pick(d.used)!;
  if (pick(d.limit) !== undefined) info.limit = pick(d.limit)!;
  if (pick(d.reset_time) !== undefined) info.reset_time = pick(d.reset_time)!;
  if (typeof error.message === 'string') info.message = error.message;
  return info;
}

/**
 * The run-wide state of creating things, shared by the api layer and the data factory of every
 * file of the run (one worker keeps it): creates counted against the run's caps (--max-notes),
 * and the accounts whose quota is spent. Once an account's quota is spent, no more notes are
 * created for it: every later note create ends its check with QuotaSpent (error), at no request.
 */
export class CreateGuard {
  private readonly spent = new Map<string, QuotaInfo>();
  private natural: NaturalRefusal | undefined;
  readonly created = { notes: 0, collections: 0 };

  constructor(
    readonly caps: { notes: number; collections: number },
    private readonly runDir?: string,
  ) {}

  /** Notes the run may still create under its cap. */
  get notesLeft(): number {
    return Math.max(0, this.caps.notes - this.created.notes);
  }

  /** Collections the run may still create under its cap. */
  get collectionsLeft(): number {
    return Math.max(0, this.caps.collections - this.created.collections);
  }

  /** The quota of this account, if a create found it spent. */
  quotaOf(token: string): QuotaInfo | undefined {
    return this.spent.get(token);
  }

  get naturalRefusal(): NaturalRefusal | undefined {
    return this.natural;
  }

  /**
   * Before a create: refuses it (no request) when the account's quota is spent or the run's cap is
   * reached. `capped`: the create lands in an account of the given tokens (a fixture user's data is
   * made for the run and goes with the user, so it is not capped).
   */
  beforeCreate(token: string, kind: CreatedKind, capped: boolean): void {
    const quota = kind === 'note' ? this.spent.get(token) : undefined;
    if (quota) throw new QuotaSpent(`not judged: ${quotaWords(quota)}; no new notes can be created for this check`);
    if (!capped) return;
    const [count, cap, flag] =
      kind === 'note'
        ? [this.created.notes, this.caps.notes, '--max-notes']
        : [this.created.collections, this.caps.collections, 'the collection cap'];
    if (count >= cap)
      throw new CreateCapReached(
        `not in this run: it needs more ${kind}s than ${flag} allows (${cap} ${kind}s, all created)`,
      );
  }

  /** After a create was answered: counts a success; a quota refusal marks the account spent. */
  afterCreate(token: string, kind: CreatedKind, x: Exchange, capped: boolean): QuotaInfo | undefined {
    if (x.status >= 200 && x.status < 300) {
      if (!capped) return undefined;
      if (kind === 'note') this.created.notes++;
      else this.created.collections++;
      return undefined;
    }
    const quota = kind === 'note' ? quotaBody(x) : undefined;
    if (!quota) return undefined;
    if (!this.spent.has(token)) this.spent.set(token, quota);
    // For the report (the main process reads it when the run ends): the first spent quota.
    if (this.runDir && this.spent.size === 1) writeSpentQuota(this.runDir, quota);
    return quota;
  }

  recordNatural(natural: NaturalRefusal): void {
    this.natural ??= natural;
  }
}
