import type { Exchange } from '../core/client.js';
import { type Finding, notObserved, observed } from './findings.js';
import { MAX_REQUESTS, type ProbeSession } from './session.js';

/** What one try of a candidate showed: confirmed (and how), or why not. */
export type Trial = { readonly how: string } | { readonly why: string };
export const confirmed = (how: string): Trial => ({ how });
export const notConfirmed = (why: string): Trial => ({ why });

/** Why an answer to a guess was no success: "refused (400)" or "answered 503". */
export function failedAnswer(x: Exchange): string | undefined {
  if (x.status >= 200 && x.status < 300) return undefined;
  return x.status >= 400 && x.status < 500 ? `refused (${x.status})` : `answered ${x.status}`;
}

/**
 * Tries candidates in order until the target's behaviour confirms one; each try may cost up to
 * `cost` requests, and none starts that the probe's cap (less its reserve) cannot pay for. The
 * finding names the candidate and its evidence, or every candidate tried and why it failed.
 */
export async function firstConfirmed<T>(
  s: ProbeSession,
  candidates: readonly T[],
  label: (c: T) => string,
  trial: (c: T) => Promise<Trial>,
  cost = 1,
): Promise<Finding<T>> {
  const tried: string[] = [];
  for (const candidate of candidates) {
    if (!s.affords(cost)) {
      const rest = candidates.slice(tried.length).map(label).join(', ');
      return notObserved(
        `${tried.length > 0 ? `tried ${tried.join('; ')}; ` : ''}the probe's ${MAX_REQUESTS} requests left no room to try ${rest}`,
      );
    }
    const result = await trial(candidate);
    if ('how' in result) {
      const before = tried.length > 0 ? ` (before it: ${tried.join('; ')})` : '';
      return observed(candidate, `${label(candidate)}: ${result.how}${before}`);
    }
    tried.push(`${label(candidate)} ${result.why}`);
  }
  return notObserved(tried.length === 0 ? 'no candidate to try' : `no candidate was confirmed: ${tried.join('; ')}`);
}

/** "the open and done notes" / "none of the four notes": a set of the probe's notes in words. */
export function which(names: readonly string[], of: string): string {
  if (names.length === 0) return `none of the ${of}`;
  return `the ${names.join(' and ')}`;
}

export const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));
