import { randomBytes } from 'node:crypto';
import { KitError, setupFailed } from '../../spec/verdicts.js';
import { type Exchange, type SendOptions, TargetClient } from '../core/client.js';

/** The most requests `profile init` sends, retries and cleanup included (issue 12). */
export const MAX_REQUESTS = 80;

/** Who sends a request: the main user, the second user, or nobody (no Authorization header). */
export type Sender = 'primary' | 'secondary' | 'anonymous';

/** One answer the probe got, under the operation id of openapi.yaml it was sent to. */
export interface Answer {
  readonly op: string;
  readonly x: Exchange;
}

/** Ctrl-C or SIGTERM: the probe stops between requests and cleans up. */
/**
 * A create the target refused with a 4xx (the endpoint is missing, say): a server early in its
 * implementation. The probe goes on without what the create was for (infer.ts), where a 5xx or no
 * answer stops it.
 */
export class StepRefused extends KitError {
  override name = 'StepRefused';
}

/** A setup failure: StepRefused for a 4xx, else the KitError of setupFailed. */
function stepFailed(step: string, x: Exchange): KitError {
  const failure = setupFailed(step, x.status, x.json ?? x.text);
  return x.status >= 400 && x.status < 500 ? new StepRefused(failure.message) : failure;
}

export class Interrupted extends Error {
  override name = 'Interrupted';
}

export interface SessionOptions {
  baseUrl: string;
  token: string;
  secondaryToken?: string;
  requestsPerSecond?: number;
  timeoutMs: number;
  signal: AbortSignal;
}

export interface CleanupResult {
  /** Notes deleted (or found gone). */
  deleted: number;
  /** Collections deleted (or found gone). */
  deletedCollections: number;
  /** Ids of notes (and `collection ID`s) the probe created and could not delete, and what it may have made unseen. */
  left: string[];
}

/**
 * The probe's way to the target: the kit's client (timeouts, no redirects, redaction, 429
 * handling) capped at MAX_REQUESTS, every answer kept under its operation id (the header and
 * error-body inference read them), and every note the target confirms created remembered for
 * the cleanup. A probe request is refused when it would leave no room for deleting what exists.
 */
export class ProbeSession {
  readonly client: TargetClient;
  readonly answers: Answer[] = [];
  /** A marker unique to this probe, in every note it creates. */
  readonly marker = `notes-conformance profile init ${randomBytes(4).toString('hex')}`;
  private readonly created = new Set<string>();
  private readonly collections = new Set<string>();
  /** What the probe may have made but could not find to delete (a capture filed late), in words. */
  private readonly unfound: string[] = [];
  private counter = 0;
  /**
   * Requests kept back for the steps that follow the name probes (refusals, endpoints, cleanup):
   * a name probe that cannot afford its requests is not tried, rather than starving them.
   */
  reserve = 0;

  constructor(private readonly options: SessionOptions) {
    this.client = new TargetClient({
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs,
      requestBudget: MAX_REQUESTS,
      ...(options.requestsPerSecond ? { requestsPerSecond: options.requestsPerSecond } : {}),
      secrets: [options.token, options.secondaryToken].filter((s): s is string => !!s),
    });
  }

  get hasSecondary(): boolean {
    return this.options.secondaryToken !== undefined;
  }

  get sent(): number {
    return this.client.sent;
  }

  /** Requests still free, after the deletes of everything created so far. */
  get remaining(): number {
    return MAX_REQUESTS - this.client.sent - this.created.size - this.collections.size;
  }

  /** Whether `n` more requests (and the reserve) fit in the cap. */
  affords(n: number): boolean {
    return this.remaining - this.reserve >= n;
  }

  /** A word found nowhere but in this probe's notes. */
  word(): string {
    return `zq${this.marker.slice(-8)}${(this.counter++).toString(36)}${randomBytes(2).toString('hex')}`;
  }

  async send(op: string, opts: Omit<SendOptions, 'token'>, as: Sender = 'primary'): Promise<Exchange> {
    if (this.options.signal.aborted) throw new Interrupted('interrupted');
    if (this.remaining < 1) {
      throw new KitError(
        `the probe would need more than ${MAX_REQUESTS} requests with the cleanup; stopped before ${opts.method} ${opts.path}`,
      );
    }
    const x = await this.sendRecorded(op, { ...opts, token: this.tokenOf(as) });
    // A 5xx is no observation of a choice: a profile inferred from a failing target would mislead.
    if (x.status >= 500)
      throw new KitError(
        `${x.method} ${x.path.split('?')[0]} answered ${x.status}: ${x.text.replace(/\s+/g, ' ').slice(0, 120)}`,
      );
    return x;
  }

  /**
   * A request that tries a guess (a parameter name, an endpoint): a 5xx is an answer here (the
   * guess is not confirmed), not a reason to stop the probe.
   */
  async attempt(op: string, opts: Omit<SendOptions, 'token'>): Promise<Exchange> {
    if (this.options.signal.aborted) throw new Interrupted('interrupted');
    if (this.remaining < 1)
      throw new KitError(`the probe would need more than ${MAX_REQUESTS} requests with the cleanup`);
    return this.sendRecorded(op, { ...opts, token: this.options.token });
  }

  /** Runs `work` (which sends through the client itself) and keeps its answers under `op`. */
  async recorded<T>(op: string, work: (client: TargetClient) => Promise<T>): Promise<T> {
    const attempts: Exchange[] = [];
    this.client.record(attempts);
    try {
      return await work(this.client);
    } finally {
      this.client.record(undefined);
      for (const x of attempts) this.answers.push({ op, x });
    }
  }

  /** Creates a note for the probe; anything but a 2xx with an id is a setup failure. */
  async createNote(body: Record<string, unknown>, step: string): Promise<Record<string, unknown>> {
    const x = await this.send('createNote', { method: 'POST', path: '/v2/notes', json: body });
    const json = this.noteIfCreated(x);
    if (!json) throw stepFailed(step, x);
    return json;
  }

  /** Creates a collection for the probe (deleted with the notes); anything but a 2xx with an id is a setup failure. */
  async createCollection(body: Record<string, unknown>, step: string): Promise<Record<string, unknown>> {
    const x = await this.send('createCollection', { method: 'POST', path: '/v2/collections', json: body });
    const json = x.json as Record<string, unknown> | undefined;
    if (x.status < 200 || x.status > 299 || typeof json?.id !== 'string') throw stepFailed(step, x);
    this.collections.add(json.id);
    return json;
  }

  /** Remembers a note a create made, also one the probe expected to be refused; returns its body. */
  noteIfCreated(x: Exchange): Record<string, unknown> | undefined {
    const json = x.json as Record<string, unknown> | undefined;
    if (x.status < 200 || x.status > 299 || typeof json?.id !== 'string') return undefined;
    this.created.add(json.id);
    return json;
  }

  /** Remembers a note the probe caused without creating it (the note a capture filed), for the cleanup. */
  adopt(noteId: string): void {
    this.created.add(noteId);
  }

  /** Reports, as left behind, something the probe may have made and could not find. */
  mayHaveMade(what: string): void {
    this.unfound.push(what);
  }

  /**
   * Deletes every note and collection the probe created, also after a failure or an interrupt (it
   * ignores the abort signal). A 404 or 410 means the resource is gone already.
   */
  async cleanUp(): Promise<CleanupResult> {
    const deleted = { notes: 0, collections: 0 };
    const left: string[] = [];
    for (const [set, kind, op] of [
      [this.created, 'notes', 'deleteNote'],
      [this.collections, 'collections', 'deleteCollection'],
    ] as const) {
      for (const id of [...set]) {
        try {
          const x = await this.sendRecorded(op, {
            method: 'DELETE',
            path: `/v2/${kind}/${id}`,
            token: this.options.token,
          });
          if ((x.status >= 200 && x.status < 300) || x.status === 404 || x.status === 410) {
            set.delete(id);
            deleted[kind]++;
            continue;
          }
        } catch {
          // counted below as left behind
        }
        left.push(kind === 'notes' ? id : `collection ${id}`);
      }
    }
    return { deleted: deleted.notes, deletedCollections: deleted.collections, left: [...left, ...this.unfound] };
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private async sendRecorded(op: string, opts: SendOptions): Promise<Exchange> {
    return this.recorded(op, (client) => client.send(opts));
  }

  private tokenOf(as: Sender): string | null {
    if (as === 'anonymous') return null;
    if (as === 'primary') return this.options.token;
    if (!this.options.secondaryToken) throw new KitError('no second token was given');
    return this.options.secondaryToken;
  }
}
