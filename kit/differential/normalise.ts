import { instantOf } from '../../spec/patterns.js';
import type { Exchange } from '../core/client.js';
import { sameAtPrecision } from '../core/timing.js';

/**
 * Turns one side's answers into observations that two conforming servers give alike: ids and
 * supplied values become symbols by order of appearance, timestamps become their relation to
 * what the sequence supplied, versions their relation to the last one seen, and refusals whose
 * status the document does not show become a class.
 */
export type Observation = Record<string, unknown>;

export class Symbols {
  /** `precisionMs`: the target's timestamp precision; a supplied instant may come back cut to it. */
  constructor(private readonly precisionMs = 1) {}

  private readonly ids = new Map<string, string>();
  private readonly counters = new Map<string, number>();
  private readonly stamps = new Map<number, string>();
  private readonly contents = new Map<string, string>();

  /** N1, C2...: the n-th id of that kind this side has seen. */
  id(uuid: string, prefix: 'N' | 'C'): string {
    let sym = this.ids.get(uuid);
    if (!sym) {
      const n = (this.counters.get(prefix) ?? 0) + 1;
      this.counters.set(prefix, n);
      this.ids.set(uuid, (sym = `${prefix}${n}`));
    }
    return sym;
  }

  /** A timestamp the sequence sends: T1, T2... by instant, so offsets do not matter. */
  stamp(ms: number): string {
    let label = this.stamps.get(ms);
    if (!label) {
      label = `T${this.stamps.size + 1}`;
      this.stamps.set(ms, label);
    }
    return label;
  }

  /** A content the sequence sends: K1, K2... */
  content(text: string): string {
    let label = this.contents.get(text);
    if (!label) {
      label = `K${this.contents.size + 1}`;
      this.contents.set(text, label);
    }
    return label;
  }

  /**
   * A timestamp in a response: the label of the supplied instant it equals, among those sent for
   * this resource (another's supplied instant may equal a server time by chance), else only
   * 'valid' (server time, or a value the document leaves open when `labels` is empty).
   */
  timestamp(value: unknown, labels: ReadonlySet<string>): string {
    if (value === undefined) return 'absent';
    if (value === null) return 'null';
    const ms = instantOf(value);
    if (ms === undefined) return `invalid ${JSON.stringify(value)}`;
    const label = this.stamps.get(ms);
    if (label !== undefined && labels.has(label)) return label;
    // A supplied instant kept at the target's precision (cut or rounded to the step) is still that instant.
    if (this.precisionMs > 1) {
      for (const [sent, kept] of this.stamps)
        if (labels.has(kept) && sameAtPrecision(ms, sent, this.precisionMs)) return kept;
    }
    return 'valid';
  }

  contentOf(value: unknown): string {
    if (typeof value !== 'string') return `not a string: ${JSON.stringify(value)}`;
    return this.contents.get(value) ?? `other: ${JSON.stringify(value.slice(0, 60))}`;
  }

  idList(value: unknown, prefix: 'N' | 'C'): unknown {
    if (!Array.isArray(value)) return `not an array: ${JSON.stringify(value)}`;
    return value.map((v) => (typeof v === 'string' ? this.id(v, prefix) : JSON.stringify(v))).sort();
  }

  idOf(value: unknown, prefix: 'N' | 'C'): string {
    return typeof value === 'string' ? this.id(value, prefix) : `not an id: ${JSON.stringify(value)}`;
  }
}

/**
 * Status as the document constrains it: 200 and the duplicate-id 409 exactly; a 2xx for the
 * endpoints whose shapes are not shown; any other refusal only as "4xx".
 */
export function statusOf(x: Exchange, opts: { exact409?: boolean; anySuccess?: boolean } = {}): string {
  if (x.status === 200) return opts.anySuccess ? '2xx' : '200';
  if (opts.anySuccess && x.status >= 200 && x.status < 300) return '2xx';
  if (opts.exact409 && x.status === 409) return '409';
  if (x.status >= 400 && x.status < 500) return '4xx';
  return String(x.status);
}

/** A version's relation to the last one this side saw for the note (absolute numbers differ). */
export function versionOf(value: unknown, last: number | undefined): string {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    return `not an integer >= 1: ${JSON.stringify(value)}`;
  if (last === undefined) return 'integer';
  return value === last ? 'same' : 'changed';
}

export function arrayOf(value: unknown): string {
  return Array.isArray(value) ? `array of ${value.length}` : `not an array: ${JSON.stringify(value)}`;
}

export function typeOf(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

const isObject = (v: unknown): v is Observation => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Dotted paths of the fields whose normalised values differ (then_read.collection_ids); absent on one side counts. */
export function differingFields(a: Observation, b: Observation, prefix = ''): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.flatMap((k) => {
    if (JSON.stringify(a[k]) === JSON.stringify(b[k])) return [];
    const [x, y] = [a[k], b[k]];
    return isObject(x) && isObject(y) ? differingFields(x, y, `${prefix}${k}.`) : [`${prefix}${k}`];
  });
}

/** The normalised value at a dotted path, as JSON ('absent' when missing). */
export function valueAt(o: Observation, path: string): string {
  let node: unknown = o;
  for (const key of path.split('.')) node = isObject(node) ? node[key] : undefined;
  return node === undefined ? 'absent' : JSON.stringify(node);
}
