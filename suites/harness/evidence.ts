import type { Exchange } from '../../kit/core/client.js';

import type { EvidenceExchange } from '../../spec/check-meta.js';

export interface EvidenceLimits {
  /** At most this many exchanges, unless more were judged (those are never dropped). */
  readonly exchanges: number;
  /** Context exchanges stop once the evidence holds this many characters of bodies. */
  readonly chars: number;
}

export const EVIDENCE_LIMITS: EvidenceLimits = { exchanges: 8, chars: 64_000 };

/**
 * The evidence of a failed check: the exchanges a failure judged first (in the order sent), then
 * the latest others as context (in the order sent) while they fit the limits. A check may send
 * hundreds of requests; the one that failed must be in the report whatever came after it.
 */
export function selectEvidence(
  exchanges: readonly Exchange[],
  judged: ReadonlySet<number>,
  limits: EvidenceLimits = EVIDENCE_LIMITS,
): EvidenceExchange[] {
  // The evidence keeps what a reader is shown (no parsed JSON, no repro: that is kept per rule).
  const strip = (x: Exchange): EvidenceExchange => ({
    method: x.method,
    path: x.path,
    requestHeaders: { ...x.requestHeaders },
    ...(x.requestBody !== undefined ? { requestBody: x.requestBody } : {}),
    status: x.status,
    headers: { ...x.headers },
    text: x.text,
    ...(x.id !== undefined ? { id: x.id } : {}),
  });
  const first = [...judged].filter((i) => i >= 0 && i < exchanges.length).sort((a, b) => a - b);
  let chars = first.reduce((n, i) => n + size(exchanges[i]!), 0);
  const context: number[] = [];
  for (let i = exchanges.length - 1; i >= 0 && first.length + context.length < limits.exchanges; i--) {
    if (judged.has(i)) continue;
    const cost = size(exchanges[i]!);
    if (chars + cost > limits.chars) break;
    chars += cost;
    context.unshift(i);
  }
  return [
    ...first.map((i): EvidenceExchange => ({ ...strip(exchanges[i]!), judged: true })),
    ...context.map((i): EvidenceExchange => strip(exchanges[i]!)),
  ];
}

function size(x: Exchange): number {
  return x.text.length + (x.requestBody?.length ?? 0) + x.path.length;
}
