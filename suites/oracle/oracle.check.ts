import { threadId } from 'node:worker_threads';
import { beforeAll } from 'vitest';
import { sleep } from '../../kit/core/client.js';
import { checksEnded, otherOracleRecords } from '../../kit/core/run-folder.js';
import { stopSignal } from '../../kit/core/signals.js';
import { ORACLE_UNJUDGED } from '../harness/errors.js';
import { checks } from '../harness/index.js';
import type { OracleRecord } from './oracle.js';
import { ORACLE_RULES } from './rules.js';

/**
 * The oracle's verdicts. Every exchange of the run passed through the oracle (suites/oracle/
 * oracle.ts) as the other checks sent it; this file runs last (kit/tier.ts orders it) and turns
 * what it found into the verdict of each rule, with the exchange that broke the rule as evidence
 * and repro. It sends no request.
 */
const { kit, check } = checks();

/**
 * How long the oracle's file waits for the other worker's last file at most: that file may be any
 * (a whole property run against a slow target), so the bound is only against a worker that never
 * reports its file's end; the run's deadline and an interrupt end the wait sooner.
 */
const OTHER_WORKERS_WAIT_MS = 30 * 60_000;

// With several check workers the others may still be running files: once the run command marks
// them ended, their oracles' records join this one's. A wait cut short leaves the oracle partial:
// what it found stands, nothing reads as passed.
beforeAll(async () => {
  if ((kit.ctx.workers ?? 1) <= 1) return;
  const until = Math.min(Date.now() + OTHER_WORKERS_WAIT_MS, kit.ctx.deadlineAt ?? Infinity);
  const stop = kit.ctx.parentHandlesInterrupt ? stopSignal() : undefined;
  while (!checksEnded(kit.ctx.runDir) && Date.now() < until && !stop?.aborted) await sleep(20);
  if (!checksEnded(kit.ctx.runDir)) kit.oracle.partial = true;
  for (const record of otherOracleRecords(kit.ctx.runDir, threadId)) kit.oracle.absorb(record as OracleRecord);
}, OTHER_WORKERS_WAIT_MS + 60_000);

for (const rule of ORACLE_RULES) {
  check(
    'every answer of the run agrees with what the run established (oracle)',
    { rules: [rule], generalist: true },
    async (t) => {
      kit.oracle.conclude();
      const { judgements } = kit.oracle;
      const findings = judgements.findings.get(rule) ?? [];
      if (findings.length === 0) {
        if (!judgements.judged.get(rule)) t.skip(ORACLE_UNJUDGED);
        // A run whose requests went unanswered (a target that died, a rate limit not waited out) was
        // not seen whole: what the oracle found broken stands, but nothing reads as passed on it.
        if (kit.oracle.unansweredCount > 0 || kit.oracle.partial) t.skip(ORACLE_UNJUDGED);
        return;
      }
      const first = findings[0]!;
      const more = findings.length > 1 ? ` (and ${findings.length - 1} more answer(s) of the run)` : '';
      t.failOn(rule, first.x, `${first.message}${more}`, first.context);
    },
  );
}
