import { randomBytes } from 'node:crypto';
import type { Api } from '../../kit/core/api.js';
import type { Exchange } from '../../kit/core/client.js';
import { KitError, setupFailed } from './errors.js';

export interface NoteRef {
  id: string;
  version: number;
  json: Record<string, unknown>;
}

export interface CollectionRef {
  id: string;
  json: Record<string, unknown>;
}

/** Offsets a check may use inside one window (in steps of the target's precision). */
export const WINDOW_SLOT_UNITS = 60_000;
const DAY = 86_400_000;

/**
 * Test data that keeps a run apart from whatever else the account holds: every note carries
 * the run marker, lists are narrowed to a time window far in the past that no one else uses,
 * and searches look for words that exist only in this run.
 */
export class DataFactory {
  private counter = 0;

  /** `instantStepMs`: the target's timestamp precision; window instants are whole multiples of it. */
  constructor(
    private readonly api: Api,
    readonly runId: string,
    private readonly instantStepMs = 1,
  ) {}

  /** A word that appears nowhere but in this run (lower-case letters and digits). */
  word(): string {
    return `zq${this.runId}${(this.counter++).toString(36)}${randomBytes(3).toString('hex')}`;
  }

  /** The run marker line appended to note bodies. */
  get marker(): string {
    return `notes-conformance run ${this.runId}`;
  }

  /** Markdown whose first line is `title`, with the run marker in the body. */
  content(title: string, body = ''): string {
    return `${title}\n${body ? `${body}\n` : ''}${this.marker}`;
  }

  /** Where this run's windows start: a random instant of 2001-2019 (another run picks another). */
  private readonly windowBase = Date.UTC(2001, 0, 1) + Math.floor(Math.random() * 18 * 365 * DAY);
  private windows = 0;

  /**
   * A window of time in the years 2001-2021 that no other data of the run shares: instants inside
   * it are start + offsets. Backdated timestamps are always allowed. The run's windows follow each
   * other in slots of 60,000 offset units, so checks keep their offsets below that.
   *
   * Against a target that keeps instants at a coarser precision (timestamp_precision_ms > 1), an offset
   * counts in steps of that precision and the start is a whole step: every instant of the window is
   * stored as sent, and instants at different offsets stay apart and in order. The slots grow with
   * the step, so wider windows never overlap (random days per window did, at whole seconds).
   */
  window(): TimeWindow {
    const step = this.instantStepMs;
    const start = this.windowBase + (this.windows++ % 1000) * WINDOW_SLOT_UNITS * step;
    return new TimeWindow(Math.ceil(start / step) * step, step);
  }

  async note(content?: string, extra: Record<string, unknown> = {}, api: Api = this.api): Promise<NoteRef> {
    const x = await api.createNote({ content: content ?? this.content(`Note ${this.word()}`), ...extra });
    return noteRef(x, 'create a note');
  }

  async collection(title?: string, extra: Record<string, unknown> = {}, api: Api = this.api): Promise<CollectionRef> {
    const x = await api.createCollection({ title: title ?? `Collection ${this.word()}`, ...extra });
    const id = (x.json as { id?: unknown } | undefined)?.id;
    if (x.status < 200 || x.status > 299 || typeof id !== 'string')
      throw setupFailed('create a collection', x.status, x.json ?? x.text);
    return { id, json: x.json as Record<string, unknown> };
  }
}

export function noteRef(x: Exchange, step: string): NoteRef {
  const json = x.json as Record<string, unknown> | undefined;
  if (x.status < 200 || x.status > 299 || typeof json?.id !== 'string')
    throw setupFailed(step, x.status, x.json ?? x.text);
  if (typeof json.version !== 'number')
    throw new KitError(`${step}: the response has no numeric version (see notes.create.response-fields)`);
  return { id: json.id, version: json.version, json };
}

export class TimeWindow {
  /** `scale`: milliseconds per offset unit (the target's timestamp precision; 1 keeps offsets in ms). */
  constructor(
    readonly start: number,
    readonly scale = 1,
  ) {}
  at(offsetMs: number): string {
    return new Date(this.ms(offsetMs)).toISOString();
  }
  ms(offsetMs: number): number {
    return this.start + offsetMs * this.scale;
  }
}
