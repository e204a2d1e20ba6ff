import { DATE_TIME, readDateTime } from '../../spec/patterns.js';
import { type Finding, notObserved, observed, type RateLimitFindings } from './findings.js';
import type { ProbeNotes } from './probe-data.js';
import type { ProbeNote } from './refusals.js';
import type { Answer, ProbeSession } from './session.js';

/** The header families the document names (part 8); the schema's `names` takes only these. */
const FAMILY = /^x-(ratelimit|complexity)-/;
/** Rate-limit headers outside the families (IETF RateLimit-*, Retry-After): reported, not declared. */
const RELATED = /(^|-)(ratelimit|rate-limit|complexity)(-|$)|^retry-after$/;

/**
 * Answers of operations the kit's header check samples (search, related notes, collection list
 * and search) that the probe has no successful answer of yet, so their headers can be declared.
 */
export async function sampleHeaderOperations(s: ProbeSession, note: ProbeNote): Promise<void> {
  const answered = (op: string) => s.answers.some((a) => a.op === op && a.x.status >= 200 && a.x.status < 300);
  const samples: Array<[string, Parameters<ProbeSession['send']>[1]]> = [
    ['searchNotes', { method: 'POST', path: '/v2/notes/search', query: { limit: 1 }, json: { query: s.word() } }],
    ['getRelatedNotes', { method: 'GET', path: `/v2/notes/${note.id}/related-notes`, query: { limit: 1 } }],
    ['listCollections', { method: 'GET', path: '/v2/collections', query: { limit: 1 } }],
    ['searchCollections', { method: 'POST', path: '/v2/collections/search', json: {} }],
  ];
  for (const [op, request] of samples) if (!answered(op) && s.affords(1)) await s.send(op, request);
}

/** `x-ratelimit-remaining` as the document spells the family: `X-RateLimit-Remaining`. */
export function headerName(lower: string): string {
  const words: Record<string, string> = { x: 'X', ratelimit: 'RateLimit', complexity: 'Complexity' };
  return lower
    .split('-')
    .map((w) => words[w] ?? w.charAt(0).toUpperCase() + w.slice(1))
    .join('-');
}

/**
 * Which operations' successful answers carry X-RateLimit-* / X-Complexity-* headers, and the
 * names every one of them carries (the kit expects each declared name on each declared operation).
 */
export function rateLimitFindings(answers: readonly Answer[]): RateLimitFindings {
  const byOp = new Map<string, Set<string>>();
  const related = new Set<string>();
  for (const { op, x } of answers) {
    if (x.status < 200 || x.status > 299) continue;
    const names = Object.keys(x.headers).filter((h) => FAMILY.test(h));
    for (const h of Object.keys(x.headers)) if (!FAMILY.test(h) && RELATED.test(h)) related.add(h);
    const seen = byOp.get(op) ?? new Set<string>();
    for (const h of names) seen.add(h);
    byOp.set(op, seen);
  }
  const sampled = [...byOp.keys()];
  const carriers = sampled.filter((op) => byOp.get(op)!.size > 0);
  const notes: string[] = [];
  if (related.size > 0)
    notes.push(
      `also seen, outside the X-RateLimit-*/X-Complexity-* families: ${[...related].map(headerName).join(', ')}`,
    );
  const limited = answers.find((a) => a.x.status === 429);
  const retryAfter = limited
    ? limited.x.headers['retry-after'] !== undefined
      ? observed(true, `the probe's 429 carried Retry-After: ${limited.x.headers['retry-after']}`)
      : observed(false, "the probe's 429 carried no Retry-After")
    : notObserved<boolean>('the target did not rate-limit the probe');
  if (carriers.length === 0) {
    const why = `no successful answer carried an X-RateLimit-* or X-Complexity-* header (sampled: ${sampled.join(', ')})`;
    return { operations: notObserved(why), names: notObserved(why), retryAfter, notes };
  }
  const common = [...byOp.get(carriers[0]!)!].filter((h) => carriers.every((op) => byOp.get(op)!.has(h)));
  for (const op of carriers) {
    const extra = [...byOp.get(op)!].filter((h) => !common.includes(h));
    if (extra.length > 0) notes.push(`${op} also carried ${extra.map(headerName).join(', ')}`);
  }
  const without = sampled.filter((op) => !carriers.includes(op));
  return {
    operations: observed(
      carriers,
      `their successful answers carried the headers${without.length ? `; ${without.join(', ')} did not` : ''}; other operations were not sampled`,
    ),
    names: observed(
      common.map(headerName),
      common.length === 0 ? 'no header name is common to all of them' : 'each of those operations carried all of them',
    ),
    retryAfter,
    notes,
  };
}

/** A response timestamp in microseconds since the epoch (fractions beyond microseconds dropped). */
export function micros(text: unknown): number | undefined {
  const m = typeof text === 'string' ? DATE_TIME.exec(text) : null;
  const t = readDateTime(text);
  if (!m || !t) return undefined;
  const fraction = m[7] ?? '';
  return (t.ms - Number(fraction.slice(0, 3).padEnd(3, '0'))) * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

const PRECISIONS = [1, 10, 100, 1000];

/**
 * timestamp_precision_ms: the coarsest step the target keeps of a timestamp it is sent. Each
 * sent value has distinct milliseconds (.123, .456, .789, ...); the precision is the smallest
 * step p such that every value came back as a multiple of p less than p away from what was sent.
 */
export function timestampPrecision(sent: ProbeNotes['sent']): Finding<number> {
  const pairs = sent.map((p) => ({ ...p, back: micros(p.returned) }));
  const unreadable = pairs.find((p) => p.back === undefined);
  if (unreadable)
    return notObserved(
      `the create response's ${unreadable.field} ${JSON.stringify(unreadable.returned)} is not an ISO 8601 timestamp`,
    );
  const sample = pairs
    .map((p) => `${new Date(p.ms).toISOString().slice(19, 23)} as ${String(p.returned).slice(19)}`)
    .join(', ');
  for (const step of PRECISIONS) {
    const fits = pairs.every((p) => p.back! % (step * 1000) === 0 && Math.abs(p.back! - p.ms * 1000) < step * 1000);
    if (fits)
      return observed(
        step,
        `created_at and updated_at sent with milliseconds came back ${step === 1 ? 'unchanged' : `cut to ${step} ms`} (${sample})`,
      );
  }
  return notObserved(`created_at and updated_at sent with milliseconds came back as other instants (${sample})`);
}
