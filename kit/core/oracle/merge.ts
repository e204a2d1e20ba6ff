import type { DeclaredRateLimitHeaders } from './headers.js';
import { RateLimitHeaders } from './headers.js';
import { type Judged, Judgements } from './judge.js';
import type { OperationTally, OracleRecord } from './oracle.js';

/** The oracle's judgements of the whole run: every worker's, and what only the whole run can show. */
export interface RunJudgements {
  readonly judged: Judged[];
  /** Requests of the run that got no answer (timeout, a dead target, a budget). */
  readonly unanswered: number;
  /** Every worker's answers per operation and status. */
  readonly operations: OperationTally;
  /** The behaviour targets some answer of the run visited (spec/behaviour-space.yaml). */
  readonly coverage: readonly string[];
  /** What the explorers of the workers sent, and whether one ran out of its budget. */
  readonly explored: { readonly requests: number; readonly budgetSpent: boolean; readonly ran: boolean };
}

/**
 * Joins the check workers' records (one a worker, from the run folder). Each check runs in one
 * worker, so only the traffic outside the checks can meet twice; whether any answer of the run
 * carried the rate-limit header families is judged here, once, over every worker's answers.
 */
export function mergeRecords(records: readonly OracleRecord[], declared?: DeclaredRateLimitHeaders): RunJudgements {
  const byKey = new Map<string, Judged>();
  for (const record of records)
    for (const entry of record.judged) {
      const key = `${entry.rule}\u0000${entry.source?.file ?? ''}\u0000${entry.source?.name ?? ''}`;
      const seen = byKey.get(key);
      if (!seen) byKey.set(key, { ...entry, findings: [...entry.findings] });
      else {
        seen.judged += entry.judged;
        seen.findings.push(...entry.findings.slice(0, Math.max(0, 3 - seen.findings.length)));
      }
    }
  const headers = new RateLimitHeaders(declared);
  for (const record of records) headers.absorb(record.headers);
  const whole = new Judgements();
  headers.conclude(whole);
  const operations: OperationTally = {};
  for (const record of records)
    for (const [op, statuses] of Object.entries(record.operations ?? {}))
      for (const [status, n] of Object.entries(statuses))
        (operations[op] ??= {})[status] = (operations[op]?.[status] ?? 0) + n;
  return {
    judged: [...byKey.values(), ...whole.entries()],
    unanswered: records.reduce((n, r) => n + r.unanswered, 0),
    operations,
    coverage: [...new Set(records.flatMap((r) => r.coverage ?? []))].sort(),
    explored: {
      requests: records.reduce((n, r) => n + (r.explored?.requests ?? 0), 0),
      budgetSpent: records.some((r) => r.explored?.budgetSpent === true),
      ran: records.some((r) => r.explored !== undefined),
    },
  };
}
