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
    /** Where each cap came from, for the skip reason (kit/tier.ts capSources). */
    private readonly sources: { readonly notes: string; readonly collections: string } = {
      notes: '--max-notes',
      collections: 'the cap on collections',
    },
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
   * reached. The cap counts every create of the run, in any account (a fixture user's too: "at most
   * N notes" is what a reader of --max-notes expects); `quotaUnderTest`: the account's quota is the
   * thing judged, so a spent one is no reason not to send.
   */
  beforeCreate(token: string, kind: CreatedKind, quotaUnderTest = false): void {
    const quota = kind === 'note' && !quotaUnderTest ? this.spent.get(token) : undefined;
    if (quota) throw new QuotaSpent(`not judged: ${quotaWords(quota)}; no new notes can be created for this check`);
    const [count, cap, what] =
      kind === 'note'
        ? [this.created.notes, this.caps.notes, this.sources.notes]
        : [this.created.collections, this.caps.collections, this.sources.collections];
    if (count >= cap)
      throw new CreateCapReached(
        `not in this run: it needs more ${kind}s than the run's cap allows (${cap} ${kind}s, all created; ${what})`,
      );
  }

  /**
   * After a create was answered: counts a success; a quota refusal marks the account spent (not
   * that of a user whose quota is under test: its refusal is an answer to judge).
   */
  afterCreate(token: string, kind: CreatedKind, x: Exchange, quotaUnderTest = false): QuotaInfo | undefined {
    if (x.status >= 200 && x.status < 300) {
      if (kind === 'note') this.created.notes++;
      else this.created.collections++;
      return undefined;
    }
    const quota = kind === 'note' && !quotaUnderTest ? quotaBody(x) : undefined;
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
