import type { Api } from '../../kit/core/api.js';
import type { Exchange } from '../../kit/core/client.js';
import type { OkBody } from '../harness/bodies.js';
import type { CheckContext } from '../harness/check.js';
import { KitError, RuleViolation, show } from '../harness/index.js';

/** The system under test as the commands see it. */
export interface Real {
  t: CheckContext;
  api: Api;
  /** The steps of this run, as they ran (with the ids they touched). */
  steps: string[];
  /** An instant before the run's first note (less the clock tolerance): the lists' created_after. */
  since: string;
  /**
   * How often each kind of edge request was sent in this check, across its runs (commands/edge-input.ts
   * sends the least sent kind it can): every kind is sent before any is sent twice.
   */
  edgeInputsSent: Map<string, number>;
  /** Notes made in this check only so that a walk of the largest page has a second page (ListNotes). */
  fillers: { made: number };
}

/** The target broke `rule` unless `condition` holds: the run stops, failing that rule only. */
export function violation(rule: string, condition: boolean, message: string): void {
  if (!condition) throw new RuleViolation(rule, message);
}

export function refused(rule: string, x: Exchange, what: string): void {
  violation(rule, x.status >= 400 && x.status < 500, `${what} must be refused with a 4xx: ${show(x)}`);
}

export function ok<Op extends string>(rule: string, x: Exchange<Op>, what: string): OkBody<Op> {
  violation(
    rule,
    x.status === 200 && typeof x.json === 'object' && x.json !== null,
    `${what} must succeed with 200: ${show(x)}`,
  );
  return x.json as OkBody<Op>;
}

/** A read the model needs to compare; anything but 200 for a live note is a violation of the given rule. */
export async function readNote(real: Real, id: string, rule: string): Promise<OkBody<'getNote'>> {
  return (await readNoteExchange(real, id, rule)).body;
}

/** The same, with the exchange: the evidence of what the model learns from it. */
export async function readNoteExchange(
  real: Real,
  id: string,
  rule: string,
): Promise<{ body: OkBody<'getNote'>; x: Exchange }> {
  const x = await real.api.getNote(id);
  return { body: ok(rule, x, `reading note ${id}`), x };
}

export function sameSet(a: Iterable<string>, b: Iterable<string>): boolean {
  const x = [...a].sort();
  const y = [...b].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

export function numberField(body: Record<string, unknown>, field: string, what: string): number {
  const value = body[field];
  if (typeof value !== 'number') throw new KitError(`${what}: ${field} is not a number (${JSON.stringify(value)})`);
  return value;
}
