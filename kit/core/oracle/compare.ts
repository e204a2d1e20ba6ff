import { instantOf as instantOfText } from '../../../spec/patterns.js';
import type { Fact, Refusal } from '../behaviour/state.js';
import type { Exchange } from '../client.js';
import type { Judgements } from './judge.js';

/** Milliseconds of a timestamp the target sent, or undefined when it is none (the shape rules judge that). */
export function ms(value: unknown): number | undefined {
  return instantOfText(value);
}

/** Two instants the target reported for one value agree at its precision (it may cut or round at the step). */
import { sameInstant } from '../behaviour/outcomes.js';

export { sameInstant };

/**
 * A value in a message, whole: the message is redacted before it is cut (judge.ts), so that a
 * token a target reflected is never left half-quoted where redaction cannot recognise it.
 */
export function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/**
 * The rule a contradiction of `fact` breaks: a refused request since then that asked for exactly
 * what is now seen changed something it must not have (its rule); otherwise the operation that
 * established the value (the fact's rule).
 */
export function ruleOf<T>(
  fact: Fact<T>,
  refusals: readonly Refusal[],
  field: string,
  seen: unknown,
): Refusal | Fact<T> {
  for (let i = refusals.length - 1; i >= 0; i--) {
    const r = refusals[i]!;
    if (field in r.asked && equalValue(r.asked[field], seen)) return r;
  }
  return fact;
}

function equalValue(asked: unknown, seen: unknown): boolean {
  if (asked === seen) return true;
  const a = ms(asked);
  const b = ms(seen);
  return a !== undefined && b !== undefined && a === b;
}

/** Judges one field the target reported against what the run established about it. */
export function agree<T>(
  j: Judgements,
  fact: Fact<T> | undefined,
  refusals: readonly Refusal[],
  field: string,
  seen: unknown,
  equal: (seen: unknown, known: T) => boolean,
  x: Exchange,
  what: string,
): void {
  if (!fact) return;
  const ok = equal(seen, fact.value);
  const blame = ok ? fact : ruleOf(fact, refusals, field, seen);
  const refused = 'asked' in blame;
  j.that(
    blame.rule,
    ok,
    () =>
      refused
        ? `${what}: ${field} is ${show(seen)}, the value of a request the target refused` +
          ` (${blame.by.method} ${blame.by.path} answered ${blame.by.status}); a refusal must change nothing`
        : `${what}: ${field} is ${show(seen)}, but ${fact.by.method} ${fact.by.path} left it ${show(fact.value)}` +
          ' and nothing since explains the change',
    x,
    blame.by,
  );
}

export const sameText = (seen: unknown, known: string | null) => seen === known;
export const sameNumber = (seen: unknown, known: number) => seen === known;
export const instantOf =
  (precisionMs: number) =>
  (seen: unknown, known: number): boolean => {
    const t = ms(seen);
    return t !== undefined && sameInstant(t, known, precisionMs);
  };

/**
 * The instants that are "server time" for an exchange: within the clock tolerance of when the
 * target answered, by its Date header when it sends one (a second's resolution), else by the
 * kit's clock around the exchange; a store that cuts instants to its precision may show up to one
 * step earlier.
 */
export function serverTimeWindow(
  x: Exchange,
  startedAt: number,
  endedAt: number,
  toleranceMs: number,
  precisionMs: number,
): { low: number; high: number } {
  const date = x.headers.date ? Date.parse(x.headers.date) : Number.NaN;
  const [low, high] = Number.isNaN(date)
    ? [startedAt - toleranceMs, endedAt + toleranceMs]
    : [date - toleranceMs - 1_000, date + toleranceMs + 1_000];
  return { low: low - Math.max(0, precisionMs - 1), high };
}
